import { archiveMigration } from './archive-migration'
import { importedModelMigration } from './imported-model-migration'
import { memoryConfirmationMigration } from './memory-confirmation-migration'
import { memoryHiddenMigration } from './memory-hidden-migration'
import { projectMemoryMigration } from './project-memory-migration'
import { migration14 } from './migration-14'
import { holdsUnsegmented } from './unsegmented'
import { reviewFailureMigration } from './review-failure-migration'
import { semanticMigration } from './semantic-migration'
import { vocabMigration } from './vocab-migration'

/**
 * Versioned schema of `state.db`. Append new migrations; never edit one that has shipped.
 * Times are milliseconds since the epoch.
 */
export interface Migration {
  version: number
  sql: string
}

export { UNSEGMENTED_GLOB, holdsUnsegmented } from './unsegmented'

export const migrations: Migration[] = [
  {
    version: 1,
    sql: /* sql */ `
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        title TEXT,
        source TEXT NOT NULL DEFAULT 'cli',
        model TEXT,
        parent_session_id TEXT REFERENCES sessions(id) ON DELETE SET NULL,
        started_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        message_count INTEGER NOT NULL DEFAULT 0,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        cached_tokens INTEGER NOT NULL DEFAULT 0,
        system_prompt TEXT,
        state TEXT
      );
      CREATE INDEX sessions_updated ON sessions(updated_at DESC);
      CREATE INDEX sessions_source_updated ON sessions(source, updated_at DESC);
      CREATE INDEX sessions_parent ON sessions(parent_session_id);

      CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool', 'summary')),
        content TEXT,
        tool_calls TEXT,
        tool_call_id TEXT,
        tool_name TEXT,
        created_at INTEGER NOT NULL,
        prompt_tokens INTEGER,
        completion_tokens INTEGER,
        cached_tokens INTEGER,
        finish_reason TEXT,
        compacted INTEGER NOT NULL DEFAULT 0,
        meta TEXT,
        -- What the index reads for tool calls: each call's name and arguments. Not the JSON itself,
        -- whose keys and call ids ("id", "name", "call_…") would match every tool call ever made.
        tool_call_text TEXT
      );
      CREATE INDEX messages_session ON messages(session_id, id);

      -- Full-text index over what a message says and does (tool output, tool name, tool-call arguments),
      -- kept in step by triggers so a message is searchable the moment its insert commits.
      CREATE VIRTUAL TABLE messages_fts USING fts5(
        content, tool_name, tool_call_text,
        content='messages', content_rowid='id',
        tokenize='porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts (rowid, content, tool_name, tool_call_text)
        VALUES (new.id, new.content, new.tool_name, new.tool_call_text);
      END;
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content, tool_name, tool_call_text)
        VALUES ('delete', old.id, old.content, old.tool_name, old.tool_call_text);
      END;
      -- A tool name is one short word present in every call of that tool: weigh it (and the call
      -- arguments) below what was actually said, or "file" would rank every read_file call first.
      INSERT INTO messages_fts (messages_fts, rank) VALUES ('rank', 'bm25(1.0, 0.3, 0.5)');
      -- Only text changes re-index: flipping compacted must not churn the index.
      CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, tool_name, tool_call_text ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content, tool_name, tool_call_text)
        VALUES ('delete', old.id, old.content, old.tool_name, old.tool_call_text);
        INSERT INTO messages_fts (rowid, content, tool_name, tool_call_text)
        VALUES (new.id, new.content, new.tool_name, new.tool_call_text);
      END;

      -- unicode61 reads a run of Chinese or Japanese as one giant token, so messages holding unsegmented
      -- script also go to a trigram index. Only those messages: trigram indexing all text would more than
      -- double ingest cost and size for no gain in English. Contentless (the text lives in messages), with
      -- contentless_delete so the triggers can drop rows by id.
      CREATE VIRTUAL TABLE messages_trigram USING fts5(
        body, content='', contentless_delete=1, tokenize='trigram'
      );
      CREATE TRIGGER messages_trigram_insert AFTER INSERT ON messages
      WHEN ${holdsUnsegmented('new.content')} OR ${holdsUnsegmented('new.tool_call_text')} BEGIN
        INSERT INTO messages_trigram (rowid, body)
        VALUES (new.id, coalesce(new.content, '') || ' ' || coalesce(new.tool_call_text, ''));
      END;
      CREATE TRIGGER messages_trigram_delete AFTER DELETE ON messages BEGIN
        DELETE FROM messages_trigram WHERE rowid = old.id;
      END;
      CREATE TRIGGER messages_trigram_update AFTER UPDATE OF content, tool_call_text ON messages BEGIN
        DELETE FROM messages_trigram WHERE rowid = old.id;
        INSERT INTO messages_trigram (rowid, body)
        SELECT new.id, coalesce(new.content, '') || ' ' || coalesce(new.tool_call_text, '')
        WHERE ${holdsUnsegmented('new.content')} OR ${holdsUnsegmented('new.tool_call_text')};
      END;
      -- The short-CJK LIKE fallback scans only messages that hold such script.
      CREATE INDEX messages_unsegmented ON messages(session_id, id) WHERE ${holdsUnsegmented('content')};

      CREATE TABLE ledger (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        target TEXT NOT NULL,
        source TEXT NOT NULL,
        session_id TEXT,
        review_id TEXT,
        before TEXT,
        after TEXT,
        meta TEXT NOT NULL DEFAULT '{}',
        reverted_by INTEGER REFERENCES ledger(id)
      );
      CREATE INDEX ledger_at ON ledger(at DESC);
      CREATE INDEX ledger_review ON ledger(review_id);

      CREATE TABLE skill_usage (
        name TEXT PRIMARY KEY,
        view_count INTEGER NOT NULL DEFAULT 0,
        last_viewed_at INTEGER,
        use_count INTEGER NOT NULL DEFAULT 0,
        last_used_at INTEGER,
        success_count INTEGER NOT NULL DEFAULT 0,
        failure_count INTEGER NOT NULL DEFAULT 0,
        patch_count INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER,
        created_by TEXT
      );
    `
  },
  {
    // Every background review: queued, running, done, failed, timed out or crashed, with its summary line.
    version: 2,
    sql: /* sql */ `
      CREATE TABLE IF NOT EXISTS review_runs (
        id TEXT PRIMARY KEY,
        session_id TEXT,
        kinds TEXT NOT NULL,
        reasons TEXT NOT NULL,
        status TEXT NOT NULL,
        queued_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER,
        summary TEXT,
        error TEXT,
        pid INTEGER
      );
      CREATE INDEX IF NOT EXISTS review_runs_queued ON review_runs(queued_at DESC);
    `
  },
  {
    // The folder a conversation works in (its workspace tools), so a resumed conversation works where it did.
    // NULL for conversations from before: the first resume fills in the face's default.
    version: 3,
    sql: /* sql */ `
      ALTER TABLE sessions ADD COLUMN workspace TEXT;
    `
  },
  {
    // A change and its ledger row as one recoverable unit: the row is written 'pending' before the file
    // changes and 'committed' after, and a row a crash left pending is reconciled against the file at the
    // next start ('conflict' when the file holds neither side). The timeline shows committed rows only.
    // `writer` (`host:pid`) names the process of a pending row: once it is gone, its row can be settled.
    version: 4,
    sql: /* sql */ `
      ALTER TABLE ledger ADD COLUMN state TEXT NOT NULL DEFAULT 'committed' CHECK (state IN ('committed', 'pending', 'conflict'));
      ALTER TABLE ledger ADD COLUMN writer TEXT;
      CREATE INDEX ledger_unsettled ON ledger(state) WHERE state <> 'committed';
    `
  },
  {
    // Steerable learning. `proposals`: changes a review or curation wants that wait for the user (the
    // Inbox), each a ledger row that has not happened yet; `ledger_id` links the row its approval wrote.
    // `skill_flags`: skills the user pinned (learning only proposes changes to them) or disabled (out of
    // the index, files kept). `memory_pins`: pinned memory entries, by their text. `learning_state`:
    // per data home counters (user turns across conversations). Reviews record their model and tokens.
    version: 5,
    sql: /* sql */ `
      CREATE TABLE proposals (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created_at INTEGER NOT NULL,
        origin TEXT NOT NULL CHECK (origin IN ('review', 'curation')),
        review_id TEXT,
        session_id TEXT,
        kind TEXT NOT NULL,
        target TEXT NOT NULL,
        before TEXT,
        after TEXT,
        meta TEXT NOT NULL DEFAULT '{}',
        reasons TEXT NOT NULL DEFAULT '[]',
        cause TEXT NOT NULL,
        rationale TEXT,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'edited', 'rejected')),
        decided_at INTEGER,
        edited_after TEXT,
        ledger_id INTEGER REFERENCES ledger(id)
      );
      CREATE INDEX proposals_state ON proposals(state, created_at DESC);
      CREATE INDEX proposals_review ON proposals(review_id);
      CREATE INDEX proposals_target ON proposals(target, state);

      CREATE TABLE skill_flags (
        name TEXT PRIMARY KEY,
        pinned INTEGER NOT NULL DEFAULT 0,
        disabled INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE memory_pins (
        store TEXT NOT NULL CHECK (store IN ('memory', 'user')),
        entry TEXT NOT NULL,
        pinned_at INTEGER NOT NULL,
        PRIMARY KEY (store, entry)
      );

      CREATE TABLE learning_state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );

      ALTER TABLE review_runs ADD COLUMN model TEXT;
      ALTER TABLE review_runs ADD COLUMN prompt_tokens INTEGER;
      ALTER TABLE review_runs ADD COLUMN completion_tokens INTEGER;
    `
  },
  {
    // A stale proposal can be reviewed again: it becomes 'superseded' (not 'rejected', which tells later
    // reviews never to propose the change again). SQLite cannot widen a CHECK in place, so the table is rebuilt.
    version: 6,
    sql: /* sql */ `
      CREATE TABLE proposals_v6 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created_at INTEGER NOT NULL,
        origin TEXT NOT NULL CHECK (origin IN ('review', 'curation')),
        review_id TEXT,
        session_id TEXT,
        kind TEXT NOT NULL,
        target TEXT NOT NULL,
        before TEXT,
        after TEXT,
        meta TEXT NOT NULL DEFAULT '{}',
        reasons TEXT NOT NULL DEFAULT '[]',
        cause TEXT NOT NULL,
        rationale TEXT,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'edited', 'rejected', 'superseded')),
        decided_at INTEGER,
        edited_after TEXT,
        ledger_id INTEGER REFERENCES ledger(id)
      );
      INSERT INTO proposals_v6 SELECT * FROM proposals;
      DROP TABLE proposals;
      ALTER TABLE proposals_v6 RENAME TO proposals;
      CREATE INDEX proposals_state ON proposals(state, created_at DESC);
      CREATE INDEX proposals_review ON proposals(review_id);
      CREATE INDEX proposals_target ON proposals(target, state);
    `
  },
  {
    // The skill hint Cairn adds to a user message moved out of `content` into `meta.hint` only, so it is
    // never shown or matched by search. Older rows carried it in both: strip it from their content (the
    // update triggers re-index them).
    version: 7,
    sql: /* sql */ `
      UPDATE messages
      SET content = substr(content, 1, length(content) - length(json_extract(meta, '$.hint')))
      WHERE role = 'user'
        AND json_valid(meta)
        AND json_type(meta, '$.hint') = 'text'
        AND length(json_extract(meta, '$.hint')) > 0
        AND substr(content, -length(json_extract(meta, '$.hint'))) = json_extract(meta, '$.hint');
    `
  },
  {
    // Pinned conversations lead the sidebar; archived ones leave it (still searchable). Neither counts as activity.
    version: 8,
    sql: /* sql */ `
      ALTER TABLE sessions ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE sessions ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
    `
  },
  {
    // Editing a sent message or answering again keeps what it replaces as another version: the replaced
    // messages move into a branch (off the shown path, kept whole) hanging after the last message both share.
    version: 9,
    sql: /* sql */ `
      CREATE TABLE message_branches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        after_id INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX message_branches_anchor ON message_branches(session_id, after_id);
      ALTER TABLE messages ADD COLUMN branch_id INTEGER REFERENCES message_branches(id) ON DELETE CASCADE;
      CREATE INDEX messages_branch ON messages(branch_id) WHERE branch_id IS NOT NULL;
    `
  },
  {
    // Files attached to a user message: their names and text (a PDF's extracted text, a text file's
    // contents), which the model reads with the message and search finds the conversation by. Kept
    // apart from `content`, which holds only what the user typed. Indexed like messages: words, and
    // trigrams for unsegmented script.
    version: 10,
    sql: /* sql */ `
      CREATE TABLE message_attachments (
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        text TEXT NOT NULL,
        UNIQUE (message_id, position)
      );
      CREATE VIRTUAL TABLE attachments_fts USING fts5(
        name, text, content='message_attachments', content_rowid='rowid',
        tokenize='porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER attachments_fts_insert AFTER INSERT ON message_attachments BEGIN
        INSERT INTO attachments_fts (rowid, name, text) VALUES (new.rowid, new.name, new.text);
      END;
      CREATE TRIGGER attachments_fts_delete AFTER DELETE ON message_attachments BEGIN
        INSERT INTO attachments_fts (attachments_fts, rowid, name, text) VALUES ('delete', old.rowid, old.name, old.text);
      END;
      CREATE VIRTUAL TABLE attachments_trigram USING fts5(
        body, content='', contentless_delete=1, tokenize='trigram'
      );
      CREATE TRIGGER attachments_trigram_insert AFTER INSERT ON message_attachments
      WHEN ${holdsUnsegmented('new.text')} OR ${holdsUnsegmented('new.name')} BEGIN
        INSERT INTO attachments_trigram (rowid, body) VALUES (new.rowid, new.name || ' ' || new.text);
      END;
      CREATE TRIGGER attachments_trigram_delete AFTER DELETE ON message_attachments BEGIN
        DELETE FROM attachments_trigram WHERE rowid = old.rowid;
      END;
    `
  },
  {
    // The conversations list pages by keys, not offsets (10,000 conversations from an import): each
    // page is one range of an index in the list's own order, pinned first or by activity alone.
    // `sessions_activity` has the id tie-break `sessions_updated` lacked, so it replaces it.
    version: 11,
    sql: /* sql */ `
      CREATE INDEX sessions_list ON sessions(archived, pinned DESC, updated_at DESC, id DESC);
      CREATE INDEX sessions_activity ON sessions(updated_at DESC, id DESC);
      DROP INDEX sessions_updated;
    `
  },
  {
    // Imports from other agents (Hermes first): one batch row each, so a batch can be listed and undone
    // as a whole. Imported sessions name their batch and the id they had where they came from; the
    // unique index makes importing the same conversation twice add nothing. `import_id` has no foreign
    // key, so a salvaged database that lost the `imports` table still keeps the conversations.
    version: 12,
    sql: /* sql */ `
      CREATE TABLE imports (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        source TEXT NOT NULL,
        path TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        counts TEXT NOT NULL DEFAULT '{}',
        problems TEXT NOT NULL DEFAULT '[]',
        reverted_at INTEGER
      );
      ALTER TABLE sessions ADD COLUMN import_id INTEGER;
      ALTER TABLE sessions ADD COLUMN external_id TEXT;
      CREATE UNIQUE INDEX sessions_external ON sessions(source, external_id) WHERE external_id IS NOT NULL;
      CREATE INDEX sessions_import ON sessions(import_id) WHERE import_id IS NOT NULL;
    `
  },
  migration14(holdsUnsegmented),
  semanticMigration,
  vocabMigration,
  reviewFailureMigration,
  memoryConfirmationMigration,
  archiveMigration,
  memoryHiddenMigration,
  projectMemoryMigration,
  importedModelMigration
]

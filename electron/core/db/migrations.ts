/**
 * Versioned schema of `state.db`. Append new migrations; never edit one that has shipped.
 * Times are milliseconds since the epoch.
 */
export interface Migration {
  version: number
  sql: string
}

export const migrations: Migration[] = [
  {
    version: 1,
    sql: /* sql */ `
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        title TEXT,
        source TEXT NOT NULL DEFAULT 'cli',
        model TEXT,
        parent_session_id TEXT REFERENCES sessions(id),
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
        compacted INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX messages_session ON messages(session_id, id);

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
  }
]

/**
 * Migration 19: the memory archive, the unbounded store below MEMORY.md and USER.md (memory/memory-archive.ts).
 * One row per entry, unique by text per store and project. `words` holds the entry's words in scripts
 * written without spaces (Chinese, Japanese…), segmented at write time and joined by spaces
 * (db/cjk-segment.ts), so the one word index finds 部署 inside 部署失败了 as a word. The index is an
 * external-content FTS5 table kept by triggers, as `messages_fts` is. Vectors for search by meaning
 * are plain BLOBs, filled lazily per model, so opening state.db never needs sqlite-vec.
 */
// Typed by shape, not by importing Migration: migrations.ts imports this file, and a cycle fails lint.
export const archiveMigration: { version: number; sql: string } = {
  version: 19,
  sql: /* sql */ `
    CREATE TABLE memory_archive (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      target TEXT NOT NULL,
      project_key TEXT,
      text TEXT NOT NULL,
      words TEXT,
      source TEXT NOT NULL,
      provenance TEXT,
      added_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      last_recalled_at INTEGER,
      recall_count INTEGER NOT NULL DEFAULT 0,
      hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1))
    );
    CREATE UNIQUE INDEX memory_archive_unique ON memory_archive(target, coalesce(project_key, ''), text);
    CREATE INDEX memory_archive_added ON memory_archive(added_at DESC, id DESC);
    -- The entries holding Chinese/Japanese words: the substring fallback reads only these.
    CREATE INDEX memory_archive_unsegmented ON memory_archive(id) WHERE words IS NOT NULL;

    CREATE VIRTUAL TABLE memory_archive_fts USING fts5(
      text, words, content='memory_archive', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER memory_archive_fts_insert AFTER INSERT ON memory_archive BEGIN
      INSERT INTO memory_archive_fts (rowid, text, words) VALUES (new.id, new.text, coalesce(new.words, ''));
    END;
    CREATE TRIGGER memory_archive_fts_delete AFTER DELETE ON memory_archive BEGIN
      INSERT INTO memory_archive_fts (memory_archive_fts, rowid, text, words) VALUES ('delete', old.id, old.text, coalesce(old.words, ''));
    END;
    CREATE TRIGGER memory_archive_fts_update AFTER UPDATE OF text, words ON memory_archive BEGIN
      INSERT INTO memory_archive_fts (memory_archive_fts, rowid, text, words) VALUES ('delete', old.id, old.text, coalesce(old.words, ''));
      INSERT INTO memory_archive_fts (rowid, text, words) VALUES (new.id, new.text, coalesce(new.words, ''));
    END;

    CREATE TABLE memory_archive_vectors (
      archive_id INTEGER PRIMARY KEY REFERENCES memory_archive(id) ON DELETE CASCADE,
      model TEXT NOT NULL,
      vector BLOB NOT NULL
    );
  `
}

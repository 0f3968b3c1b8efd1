/**
 * Search by meaning (optional, see sessions/semantic-index.ts). Only plain tables here: the vectors
 * themselves live in a sqlite-vec `vec0` table, and a vec0 table cannot be created, written, read or
 * even dropped without the extension loaded. Making it in this chain would make every process that
 * opens state.db (the review worker, `cairn doctor`, a salvage, a platform sqlite-vec does not
 * support) depend on the extension, so `message_vectors` is created on demand, once the feature is
 * on and the model's dimension is known. A database holding it still opens, checks and backs up
 * without the extension; only semantic search needs it.
 *
 * `semantic_index` (one row while the feature has been used) names the model, endpoint and dimension
 * the vectors came from, so a change re-embeds, and the range of message ids already handled, so a
 * backfill resumes where it stopped. `semantic_stale` collects deleted messages (a plain-table
 * trigger, active only while that row exists) whose vectors the next fill removes: a deleted
 * conversation leaves nothing behind, and deleting never needs the extension.
 */
// Typed by shape, not by importing Migration: migrations.ts imports this file, and a cycle fails lint.
export const semanticMigration: { version: number; sql: string } = {
  version: 15,
  sql: /* sql */ `
    CREATE TABLE semantic_index (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      model TEXT NOT NULL,
      base_url TEXT NOT NULL,
      requested_dimensions INTEGER NOT NULL,
      dimensions INTEGER NOT NULL DEFAULT 0,
      high INTEGER NOT NULL,
      low INTEGER NOT NULL,
      embedded INTEGER NOT NULL DEFAULT 0,
      skipped INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL
    );
    CREATE TABLE semantic_stale (message_id INTEGER PRIMARY KEY);
    CREATE TRIGGER semantic_stale_on_delete AFTER DELETE ON messages
    WHEN EXISTS (SELECT 1 FROM semantic_index) BEGIN
      INSERT OR IGNORE INTO semantic_stale (message_id) VALUES (old.id);
    END;
  `
}

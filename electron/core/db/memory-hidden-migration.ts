/**
 * Memory entries the user asked Cairn not to bring up (memory/memory-hidden.ts): still in MEMORY.md or
 * USER.md and on the Memory screen, but left out of the prompt, the model's `read`, MCP and recall.
 * Keyed by the entry's text like `memory_pins`, so the files stay plain `§`-separated text.
 * `memory_hidden_log` keeps each hide and show, so an entry's history says when the user decided so
 * (a hide changes no file, so it is not a ledger row, which the file's store must be able to revert).
 */
// Typed by shape, not by importing Migration: migrations.ts imports this file, and a cycle fails lint.
export const memoryHiddenMigration: { version: number; sql: string } = {
  version: 20,
  sql: /* sql */ `
    CREATE TABLE memory_hidden (
      store TEXT NOT NULL,
      entry TEXT NOT NULL,
      hidden_at INTEGER NOT NULL,
      PRIMARY KEY (store, entry)
    );
    CREATE TABLE memory_hidden_log (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      store TEXT NOT NULL,
      entry TEXT NOT NULL,
      hidden INTEGER NOT NULL,
      at INTEGER NOT NULL
    );
    CREATE INDEX memory_hidden_log_entry ON memory_hidden_log(store, entry);
  `
}

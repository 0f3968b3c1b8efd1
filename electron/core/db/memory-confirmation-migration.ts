/**
 * When a writer last tried to save a memory entry that was already there, in the same or other words:
 * that confirms the entry (memory/memory-confirmations.ts). Kept beside the ledger, not in it, so a
 * confirmation changes no file and never shows on the Timeline; keyed by the entry's text like
 * `memory_pins`, so MEMORY.md and USER.md stay plain `§`-separated text.
 */
// Typed by shape, not by importing Migration: migrations.ts imports this file, and a cycle fails lint.
export const memoryConfirmationMigration: { version: number; sql: string } = {
  version: 18,
  sql: /* sql */ `
    CREATE TABLE memory_confirmations (
      store TEXT NOT NULL,
      entry TEXT NOT NULL,
      confirmed_at INTEGER NOT NULL,
      times INTEGER NOT NULL DEFAULT 1,
      PRIMARY KEY (store, entry)
    );
  `
}

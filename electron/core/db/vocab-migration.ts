/**
 * The word index's vocabulary as a table, for completing the word the user is still typing in the
 * sidebar search (sessions/prefix-completion.ts). An `fts5vocab` table stores nothing: each row (a
 * term and the messages holding it) is read from `messages_fts` when asked for, so creating it costs
 * nothing at any size and it is never out of step. Its terms are porter stems ("gateway" is stored as
 * "gatewai"), as the index holds them.
 */
// Typed by shape, not by importing Migration: migrations.ts imports this file, and a cycle fails lint.
export const vocabMigration: { version: number; sql: string } = {
  version: 16,
  sql: /* sql */ `
    CREATE VIRTUAL TABLE messages_vocab USING fts5vocab(messages_fts, row);
  `
}

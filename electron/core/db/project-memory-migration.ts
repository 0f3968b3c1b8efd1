/**
 * Project memory (issue 28, part B): `memory_pins` accepted only 'memory' and 'user', so a pinned
 * PROJECT.md entry could not be kept. SQLite cannot widen a CHECK in place, so the table is rebuilt
 * with 'project' allowed and its rows copied.
 */
// Typed by shape, not by importing Migration: migrations.ts imports this file, and a cycle fails lint.
export const projectMemoryMigration: { version: number; sql: string } = {
  version: 21,
  sql: /* sql */ `
    CREATE TABLE memory_pins_v21 (
      store TEXT NOT NULL CHECK (store IN ('memory', 'user', 'project')),
      entry TEXT NOT NULL,
      pinned_at INTEGER NOT NULL,
      PRIMARY KEY (store, entry)
    );
    INSERT INTO memory_pins_v21 (store, entry, pinned_at) SELECT store, entry, pinned_at FROM memory_pins;
    DROP TABLE memory_pins;
    ALTER TABLE memory_pins_v21 RENAME TO memory_pins;
  `
}

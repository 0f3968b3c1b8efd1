import type Database from 'better-sqlite3'
import { markedWordsOf } from './cjk-segment'

/** Old messages are segmented this many at a time: bounded memory whatever the history's size. */
const BACKFILL_BATCH = 500

/**
 * Migration 14: messages carry their segmented words (`segmented`, see cjk-segment.ts; the store
 * computes them at write time) and the trigram index holds them after the text, so two-character
 * Chinese words, Japanese words, emoji and fullwidth letters are found as words. The triggers stay
 * plain SQL, so any connection can write messages; one written without `segmented` is indexed as
 * before (substrings only). The backfill segments older messages in JS, then rebuilds the trigram
 * index once. `holdsUnsegmented` is passed in by the migrations list
 * (importing it here would make the two modules a cycle).
 */
export function migration14(holdsUnsegmented: (column: string) => string): {
  version: number
  sql: string
  backfill: (db: Database.Database) => void
} {
  const body = (row: string): string =>
    `coalesce(${row}.content, '') || ' ' || coalesce(${row}.tool_call_text, '') || coalesce(' ' || ${row}.segmented, '')`
  const indexed = (row: string): string =>
    `${row}.segmented IS NOT NULL OR ${holdsUnsegmented(`${row}.content`)} OR ${holdsUnsegmented(`${row}.tool_call_text`)}`
  // Text changed without its words (a plain UPDATE): the old words no longer describe it.
  const updateTrigger = /* sql */ `
    CREATE TRIGGER messages_trigram_update AFTER UPDATE OF content, tool_call_text, segmented ON messages BEGIN
      UPDATE messages SET segmented = NULL
      WHERE id = new.id AND new.segmented IS old.segmented
        AND (new.content IS NOT old.content OR new.tool_call_text IS NOT old.tool_call_text);
      DELETE FROM messages_trigram WHERE rowid = old.id;
      INSERT INTO messages_trigram (rowid, body)
      SELECT id, ${body('messages')} FROM messages WHERE id = new.id AND (${indexed('messages')});
    END;`
  return {
    version: 14,
    sql: /* sql */ `
      ALTER TABLE messages ADD COLUMN segmented TEXT;
      DROP TRIGGER IF EXISTS messages_trigram_insert;
      DROP TRIGGER IF EXISTS messages_trigram_update;
      CREATE TRIGGER messages_trigram_insert AFTER INSERT ON messages WHEN ${indexed('new')} BEGIN
        INSERT INTO messages_trigram (rowid, body) VALUES (new.id, ${body('new')});
      END;
      ${updateTrigger}
    `,
    // Re-indexing row by row (the update trigger) costs five times one rebuild at the end.
    backfill: (db) => {
      db.exec('DROP TRIGGER messages_trigram_update')
      backfillSegmented(db)
      db.exec(/* sql */ `
        ${updateTrigger}
        INSERT INTO messages_trigram (messages_trigram) VALUES ('delete-all');
        INSERT INTO messages_trigram (rowid, body) SELECT id, ${body('messages')} FROM messages WHERE ${indexed('messages')};
      `)
    }
  }
}

/** Segments every message written before migration 14 that holds anything but ASCII. */
function backfillSegmented(db: Database.Database): void {
  const page = db.prepare(
    `SELECT id, content, tool_call_text FROM messages
     WHERE id > ? AND (length(CAST(content AS BLOB)) > length(content) OR length(CAST(tool_call_text AS BLOB)) > length(tool_call_text))
     ORDER BY id LIMIT ${BACKFILL_BATCH}`
  )
  const update = db.prepare('UPDATE messages SET segmented = ? WHERE id = ?')
  let after = 0
  for (;;) {
    const rows = page.all(after) as Array<{ id: number; content: string | null; tool_call_text: string | null }>
    if (!rows.length) return
    for (const row of rows) {
      const words = markedWordsOf(row.content, row.tool_call_text)
      if (words) update.run(words, row.id)
    }
    after = rows[rows.length - 1].id
  }
}

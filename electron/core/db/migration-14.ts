/**
 * Migration 14: messages carry their segmented words (`segmented`, see cjk-segment.ts; the store
 * computes them at write time) and the trigram index holds them after the text, so two-character
 * Chinese words, Japanese words, emoji and fullwidth letters are found as words. The triggers stay
 * plain SQL, so any connection can write messages; one written without `segmented` is indexed as
 * before (substrings only).
 *
 * Only schema work happens here, so start-up never waits on it: messages written before it are
 * segmented afterwards, in the background, by segment-backlog.ts. `segment_backlog` (one row while
 * that pass has work left) says how far it got: messages up to `through_id` (the newest when the
 * migration ran) are the backlog, those up to `after_id` are done. Until then they are found by
 * trigrams, as before the migration. `holdsUnsegmented` is passed in by the migrations list
 * (importing it here would make the two modules a cycle).
 *
 * This is the one edit of a migration after it shipped, and safe: its first version segmented the
 * backlog inside the migration, so a database migrated by it has every word and no `segment_backlog`
 * table, which the pass reads as nothing left to do.
 */
export function migration14(holdsUnsegmented: (column: string) => string): { version: number; sql: string } {
  const body = (row: string): string =>
    `coalesce(${row}.content, '') || ' ' || coalesce(${row}.tool_call_text, '') || coalesce(' ' || ${row}.segmented, '')`
  const indexed = (row: string): string =>
    `${row}.segmented IS NOT NULL OR ${holdsUnsegmented(`${row}.content`)} OR ${holdsUnsegmented(`${row}.tool_call_text`)}`
  return {
    version: 14,
    sql: /* sql */ `
      ALTER TABLE messages ADD COLUMN segmented TEXT;
      DROP TRIGGER IF EXISTS messages_trigram_insert;
      DROP TRIGGER IF EXISTS messages_trigram_update;
      CREATE TRIGGER messages_trigram_insert AFTER INSERT ON messages WHEN ${indexed('new')} BEGIN
        INSERT INTO messages_trigram (rowid, body) VALUES (new.id, ${body('new')});
      END;
      -- Text changed without its words (a plain UPDATE): the old words no longer describe it.
      CREATE TRIGGER messages_trigram_update AFTER UPDATE OF content, tool_call_text, segmented ON messages BEGIN
        UPDATE messages SET segmented = NULL
        WHERE id = new.id AND new.segmented IS old.segmented
          AND (new.content IS NOT old.content OR new.tool_call_text IS NOT old.tool_call_text);
        DELETE FROM messages_trigram WHERE rowid = old.id;
        INSERT INTO messages_trigram (rowid, body)
        SELECT id, ${body('messages')} FROM messages WHERE id = new.id AND (${indexed('messages')});
      END;
      CREATE TABLE segment_backlog (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        after_id INTEGER NOT NULL,
        through_id INTEGER NOT NULL,
        done INTEGER NOT NULL DEFAULT 0
      );
      INSERT INTO segment_backlog (id, after_id, through_id) SELECT 1, 0, id FROM messages ORDER BY id DESC LIMIT 1;
    `
  }
}

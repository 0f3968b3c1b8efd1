import type { StateDb } from '../../db/state-db'
import type { SessionRecord } from '../../sessions'

/**
 * The last message an import brought into this conversation: up to there it is the other app's
 * history, which learning reviews only when the user asks ("learn from imported conversations").
 * Turns the user added in Cairn since are ordinary turns. 0 for Cairn's own conversations.
 * Imported messages keep their original times, all before the batch finished; a batch that never
 * finished (a crash) counts every message as imported, so nothing is reviewed unasked.
 */
export function importedThrough(db: StateDb, session: Pick<SessionRecord, 'id' | 'source'>): number {
  if (!session.source.startsWith('import:')) return 0
  const row = db
    .prepare(
      `SELECT coalesce(max(m.id), 0) AS through FROM sessions s
       JOIN imports i ON i.id = s.import_id
       JOIN messages m ON m.session_id = s.id
       WHERE s.id = ? AND (i.finished_at IS NULL OR m.created_at <= i.finished_at)`
    )
    .get(session.id) as { through: number } | undefined
  return row?.through ?? 0
}

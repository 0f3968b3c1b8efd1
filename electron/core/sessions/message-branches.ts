import type { ErrorKey } from '../../../shared/error-keys'
import { coreEnglish } from '../../../shared/i18n/core-english'
import type { StateDb } from '../db/state-db'

/**
 * Versions of a conversation. Editing a sent message or answering again never deletes what it
 * replaces: those messages move into a branch (`messages.branch_id`), off the shown path but kept
 * whole, hanging after the last message both versions share (`after_id`, 0 for the very start).
 * Choosing a version swaps the shown tail with the stored one, so the shown path stays "every
 * message with no branch, in id order" and nothing else (the model's history, search, export,
 * reviews) needs to know about versions. Branches inside a stored branch come back with it.
 */

/** The versions that follow one message: the shown one and the stored ones, oldest first. */
export interface VersionGroup {
  /** The last message the versions share (0: they start the conversation). */
  afterId: number
  /** Each version's branch id in the order they were made; null is the shown one. */
  branches: Array<number | null>
  /** The first shown message after `afterId` (null when the shown version has no messages yet). */
  shownFirstId: number | null
}

export class VersionError extends Error {
  readonly key: VersionErrorKey
  readonly params: Record<string, string>
  /** The English for logs and the model; the app words it from `key` (shared/error-keys.ts). */
  constructor(
    readonly code: 'condensed' | 'not_found' | 'not_a_user_message',
    words: { key: VersionErrorKey; params?: Record<string, string> }
  ) {
    super(coreEnglish(`error.${words.key}`, words.params))
    this.name = 'VersionError'
    this.key = words.key
    this.params = words.params ?? {}
  }
}

type VersionErrorKey = Extract<ErrorKey, `version.${string}`>

/** Recounts what the list shows: the shown path only. */
export function recountShown(db: StateDb, sessionId: string): void {
  db.prepare('UPDATE sessions SET message_count = (SELECT COUNT(*) FROM messages WHERE session_id = @id AND branch_id IS NULL) WHERE id = @id').run({
    id: sessionId
  })
}

/**
 * A summary made after `afterId` that stands for messages after it mixes the versions: the shown
 * path after that point was condensed, so no other version can be taken up again.
 */
function condensedAfter(db: StateDb, sessionId: string, afterId: number): boolean {
  const rows = db
    .prepare("SELECT id, meta FROM messages WHERE session_id = ? AND branch_id IS NULL AND role = 'summary' AND id > ?")
    .all(sessionId, afterId) as Array<{ id: number; meta: string | null }>
  if (rows.some((row) => coversThrough(row) > afterId)) return true
  const compacted = db
    .prepare('SELECT 1 FROM messages WHERE session_id = ? AND branch_id IS NULL AND compacted = 1 AND id > ? LIMIT 1')
    .get(sessionId, afterId)
  return compacted !== undefined
}

function coversThrough(row: { id: number; meta: string | null }): number {
  try {
    const value = (JSON.parse(row.meta ?? '{}') as { coversThrough?: unknown }).coversThrough
    return typeof value === 'number' ? value : row.id
  } catch {
    return row.id
  }
}

/**
 * Moves every shown message after `afterId` (summaries stay: they stand for older messages) into a
 * new branch. Returns its id, or null when nothing followed. Runs inside the caller's transaction.
 */
function stashShownAfter(db: StateDb, sessionId: string, afterId: number, at: number): number | null {
  const following = db
    .prepare("SELECT 1 FROM messages WHERE session_id = ? AND branch_id IS NULL AND role != 'summary' AND id > ? LIMIT 1")
    .get(sessionId, afterId)
  if (following === undefined) return null
  const branchId = Number(
    db.prepare('INSERT INTO message_branches (session_id, after_id, created_at) VALUES (?, ?, ?)').run(sessionId, afterId, at).lastInsertRowid
  )
  db.prepare("UPDATE messages SET branch_id = ? WHERE session_id = ? AND branch_id IS NULL AND role != 'summary' AND id > ?").run(branchId, sessionId, afterId)
  return branchId
}

/**
 * Starts another version after `afterId`: what is shown after it is kept as a stored version.
 * Refused when that part was condensed since (its messages are summarised, so a version of it
 * could not be told apart from the summary).
 */
export function forkAfter(db: StateDb, sessionId: string, afterId: number, at = Date.now()): number | null {
  const run = db.transaction(() => {
    if (condensedAfter(db, sessionId, afterId)) {
      throw new VersionError('condensed', { key: 'version.condensed' })
    }
    const branchId = stashShownAfter(db, sessionId, afterId, at)
    recountShown(db, sessionId)
    return branchId
  })
  return run.immediate()
}

/** Shows the stored version `branchId` instead of the one shown after the same message (which is kept). */
export function showVersion(db: StateDb, sessionId: string, branchId: number, at = Date.now()): void {
  const run = db.transaction(() => {
    const branch = db.prepare('SELECT after_id AS afterId FROM message_branches WHERE id = ? AND session_id = ?').get(branchId, sessionId) as
      | { afterId: number }
      | undefined
    if (!branch) throw new VersionError('not_found', { key: 'version.missing', params: { id: String(branchId) } })
    if (!isShownAnchor(db, sessionId, branch.afterId)) {
      throw new VersionError('not_found', { key: 'version.not_shown' })
    }
    if (condensedAfter(db, sessionId, branch.afterId)) {
      throw new VersionError('condensed', { key: 'version.condensed_since' })
    }
    stashShownAfter(db, sessionId, branch.afterId, at)
    db.prepare('UPDATE messages SET branch_id = NULL WHERE branch_id = ?').run(branchId)
    db.prepare('DELETE FROM message_branches WHERE id = ?').run(branchId)
    recountShown(db, sessionId)
  })
  run.immediate()
}

function isShownAnchor(db: StateDb, sessionId: string, afterId: number): boolean {
  if (afterId === 0) return true
  return db.prepare('SELECT 1 FROM messages WHERE id = ? AND session_id = ? AND branch_id IS NULL').get(afterId, sessionId) !== undefined
}

/** Every place on the shown path where stored versions hang, with the versions in the order they were made. */
export function versionGroups(db: StateDb, sessionId: string): VersionGroup[] {
  const branches = db
    .prepare(
      `SELECT b.id, b.after_id AS afterId, (SELECT min(m.id) FROM messages m WHERE m.branch_id = b.id) AS firstId
       FROM message_branches b
       WHERE b.session_id = ? AND (b.after_id = 0 OR EXISTS (SELECT 1 FROM messages a WHERE a.id = b.after_id AND a.branch_id IS NULL))`
    )
    .all(sessionId) as Array<{ id: number; afterId: number; firstId: number | null }>
  const byAnchor = new Map<number, Array<{ branch: number | null; firstId: number }>>()
  for (const row of branches) {
    if (row.firstId === null) continue // emptied by hand: nothing to show
    const list = byAnchor.get(row.afterId) ?? []
    list.push({ branch: row.id, firstId: row.firstId })
    byAnchor.set(row.afterId, list)
  }
  const firstShown = db.prepare("SELECT min(id) AS id FROM messages WHERE session_id = ? AND branch_id IS NULL AND role != 'summary' AND id > ?")
  const groups: VersionGroup[] = []
  for (const [afterId, stored] of byAnchor) {
    const shownFirstId = (firstShown.get(sessionId, afterId) as { id: number | null }).id
    // The shown version, when it has no messages yet (an answer being made again), counts as the newest.
    const all = [...stored, { branch: null, firstId: shownFirstId ?? Number.MAX_SAFE_INTEGER }].sort((a, b) => a.firstId - b.firstId)
    groups.push({ afterId, branches: all.map((v) => v.branch), shownFirstId })
  }
  return groups.sort((a, b) => a.afterId - b.afterId)
}

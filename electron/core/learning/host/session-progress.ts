import type { MessageRecord, SessionRecord, SessionStore } from '../../sessions'
import type { SessionCounters } from './triggers'

/** The key of learning's own part of `sessions.state`. */
export const SESSION_STATE_KEY = 'learning'

/** What learning keeps with a conversation: its counters and how far reviews have read it. */
export interface SessionProgress {
  /** As stored (checked by restoreSessionCounters); undefined for a session that predates them. */
  counters: unknown
  /**
   * The last message id some review of this conversation was given (trigger, request, compression
   * or end of conversation); 0 before the first. Message ids only grow, so what comes after it is new.
   */
  reviewedThrough: number
}

export function readProgress(session: Pick<SessionRecord, 'state'>): SessionProgress {
  const stored = session.state[SESSION_STATE_KEY]
  const value = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<string, unknown>
  const through = value.reviewedThrough
  return { counters: stored, reviewedThrough: Number.isInteger(through) && (through as number) > 0 ? (through as number) : 0 }
}

/**
 * Writes learning's part of the session's state, keeping every other key and the session's
 * `updated_at`: new counters, and the reviewed mark moved forward (never back). Synchronous: callers
 * run it inside {@link LearningState.update} so no other process writes the row in between.
 */
export function writeProgress(sessions: Pick<SessionStore, 'get' | 'setStateKey'>, sessionId: string, patch: { counters?: SessionCounters; reviewedThrough?: number }): void {
  const session = sessions.get(sessionId)
  if (!session) return
  const current = session.state[SESSION_STATE_KEY]
  const previous = (typeof current === 'object' && current !== null ? current : {}) as Record<string, unknown>
  const through = Math.max(readProgress(session).reviewedThrough, patch.reviewedThrough ?? 0)
  const next = { ...previous, ...(patch.counters ?? {}), ...(through > 0 ? { reviewedThrough: through } : {}) }
  // Not activity: marking an older conversation as reviewed must not move it up the list.
  sessions.setStateKey(sessionId, SESSION_STATE_KEY, next)
}

/** User messages after `reviewedThrough` (and at most `through`, when given). */
export function unreviewedUserTurns(records: MessageRecord[], reviewedThrough: number, through = Number.POSITIVE_INFINITY): number {
  return records.filter((record) => record.role === 'user' && record.id > reviewedThrough && record.id <= through).length
}

/**
 * The id of the last message of the last finished turn: an assistant answer that called no tools.
 * A conversation another process is still answering is reviewed only up to there. Null when no turn finished.
 */
export function finishedThrough(records: MessageRecord[]): number | null {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i]
    if (record.role === 'assistant' && !(record.toolCalls?.length ?? 0)) return record.id
  }
  return null
}

export function lastId(records: MessageRecord[]): number {
  return records.reduce((max, record) => Math.max(max, record.id), 0)
}

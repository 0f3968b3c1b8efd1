import { turnFailureSchema, type TurnFailure } from '../../../shared/turn-failure'
import type { SessionRecord } from './types'
import type { StateDb } from '../db/state-db'

/** The part of SessionStore these use, by shape (session-store.ts imports this file). */
interface StateWriter {
  setStateKey(sessionId: string, key: string, value: unknown): void
}
interface StateReader {
  get(sessionId: string): Pick<SessionRecord, 'state'> | null
}

/** Where a conversation keeps its last turn's failure: a key of its state, so no schema change and no reordering of the list. */
const STATE_KEY = 'turnFailure'

/** The failure of the conversation's last turn, if that turn failed (null once a later turn started). */
export function storedTurnFailure(session: Pick<SessionRecord, 'state'>): TurnFailure | null {
  const parsed = turnFailureSchema.safeParse(session.state[STATE_KEY])
  return parsed.success ? parsed.data : null
}

/** Keeps the failure with the conversation (setStateKey leaves `updated_at` alone: a failure is not activity). */
export function recordTurnFailure(sessions: StateWriter, sessionId: string, failure: TurnFailure): void {
  sessions.setStateKey(sessionId, STATE_KEY, failure)
}

/** A turn started: the failure before it is no longer the conversation's last word. */
export function clearTurnFailure(sessions: StateReader & StateWriter, sessionId: string): void {
  const session = sessions.get(sessionId)
  if (session && storedTurnFailure(session)) sessions.setStateKey(sessionId, STATE_KEY, null)
}

/**
 * A conversation that holds nothing but one message of the user's whose turn failed: the sidebar marks it
 * "not answered", and sending the same words from a new chat answers it instead of starting a duplicate.
 */
export function isUnanswered(session: Pick<SessionRecord, 'state' | 'messageCount'>): boolean {
  return session.messageCount === 1 && storedTurnFailure(session) !== null
}

/** Where a new chat would start: the folder it would work in and where it runs (`cli`, `desktop`, `browser-quick` …). */
export interface UnansweredScope {
  workspace: string
  source: string
}

/**
 * The newest unanswered conversation (see isUnanswered) whose one message is `text`, sent without files,
 * not archived, working in exactly `scope.workspace` and started from `scope.source` (never an imported one,
 * nor one from elsewhere, whose tools would act on another folder); null when there is none.
 */
export function findUnanswered(db: StateDb, text: string, scope: UnansweredScope): string | null {
  const row = db
    .prepare(
      /* sql */ `SELECT s.id AS id FROM sessions s
        JOIN messages m ON m.session_id = s.id AND m.branch_id IS NULL AND m.role = 'user'
        WHERE s.message_count = 1 AND COALESCE(s.archived, 0) = 0
          AND (CASE WHEN json_valid(s.state) THEN json_extract(s.state, '$.${STATE_KEY}.messageId') END) = m.id
          AND m.content = @text
          AND (m.meta IS NULL OR NOT json_valid(m.meta) OR json_extract(m.meta, '$.attachments') IS NULL)
          AND s.workspace = @workspace AND s.source = @source
        ORDER BY s.updated_at DESC LIMIT 1`
    )
    .get({ text, workspace: scope.workspace, source: scope.source }) as { id: string } | undefined
  return row?.id ?? null
}

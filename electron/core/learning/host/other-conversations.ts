import type { ReviewMessage } from '../../../../shared/review-protocol'
import type { MessageRecord, SessionRecord, SessionStore } from '../../sessions'
import { MAX_TRANSCRIPT_CHARS, reviewMessageSize, toReviewMessages } from './review-snapshot'
import { finishedThrough, readProgress, unreviewedUserTurns } from './session-progress'

/** Conversations older than this are left to their own reviews: a memory review reads what is recent. */
export const OTHER_CONVERSATIONS_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000
/** The most other conversations one review takes in, newest first. */
export const MAX_OTHER_CONVERSATIONS = 12
/** Of the transcript, the most the other conversations may take (the conversation under review comes first). */
export const MAX_OTHER_CHARS = 24_000
/** How many sessions (most recently active first) are looked at to find them. */
const SCAN_SESSIONS = 60

/** A recent conversation with finished turns no review has seen. */
export interface OtherConversation {
  session: SessionRecord
  /** Its messages after its reviewed mark, up to its last finished answer. */
  records: MessageRecord[]
  /** The last message id taken in: its new reviewed mark. */
  through: number
}

/**
 * Recent conversations besides `exceptId` whose finished turns no review has seen: the memory
 * counter counts user turns across conversations, so the review it starts reads those turns too.
 * Imported conversations are left out (their history is not this user's recent talk with Cairn).
 */
export function unreviewedConversations(sessions: Pick<SessionStore, 'list' | 'messages'>, exceptId: string, now = Date.now()): OtherConversation[] {
  const found: OtherConversation[] = []
  for (const session of sessions.list({ limit: SCAN_SESSIONS })) {
    if (now - session.updatedAt > OTHER_CONVERSATIONS_MAX_AGE_MS || found.length >= MAX_OTHER_CONVERSATIONS) break
    if (session.id === exceptId || session.source.startsWith('import')) continue
    const { reviewedThrough } = readProgress(session)
    const records = sessions.messages(session.id, { afterId: reviewedThrough })
    const through = finishedThrough(records)
    if (through === null || unreviewedUserTurns(records, reviewedThrough, through) === 0) continue
    found.push({ session, records: records.filter((record) => record.id <= through), through })
  }
  return found
}

/**
 * The other conversations a queued review already took in, joined with those found now: a later
 * trigger for the same session replaces the queued review's messages, and their marks have moved on,
 * so what the queued one took in must come along. The same conversation found again adds its newer turns.
 */
export function joinOthers(earlier: OtherConversation[], found: OtherConversation[]): OtherConversation[] {
  const joined = new Map(earlier.map((other) => [other.session.id, other]))
  for (const other of found) {
    const before = joined.get(other.session.id)
    joined.set(other.session.id, before ? { session: other.session, records: [...before.records, ...other.records], through: other.through } : other)
  }
  return [...joined.values()].sort((a, b) => b.session.updatedAt - a.session.updatedAt)
}

export const OTHERS_HEADING = 'Other recent conversations with this user that no review has seen yet (for memory: who the user is, their environment)'
export const CURRENT_HEADING = 'The conversation under review'

/**
 * The transcript of a review that also takes in other conversations: each under its own heading
 * (title and day), oldest first, each whole, within {@link MAX_OTHER_CHARS}, newest first; then the conversation
 * under review, given the rest of the room. Returns the conversations that fit, whose marks move on.
 */
export function withOtherConversations(
  current: (maxChars: number) => ReviewMessage[],
  others: OtherConversation[],
  maxChars = MAX_TRANSCRIPT_CHARS
): { messages: ReviewMessage[]; included: OtherConversation[] } {
  const parts: Array<{ other: OtherConversation; messages: ReviewMessage[] }> = []
  let used = 0
  for (const other of others) {
    const room = Math.min(MAX_OTHER_CHARS, maxChars / 2) - used
    if (room < 500) break
    // Whole or not at all: its mark moves past everything it is given, so a cut-down copy would mark
    // turns reviewed that no review read. One that does not fit waits for its own end-of-conversation review.
    const messages = toReviewMessages(other.records, Number.POSITIVE_INFINITY)
    const size = messages.reduce((sum, message) => sum + reviewMessageSize(message), 0)
    if (size > room) continue
    used += size
    parts.unshift({ other, messages: [{ role: 'heading', content: headingOf(other.session) }, ...messages] })
  }
  if (parts.length === 0) return { messages: current(maxChars), included: [] }
  return {
    messages: [
      { role: 'heading', content: OTHERS_HEADING },
      ...parts.flatMap((part) => part.messages),
      { role: 'heading', content: CURRENT_HEADING },
      ...current(maxChars - used)
    ],
    included: parts.map((part) => part.other)
  }
}

function headingOf(session: SessionRecord): string {
  const day = new Date(session.updatedAt).toISOString().slice(0, 10)
  return `Conversation "${session.title ?? 'untitled'}" (${day})`
}

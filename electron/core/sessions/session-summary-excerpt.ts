import type { StateDb } from '../db/state-db'
import { cutMiddle } from '../text/cut'
import { messageText } from './message-view'
import type { SessionHit } from './session-search'
import type { MessageRow } from './session-rows'

/** Characters of one session's messages a summary is made from (~3k tokens: a cheap model reads it in seconds). */
export const SUMMARY_BUDGET_CHARS = 12_000
/** Matches of a session whose surroundings go into its excerpt, best first. */
export const SUMMARY_ANCHORS = 5
/** Messages on each side of a match, as far as the budget reaches. */
export const SUMMARY_WINDOW = 4
/** A message is not worth including once fewer characters than this are left for it. */
const MIN_MESSAGE_CHARS = 120

export interface ExcerptMessage {
  id: number
  role: MessageRow['role']
  toolName: string | null
  createdAt: number
  text: string
}

/** The messages a summary is made from, in session order; `gapBefore` marks messages left out before one. */
export interface SessionExcerpt {
  sessionId: string
  messages: Array<ExcerptMessage & { gapBefore: boolean }>
  from: number
  to: number
}

/**
 * The messages around a hit's matches, within `budgetChars`. The budget is spread over the matches
 * (best first, each may use what the ones before left), and within a match the closest messages
 * come first, so a session with one long answer and a session with many short hits both fit.
 */
export function excerptForHit(db: StateDb, hit: SessionHit, budgetChars = SUMMARY_BUDGET_CHARS, window = SUMMARY_WINDOW): SessionExcerpt {
  const anchors = [...new Set([hit.matchMessageId, ...hit.matches.map((match) => match.messageId)])].slice(0, SUMMARY_ANCHORS)
  const share = Math.floor(budgetChars / anchors.length)
  const taken = new Map<number, ExcerptMessage>()
  // Pairs of messages next to each other in the session, to mark where the excerpt skips some.
  const adjacent = new Set<string>()
  let spent = 0
  anchors.forEach((anchor, index) => {
    const rows = windowRows(db, hit.sessionId, anchor, window)
    rows.forEach((row, i) => i > 0 && adjacent.add(`${rows[i - 1].id}:${row.id}`))
    let left = share * (index + 1) - spent
    for (const row of closestFirst(rows, anchor)) {
      if (taken.has(row.id)) continue
      if (left < MIN_MESSAGE_CHARS) break
      const text = cutMiddle(messageText(row), left)
      taken.set(row.id, { id: row.id, role: row.role, toolName: row.tool_name, createdAt: row.created_at, text })
      left -= text.length
      spent += text.length
    }
  })
  const ordered = [...taken.values()].sort((a, b) => a.id - b.id)
  const messages = ordered.map((message, i) => ({ ...message, gapBefore: i > 0 && !adjacent.has(`${ordered[i - 1].id}:${message.id}`) }))
  return {
    sessionId: hit.sessionId,
    messages,
    from: messages[0]?.createdAt ?? hit.startedAt,
    to: messages.at(-1)?.createdAt ?? hit.startedAt
  }
}

/**
 * The excerpt as the summariser reads it: one header line per message, gaps marked. Tag-like text
 * that would close the transcript early is defused, so the excerpt cannot step outside its frame.
 */
export function renderExcerpt(excerpt: SessionExcerpt): string {
  return excerpt.messages
    .map((message) => {
      const who = message.role === 'tool' ? `tool result${message.toolName ? ` (${message.toolName})` : ''}` : message.role
      const header = `[message ${message.id} · ${who} · ${new Date(message.createdAt).toISOString()}]`
      const body = message.text.replace(/<(\/?)(transcript)/gi, '‹$1$2')
      return `${message.gapBefore ? '[… messages left out …]\n\n' : ''}${header}\n${body}`
    })
    .join('\n\n')
}

function windowRows(db: StateDb, sessionId: string, anchorId: number, window: number): MessageRow[] {
  const before = db
    .prepare('SELECT * FROM messages WHERE session_id = ? AND branch_id IS NULL AND id < ? ORDER BY id DESC LIMIT ?')
    .all(sessionId, anchorId, window) as MessageRow[]
  const from = db
    .prepare('SELECT * FROM messages WHERE session_id = ? AND branch_id IS NULL AND id >= ? ORDER BY id LIMIT ?')
    .all(sessionId, anchorId, window + 1) as MessageRow[]
  return [...before.reverse(), ...from]
}

/** The anchor, then its neighbours alternating outwards (the one before first: usually the question). */
function closestFirst(rows: MessageRow[], anchorId: number): MessageRow[] {
  const at = Math.max(0, rows.findIndex((row) => row.id === anchorId))
  const order: MessageRow[] = [rows[at]]
  for (let step = 1; order.length < rows.length; step++) {
    if (rows[at - step]) order.push(rows[at - step])
    if (rows[at + step]) order.push(rows[at + step])
  }
  return order.filter(Boolean)
}

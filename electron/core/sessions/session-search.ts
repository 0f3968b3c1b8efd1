import type { StateDb } from '../db/state-db'
import { holdsUnsegmented } from '../db/migrations'
import { planSearch, type SearchPlan } from './fts-query'
import { MATCH_CLOSE, MATCH_OPEN, markedSnippet, toView, type MessageView } from './message-view'
import type { MessageRow } from './session-store'

export interface SearchOptions {
  /** Sessions to return: default 3, clamped to [1, 10]. */
  limit?: number
  /** Messages shown on each side of the best hit: default 2, clamped to [0, 10]. */
  window?: number
  currentSessionId?: string | null
  /** Search the current session too (excluded by default: it is usually already in context). */
  includeCurrent?: boolean
}

export interface SessionHit {
  sessionId: string
  title: string | null
  startedAt: number
  /** Higher is better; comparable within one search only. */
  score: number
  matchMessageId: number
  snippet: string
  messages: MessageView[]
  /** The session's best-matching messages (best first), for scrolling to other hits. */
  matches: Array<{ messageId: number; score: number }>
}

export interface SessionSearchResult {
  /** The FTS expression(s) used, e.g. `"deploy" OR "fly" OR "blog"`; '' when nothing was searchable. */
  query: string
  sessions: SessionHit[]
}

export const DEFAULT_SEARCH_LIMIT = 3
export const MAX_SEARCH_LIMIT = 10
export const DEFAULT_SEARCH_WINDOW = 2
export const MAX_SEARCH_WINDOW = 10
/** Best messages fetched per index before grouping (Hermes scans 300 too). */
export const CANDIDATE_MESSAGES = 300
/**
 * A session scores the sum of its best messages, each worth half the one before. One strong hit
 * still wins over many weak ones, yet a session where several turns touch the question beats one
 * that mentions it in passing. (On LoCoMo any k in 3–10 and decay in 0.3–0.5 score alike.)
 */
export const SESSION_TOP_MESSAGES = 5
export const SESSION_SCORE_DECAY = 0.5
/** Best messages listed per session in `matches`. */
export const SESSION_LISTED_MATCHES = 10
/**
 * Within a session, a hit whose neighbours also match sits in a passage about the question (the
 * question and its answer are usually adjacent turns): it gets this share of their scores when the
 * anchor and the listed matches are chosen. Session ranking uses the plain scores.
 */
export const NEIGHBOUR_SHARE = 0.25

interface Candidate {
  id: number
  sessionId: string
  score: number
  /** Found through the word index, so FTS5 `snippet()` can mark it. */
  viaFts: boolean
}

interface SessionRow {
  id: string
  title: string | null
  started_at: number
}

/**
 * Natural-language search over every past session: OR of the question's content words, messages
 * ranked by bm25, grouped into sessions, each returned with a marked snippet and the messages around
 * its best hit. Tool output, tool names and tool-call arguments are searched like any message, and
 * compacted messages stay findable.
 */
export function searchSessions(db: StateDb, query: string, options: SearchOptions = {}): SessionSearchResult {
  const plan = planSearch(query)
  const expression = describePlan(plan)
  if (!expression) return { query: '', sessions: [] }
  const limit = clamp(options.limit, DEFAULT_SEARCH_LIMIT, 1, MAX_SEARCH_LIMIT)
  const window = clamp(options.window, DEFAULT_SEARCH_WINDOW, 0, MAX_SEARCH_WINDOW)
  const exclude = options.includeCurrent ? null : (options.currentSessionId ?? null)

  const candidates = collectCandidates(db, plan, exclude)
  const ranked = rankSessions(candidates.values()).slice(0, limit)
  const sessionRows = fetchSessions(db, ranked.map((r) => r.sessionId))
  const terms = plan.highlights
  const sessions = ranked.flatMap(({ sessionId, score, messages }): SessionHit[] => {
    const session = sessionRows.get(sessionId)
    if (!session) return []
    const best = messages[0]
    return [
      {
        sessionId,
        title: session.title,
        startedAt: session.started_at,
        score: round(score),
        matchMessageId: best.id,
        snippet: snippetFor(db, plan, best, terms),
        messages: windowAround(db, sessionId, best.id, window, terms),
        matches: messages.map((m) => ({ messageId: m.id, score: round(m.score) }))
      }
    ]
  })
  return { query: expression, sessions }
}

function describePlan(plan: SearchPlan): string {
  return [plan.fts, plan.trigram, ...plan.like.map((t) => `"${t}"`)].filter(Boolean).join(' OR ')
}

/** Best messages from the word index, the trigram index and the short-CJK LIKE scan; scores add up. */
function collectCandidates(db: StateDb, plan: SearchPlan, excludeSessionId: string | null): Map<number, Candidate> {
  const found = new Map<number, Candidate>()
  const add = (rows: Array<{ id: number; session_id: string; score: number }>, viaFts: boolean): void => {
    for (const row of rows) {
      const seen = found.get(row.id)
      if (seen) {
        seen.score += row.score
        seen.viaFts ||= viaFts
      } else found.set(row.id, { id: row.id, sessionId: row.session_id, score: row.score, viaFts })
    }
  }
  const notCurrent = excludeSessionId === null ? '' : 'AND rowid NOT IN (SELECT id FROM messages WHERE session_id = @exclude)'
  const params = { exclude: excludeSessionId, limit: CANDIDATE_MESSAGES }
  if (plan.fts) {
    add(indexCandidates(db, 'messages_fts', notCurrent, { ...params, match: plan.fts }), true)
    add(attachmentCandidates(db, 'attachments_fts', { ...params, match: plan.fts }), false)
  }
  if (plan.trigram) {
    add(indexCandidates(db, 'messages_trigram', notCurrent, { ...params, match: plan.trigram }), false)
    add(attachmentCandidates(db, 'attachments_trigram', { ...params, match: plan.trigram }), false)
  }
  for (const term of plan.like) add(likeCandidates(db, term, excludeSessionId), false)
  return found
}

function indexCandidates(db: StateDb, table: 'messages_fts' | 'messages_trigram', notCurrent: string, params: Record<string, unknown>): Array<{ id: number; session_id: string; score: number }> {
  // Rank inside the FTS table first and join only the winners: joining every match to `messages`
  // before the LIMIT would cost one lookup per matching row.
  const sql = `
    SELECT c.id, m.session_id, c.score FROM (
      SELECT rowid AS id, -rank AS score FROM ${table}
      WHERE ${table} MATCH @match ${notCurrent}
      ORDER BY rank LIMIT @limit
    ) c JOIN messages m ON m.id = c.id
    WHERE m.branch_id IS NULL`
  return db.prepare(sql).all(params) as Array<{ id: number; session_id: string; score: number }>
}

/**
 * User messages found by the text of a file attached to them (a PDF's words, a text file's contents)
 * or its name; a message with several matching files counts each. Scored like message hits.
 */
function attachmentCandidates(db: StateDb, table: 'attachments_fts' | 'attachments_trigram', params: Record<string, unknown>): Array<{ id: number; session_id: string; score: number }> {
  const sql = `
    SELECT a.message_id AS id, m.session_id, c.score FROM (
      SELECT rowid AS attachment, -rank AS score FROM ${table}
      WHERE ${table} MATCH @match ORDER BY rank LIMIT @limit
    ) c
    JOIN message_attachments a ON a.rowid = c.attachment
    JOIN messages m ON m.id = a.message_id
    WHERE (@exclude IS NULL OR m.session_id <> @exclude) AND m.branch_id IS NULL`
  return db.prepare(sql).all(params) as Array<{ id: number; session_id: string; score: number }>
}

/**
 * Chinese words of one or two characters are below the trigram index's reach: scan the messages that
 * hold unsegmented script (a partial index keeps English-only messages out of the scan), newest first,
 * and score each hit like a bm25 term, by how rare the word is.
 */
function likeCandidates(db: StateDb, term: string, excludeSessionId: string | null): Array<{ id: number; session_id: string; score: number }> {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  const rows = db
    .prepare(
      `SELECT id, session_id FROM messages INDEXED BY messages_unsegmented
       WHERE ${holdsUnsegmented('content')} AND content LIKE @pattern ESCAPE '\\'
         AND (@exclude IS NULL OR session_id <> @exclude) AND branch_id IS NULL
       ORDER BY id DESC LIMIT @limit`
    )
    .all({ pattern, exclude: excludeSessionId, limit: CANDIDATE_MESSAGES }) as Array<{ id: number; session_id: string }>
  if (!rows.length) return []
  const total = (db.prepare('SELECT max(id) AS n FROM messages').get() as { n: number | null }).n ?? rows.length
  const idf = Math.log(1 + (total - rows.length + 0.5) / (rows.length + 0.5))
  return rows.map((row) => ({ ...row, score: idf }))
}

interface RankedSession {
  sessionId: string
  score: number
  /** Best first, at most SESSION_LISTED_MATCHES. */
  messages: Candidate[]
}

function rankSessions(candidates: Iterable<Candidate>): RankedSession[] {
  const bySession = new Map<string, Candidate[]>()
  for (const candidate of candidates) {
    const list = bySession.get(candidate.sessionId)
    if (list) list.push(candidate)
    else bySession.set(candidate.sessionId, [candidate])
  }
  const ranked: RankedSession[] = []
  for (const [sessionId, list] of bySession) {
    list.sort((a, b) => b.score - a.score || a.id - b.id)
    const score = list.slice(0, SESSION_TOP_MESSAGES).reduce((sum, m, i) => sum + m.score * SESSION_SCORE_DECAY ** i, 0)
    ranked.push({ sessionId, score, messages: withNeighbourSupport(list).slice(0, SESSION_LISTED_MATCHES) })
  }
  // Ties go to the more recent session (higher message ids were written later).
  return ranked.sort((a, b) => b.score - a.score || b.messages[0].id - a.messages[0].id)
}

/** One session's candidates re-scored with NEIGHBOUR_SHARE of their matching neighbours, best first. */
function withNeighbourSupport(list: Candidate[]): Candidate[] {
  const byId = new Map(list.map((c) => [c.id, c.score]))
  return list
    .map((c) => ({ ...c, score: c.score + NEIGHBOUR_SHARE * ((byId.get(c.id - 1) ?? 0) + (byId.get(c.id + 1) ?? 0)) }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
}

function fetchSessions(db: StateDb, ids: string[]): Map<string, SessionRow> {
  if (!ids.length) return new Map()
  const rows = db
    .prepare(`SELECT id, title, started_at FROM sessions WHERE id IN (${ids.map(() => '?').join(',')})`)
    .all(...ids) as SessionRow[]
  return new Map(rows.map((r) => [r.id, r]))
}

function snippetFor(db: StateDb, plan: SearchPlan, best: Candidate, terms: string[]): string {
  // FTS5 marks stemmed word matches best, but knows nothing of trigram or LIKE terms.
  if (best.viaFts && plan.fts && !plan.trigram && !plan.like.length) {
    // better-sqlite3 binds JS numbers as REAL, and FTS5 silently ignores a REAL rowid constraint
    // next to MATCH (every matching row comes back): hence the CAST.
    const row = db
      .prepare(
        `SELECT snippet(messages_fts, -1, '${MATCH_OPEN}', '${MATCH_CLOSE}', '…', 24) AS snippet
         FROM messages_fts WHERE messages_fts MATCH ? AND rowid = CAST(? AS INTEGER)`
      )
      .get(plan.fts, best.id) as { snippet: string } | undefined
    if (row?.snippet) return row.snippet
  }
  const message = db.prepare('SELECT content, tool_call_text FROM messages WHERE id = ?').get(best.id) as Pick<MessageRow, 'content' | 'tool_call_text'>
  const attached = db.prepare('SELECT name, text FROM message_attachments WHERE message_id = ? ORDER BY position').all(best.id) as Array<{ name: string; text: string }>
  const said = [message.content ?? '', message.tool_call_text ?? ''].join(' ').trim()
  // A hit inside an attached file is shown from the file (the message's own words may not hold the term).
  const source = [said, ...attached.map((file) => `${file.name}: ${file.text}`)].find((text) => markedSnippet(text, terms).includes(MATCH_OPEN)) ?? said
  return markedSnippet(source, terms)
}

/** The anchor message and up to `window` messages on each side, compacted ones included. */
export function windowAround(db: StateDb, sessionId: string, anchorId: number, window: number, terms: string[] = []): MessageView[] {
  const before = db
    .prepare('SELECT * FROM messages WHERE session_id = ? AND branch_id IS NULL AND id < ? ORDER BY id DESC LIMIT ?')
    .all(sessionId, anchorId, window) as MessageRow[]
  const from = db
    .prepare('SELECT * FROM messages WHERE session_id = ? AND branch_id IS NULL AND id >= ? ORDER BY id LIMIT ?')
    .all(sessionId, anchorId, window + 1) as MessageRow[]
  return [...before.reverse(), ...from].map((row) => toView(row, { anchor: row.id === anchorId, terms }))
}

function clamp(value: number | undefined, fallback: number, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback
  return Math.min(max, Math.max(min, Math.trunc(value)))
}

/** Four significant digits: bm25 values are tiny in a small database and large in a big one. */
function round(score: number): number {
  return Number(score.toPrecision(4))
}

import type { StateDb } from '../db/state-db'
import { holdsUnsegmented } from '../db/migrations'
import { planSearch, type SearchPlan } from './fts-query'
import { MATCH_CLOSE, MATCH_OPEN, markedSnippet, toView, type MessageView } from './message-view'
import { planWords, SLICE_BUDGET, type WordPlan } from './query-planner'
import { withCompletions } from './prefix-completion'
import { COVERAGE_WEIGHT, distinctiveMessages, sessionCoverage } from './session-evidence'
import { unmarked } from './cjk-query'
import { fuseSessions, type SemanticCandidate } from './semantic-search'
import type { MessageRow } from './session-store'

export interface SearchOptions {
  /** Messages found by meaning (searchByMeaning), fused with the keyword ranking conversation by conversation. */
  meaning?: readonly SemanticCandidate[]
  /** Sessions to return: default 3, clamped to [1, 10]. */
  limit?: number
  /** Messages shown on each side of the best hit: default 2, clamped to [0, 10]. */
  window?: number
  currentSessionId?: string | null
  /** Search the current session too (excluded by default: it is usually already in context). */
  includeCurrent?: boolean
  /**
   * The query is being typed (the sidebar's search-as-you-type): its last word, when nothing follows
   * it, is also searched through its likeliest completions ("pnp" finds "pnpm"; prefix-completion.ts).
   * Off by default: the agent's session_search and `cairn search` match whole words.
   */
  prefixLastWord?: boolean
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
  /**
   * Which search found it: its words, its meaning, or both. `meaning` means it was not among the
   * keyword matches, which are bounded (common words are read from the newest messages only), so an
   * older conversation may still hold some of the words.
   */
  foundBy: FoundBy
}

export type FoundBy = 'words' | 'meaning' | 'both'

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
/** The short-CJK LIKE scan reads at most this many of the newest messages. */
export const LIKE_SCAN_MESSAGES = 100_000
/** Best messages listed per session in `matches`. */
export const SESSION_LISTED_MATCHES = 10
/**
 * Within a session, a hit whose neighbours also match sits in a passage about the question (the
 * question and its answer are usually adjacent turns): it gets this share of their scores when the
 * anchor and the listed matches are chosen. Session ranking uses the plain scores.
 */
export const NEIGHBOUR_SHARE = 0.25

/** A message found by one of the indexes: the unit a second ranked list (by meaning) can be fused with. */
export interface Candidate {
  id: number
  sessionId: string
  score: number
  /** Found through the word index, so FTS5 `snippet()` can mark it. */
  viaFts: boolean
  /**
   * The word-index expressions it is known to hold, when it was found only by the common-term lookup:
   * the snippet is asked for those, as a term a message lacks costs a seek of its postings.
   */
  holds?: string[]
}

type FoundRow = { id: number; session_id: string; score: number; holds?: string[] }

interface SessionRow {
  id: string
  title: string | null
  started_at: number
}

/**
 * Natural-language search over every past session: OR of the question's distinctive words (terms in
 * a large share of the history are dropped like stop words), messages ranked by bm25 within a
 * bounded amount of work (query-planner.ts), grouped into sessions, each returned with a snippet
 * marking its rarest matched term and the messages around its best hit. Tool output, tool names and
 * tool-call arguments are searched like any message, and compacted messages stay findable.
 */
export function searchSessions(db: StateDb, query: string, options: SearchOptions = {}): SessionSearchResult {
  const { plan, known } = options.prefixLastWord ? withCompletions(db, query, planSearch(query)) : { plan: planSearch(query), known: undefined }
  const words = planWords(db, plan.terms, known)
  const expression = describePlan(plan, words)
  if (!expression) return { query: '', sessions: [] }
  const limit = clamp(options.limit, DEFAULT_SEARCH_LIMIT, 1, MAX_SEARCH_LIMIT)
  const window = clamp(options.window, DEFAULT_SEARCH_WINDOW, 0, MAX_SEARCH_WINDOW)
  const exclude = options.includeCurrent ? null : (options.currentSessionId ?? null)

  const candidates = keywordCandidates(db, plan, words, exclude)
  const byKeyword = rankSessions(candidates, distinctiveMessages(db, words), sessionCoverage(db, words))
  // With search by meaning on, its conversations are fused in by reciprocal rank (the keyword scores and rules stay as they are).
  const ranked = (options.meaning?.length ? withMeaning(byKeyword, options.meaning) : byKeyword).slice(0, limit)
  const sessionRows = fetchSessions(db, ranked.map((r) => r.sessionId))
  const dropped = new Set(words.dropped.map((t) => t.term.text))
  const terms = plan.highlights.filter((t) => !dropped.has(t))
  const sessions = ranked.flatMap(({ sessionId, score, messages, foundBy }): SessionHit[] => {
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
        snippet: snippetFor(db, plan, words, best, terms),
        messages: windowAround(db, sessionId, best.id, window, terms),
        matches: messages.map((m) => ({ messageId: m.id, score: round(m.score) })),
        foundBy: foundBy ?? 'words'
      }
    ]
  })
  return { query: expression, sessions }
}

/** The expression as shown to the agent and the user: without the marks that make a segmented word a whole word. */
function describePlan(plan: SearchPlan, words: WordPlan): string {
  return [words.searched, plan.trigram && unmarked(plan.trigram), ...plan.like.map((t) => `"${t}"`)].filter(Boolean).join(' OR ')
}

/**
 * Ranked message candidates (best first) from the word index, the trigram index, attached files and
 * the short-CJK LIKE scan; a message found more than once scores the sum.
 */
export function keywordCandidates(db: StateDb, plan: SearchPlan, words: WordPlan, excludeSessionId: string | null): Candidate[] {
  const found = new Map<number, Candidate>()
  const add = (rows: FoundRow[], viaFts: boolean): void => {
    for (const row of rows) {
      const seen = found.get(row.id)
      if (seen) {
        seen.score += row.score
        seen.viaFts ||= viaFts
        // Found by another index too: what else it holds is not known.
        seen.holds = undefined
      } else found.set(row.id, { id: row.id, sessionId: row.session_id, score: row.score, viaFts, holds: row.holds })
    }
  }
  const notCurrent = excludeSessionId === null ? '' : 'AND rowid NOT IN (SELECT id FROM messages WHERE session_id = @exclude)'
  const params = { exclude: excludeSessionId, limit: CANDIDATE_MESSAGES }
  if (words.ranked) add(indexCandidates(db, 'messages_fts', notCurrent, { ...params, match: words.ranked }), true)
  if (words.common) add(commonTermCandidates(db, words.common, excludeSessionId), true)
  if (words.searched) add(attachmentCandidates(db, 'attachments_fts', { ...params, match: words.searched }), false)
  if (plan.trigram) {
    add(indexCandidates(db, 'messages_trigram', notCurrent, { ...params, match: plan.trigram }), false)
    add(attachmentCandidates(db, 'attachments_trigram', { ...params, match: plan.trigram }), false)
  }
  for (const term of plan.like) add(likeCandidates(db, term, excludeSessionId), false)
  return [...found.values()].sort((a, b) => b.score - a.score || b.id - a.id)
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
 * The newest messages holding the common terms, each scored as bm25 scores a single occurrence in a
 * message of average length (the idf of every term it holds, summed), best CANDIDATE_MESSAGES kept.
 * Reading postings unranked from a rowid bound costs only the postings in range.
 */
function commonTermCandidates(db: StateDb, common: NonNullable<WordPlan['common']>, excludeSessionId: string | null): FoundRow[] {
  const scores = new Map<number, number>()
  const holds = new Map<number, string[]>()
  // The LIMIT bounds the read even when a term's count was underestimated (it is estimated from the
  // newest messages, so a word frequent only long ago looks rarer than it is).
  const postings = db
    .prepare('SELECT rowid AS id FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= CAST(? AS INTEGER) ORDER BY rowid DESC LIMIT ?')
    .pluck()
  for (const term of common.terms) {
    for (const id of postings.all(term.expression, common.fromId, SLICE_BUDGET) as number[]) {
      scores.set(id, (scores.get(id) ?? 0) + term.idf)
      const held = holds.get(id)
      if (held) held.push(term.expression)
      else holds.set(id, [term.expression])
    }
  }
  const best = [...scores].sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, CANDIDATE_MESSAGES)
  if (!best.length) return []
  const rows = db
    .prepare(`SELECT id, session_id FROM messages WHERE id IN (${best.map(() => '?').join(',')}) AND branch_id IS NULL AND (? IS NULL OR session_id <> ?)`)
    .all(...best.map(([id]) => id), excludeSessionId, excludeSessionId) as Array<{ id: number; session_id: string }>
  const sessionOf = new Map(rows.map((r) => [r.id, r.session_id]))
  return best.flatMap(([id, score]) => {
    const sessionId = sessionOf.get(id)
    return sessionId === undefined ? [] : [{ id, session_id: sessionId, score, holds: holds.get(id) }]
  })
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
 * and score each hit like a bm25 term, by how rare the word is. Only the newest LIKE_SCAN_MESSAGES
 * are scanned (82 ms for the whole of a million-message history, 8 ms for its newest 100k): older
 * ones are still found as segmented words through the trigram index.
 */
function likeCandidates(db: StateDb, term: string, excludeSessionId: string | null): Array<{ id: number; session_id: string; score: number }> {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  const total = (db.prepare('SELECT max(id) AS n FROM messages').get() as { n: number | null }).n ?? 0
  const rows = db
    .prepare(
      `SELECT id, session_id FROM messages INDEXED BY messages_unsegmented
       WHERE ${holdsUnsegmented('content')} AND content LIKE @pattern ESCAPE '\\'
         AND id > CAST(@from AS INTEGER) AND (@exclude IS NULL OR session_id <> @exclude) AND branch_id IS NULL
       ORDER BY id DESC LIMIT @limit`
    )
    .all({ pattern, exclude: excludeSessionId, limit: CANDIDATE_MESSAGES, from: Math.max(0, total - LIKE_SCAN_MESSAGES) }) as Array<{ id: number; session_id: string }>
  if (!rows.length) return []
  const idf = Math.log(1 + (Math.max(total, rows.length) - rows.length + 0.5) / (rows.length + 0.5))
  return rows.map((row) => ({ ...row, score: idf }))
}

/** The keyword ranking and the conversations found by meaning, fused; a conversation only meaning found shows its closest message. */
function withMeaning(byKeyword: readonly RankedSession[], meaning: readonly SemanticCandidate[]): RankedSession[] {
  const keyword = new Map(byKeyword.map((session) => [session.sessionId, session]))
  return fuseSessions(byKeyword.map((session) => session.sessionId), meaning).map((fused) => ({
    ...(keyword.get(fused.sessionId) ?? {
      sessionId: fused.sessionId,
      messages: [{ id: fused.meaningMessageId!, sessionId: fused.sessionId, score: fused.score, viaFts: false }]
    }),
    score: fused.score,
    foundBy: fused.keywordRank === null ? 'meaning' : fused.meaningRank === null ? 'words' : 'both'
  }))
}

interface RankedSession {
  sessionId: string
  score: number
  /** Set by the fusion with meaning; absent = words. */
  foundBy?: FoundBy
  /** Best first, at most SESSION_LISTED_MATCHES. */
  messages: Candidate[]
}

function rankSessions(candidates: Iterable<Candidate>, distinctive: Set<number> | null = null, coverage: Map<string, number> | null = null): RankedSession[] {
  const bySession = new Map<string, Candidate[]>()
  for (const candidate of candidates) {
    const list = bySession.get(candidate.sessionId)
    if (list) list.push(candidate)
    else bySession.set(candidate.sessionId, [candidate])
  }
  const ranked: RankedSession[] = []
  for (const [sessionId, list] of bySession) {
    list.sort((a, b) => b.score - a.score || a.id - b.id)
    const score = list.slice(0, SESSION_TOP_MESSAGES).reduce((sum, m, i) => sum + m.score * SESSION_SCORE_DECAY ** i, 0) + COVERAGE_WEIGHT * (coverage?.get(sessionId) ?? 0)
    ranked.push({ sessionId, score, messages: withNeighbourSupport(list).slice(0, SESSION_LISTED_MATCHES) })
  }
  // A session holding the distinctive term first; ties go to the more recent session (higher
  // message ids were written later).
  const tier = (r: RankedSession): number => (distinctive && r.messages.some((m) => distinctive.has(m.id)) ? 1 : 0)
  return ranked.sort((a, b) => tier(b) - tier(a) || b.score - a.score || b.messages[0].id - a.messages[0].id)
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

function snippetFor(db: StateDb, plan: SearchPlan, words: WordPlan, best: Candidate, terms: string[]): string {
  // FTS5 marks stemmed word matches best, but knows nothing of trigram or LIKE terms. It marks the
  // terms of the expression it is given: the rarest ones first, so the snippet shows what is distinctive.
  if (best.viaFts && words.kept.length && !plan.like.length) {
    // better-sqlite3 binds JS numbers as REAL, and FTS5 silently ignores a REAL rowid constraint
    // next to MATCH (every matching row comes back): hence the CAST.
    const snippet = db.prepare(
      `SELECT snippet(messages_fts, -1, '${MATCH_OPEN}', '${MATCH_CLOSE}', '…', 24) AS snippet
       FROM messages_fts WHERE messages_fts MATCH ? AND rowid = CAST(? AS INTEGER)`
    )
    // A message found by the common terms holds only those named in `holds` (rarest first); each
    // term the snippet is asked for costs a seek of its postings in every index segment, so two.
    const distinctive = new Set(words.distinctiveTerms)
    const expressions = best.holds
      ? [best.holds.filter((e) => distinctive.has(e)).slice(0, 2).join(' OR '), best.holds.slice(0, 2).join(' OR ')]
      : [words.distinctive, words.kept.map((t) => t.expression).join(' OR ')]
    for (const expression of expressions) {
      const row = expression ? (snippet.get(expression, best.id) as { snippet: string } | undefined) : undefined
      if (row?.snippet) return row.snippet
    }
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

/**
 * LoCoMo recall through Cairn's real path: each conversation is ingested session by session through
 * SessionStore into its own state.db file, and every question with valid evidence is asked through
 * searchSessions. Prints JSON: session any@k / all@k (k = 1, 3, 5, 10) and turn frac@5 / frac@10, for
 * all 1,982 questions (the reference floor's population), excluding category 5, and per category.
 *
 *   npx tsx test/bench/locomo.ts [--conversations conv-26,conv-30]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { openStateDb, type StateDb } from '../../electron/core/db/state-db'
import { SessionStore } from '../../electron/core/sessions/session-store'
import { searchSessions } from '../../electron/core/sessions/session-search'
import { planSearch, quoteTerm } from '../../electron/core/sessions/fts-query'
import { categoryNames, loadLocomo, turnLine, type LocomoConversation, type LocomoQuestion } from './locomo-data'

export const KS = [1, 3, 5, 10] as const

/** The plain FTS5 bm25 floor over raw session transcripts (all 1,982 questions), from shared/data/README.md. */
export const LOCOMO_FLOOR = { any5: 0.918, all5: 0.829, turnFrac10: 0.633 }

export interface QuestionOutcome {
  category: number
  /** 1-based rank of each gold session in the returned list (Infinity when missing). */
  goldRanks: number[]
  /** Fraction of evidence turns among the top 5 / top 10 hit messages. */
  turnFrac5: number
  turnFrac10: number
  /** Every gold session holds a word of the question that not every session holds (see reachableByWords). */
  reachable: boolean
}

export interface RecallFigures {
  n: number
  any: Record<string, number>
  all: Record<string, number>
  turnFrac5: number
  turnFrac10: number
  /** Share of questions whose every gold session keyword search could place at all: the ceiling of all@k. */
  allReachableByWords: number
}

export interface IngestedConversation {
  db: StateDb
  /** Cairn session id → LoCoMo session number. */
  sessionNumbers: Map<string, number>
  /** Message id → LoCoMo dia_id. */
  diaIds: Map<number, string>
}

/**
 * One Cairn session per `session_N`, in order, started at the session's date, opened by a system
 * message carrying that date; turns alternate user (speaker A) / assistant (speaker B).
 */
export function ingestConversation(conversation: LocomoConversation, dbPath: string): IngestedConversation {
  const db = openStateDb(dbPath)
  const store = new SessionStore(db)
  const sessionNumbers = new Map<string, number>()
  const diaIds = new Map<number, string>()
  for (const session of conversation.sessions) {
    const record = store.create({
      title: `${conversation.speakerA} & ${conversation.speakerB}, session ${session.number} (${session.dateTime})`,
      source: 'locomo',
      startedAt: session.timestamp
    })
    sessionNumbers.set(record.id, session.number)
    const messages = store.appendMany(record.id, [
      { role: 'system', content: session.dateTime, createdAt: session.timestamp },
      ...session.turns.map((turn) => ({
        role: turn.speaker === conversation.speakerA ? ('user' as const) : ('assistant' as const),
        content: turnLine(turn),
        createdAt: session.timestamp
      }))
    ])
    messages.slice(1).forEach((message, i) => diaIds.set(message.id, session.turns[i].diaId))
  }
  return { db, sessionNumbers, diaIds }
}

export function askQuestion(ingested: IngestedConversation, question: LocomoQuestion): QuestionOutcome {
  const { sessions } = searchSessions(ingested.db, question.question, { limit: 10, window: 0 })
  const order = sessions.map((s) => ingested.sessionNumbers.get(s.sessionId))
  const goldRanks = question.goldSessions.map((n) => {
    const at = order.indexOf(n)
    return at < 0 ? Infinity : at + 1
  })
  const turns = sessions
    .flatMap((s) => s.matches)
    .sort((a, b) => b.score - a.score)
    .map((m) => ingested.diaIds.get(m.messageId))
    // The date line opening each session is a message but not a dialogue turn.
    .filter((id): id is string => id !== undefined)
  const frac = (k: number): number => question.evidence.filter((id) => turns.slice(0, k).includes(id)).length / question.evidence.length
  return { category: question.category, goldRanks, turnFrac5: frac(5), turnFrac10: frac(10), reachable: reachableByWords(ingested, question.question, question.goldSessions) }
}

/**
 * Whether keyword search could place every gold session at all: each must hold a term of the question
 * (as the word index matches it: stemmed) that some session of the conversation lacks. A gold session
 * holding only terms every session holds (the speakers' names) cannot be told apart by words, so this
 * is a ceiling on all@k for any keyword ranking, independent of how it scores.
 */
export function reachableByWords(ingested: IngestedConversation, question: string, goldSessions: number[]): boolean {
  const sessionsWith = ingested.db.prepare(
    `SELECT DISTINCT m.session_id AS id FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid WHERE messages_fts MATCH ?`
  )
  const all = ingested.sessionNumbers.size
  const telling = planSearch(question)
    .terms.map((term) => new Set((sessionsWith.all(quoteTerm(term)) as Array<{ id: string }>).map((row) => ingested.sessionNumbers.get(row.id))))
    .filter((holders) => holders.size > 0 && holders.size < all)
  return goldSessions.every((n) => telling.some((holders) => holders.has(n)))
}

export function summarise(outcomes: QuestionOutcome[]): RecallFigures {
  const n = outcomes.length
  const share = (pass: (o: QuestionOutcome) => boolean): number => (n ? round(outcomes.filter(pass).length / n) : 0)
  const any: Record<string, number> = {}
  const all: Record<string, number> = {}
  for (const k of KS) {
    any[`@${k}`] = share((o) => o.goldRanks.some((r) => r <= k))
    all[`@${k}`] = share((o) => o.goldRanks.every((r) => r <= k))
  }
  const mean = (pick: (o: QuestionOutcome) => number): number => (n ? round(outcomes.reduce((s, o) => s + pick(o), 0) / n) : 0)
  return { n, any, all, turnFrac5: mean((o) => o.turnFrac5), turnFrac10: mean((o) => o.turnFrac10), allReachableByWords: share((o) => o.reachable) }
}

export function runLocomo(conversations: LocomoConversation[]): QuestionOutcome[] {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-locomo-'))
  try {
    const outcomes: QuestionOutcome[] = []
    for (const conversation of conversations) {
      const ingested = ingestConversation(conversation, join(dir, `${conversation.sampleId}.db`))
      for (const question of conversation.questions) outcomes.push(askQuestion(ingested, question))
      ingested.db.close()
    }
    return outcomes
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}

function main(): void {
  const flag = process.argv.indexOf('--conversations')
  const only = flag > 0 ? new Set(process.argv[flag + 1].split(',')) : null
  const conversations = loadLocomo().filter((c) => !only || only.has(c.sampleId))
  const started = performance.now()
  const outcomes = runLocomo(conversations)
  const seconds = (performance.now() - started) / 1000
  const overall = summarise(outcomes)
  const byCategory: Record<string, RecallFigures> = {}
  for (const category of [1, 2, 3, 4, 5]) {
    byCategory[`${category} ${categoryNames[category]}`] = summarise(outcomes.filter((o) => o.category === category))
  }
  const report = {
    benchmark: 'locomo10 session_search recall',
    conversations: conversations.map((c) => c.sampleId),
    seconds: Math.round(seconds * 10) / 10,
    floor: LOCOMO_FLOOR,
    beatsFloor: overall.any['@5'] > LOCOMO_FLOOR.any5 && overall.all['@5'] > LOCOMO_FLOOR.all5,
    all: overall,
    excludingCategory5: summarise(outcomes.filter((o) => o.category !== 5)),
    byCategory
  }
  console.log(JSON.stringify(report, null, 2))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main()

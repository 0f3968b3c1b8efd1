/**
 * Chinese / Japanese / emoji / fullwidth search on the mixed-language set in test/fixtures/cjk-search/,
 * comparing ways to index unsegmented script. Prints JSON: any@1 and any@3 per variant, the queries
 * each variant misses, and latency (mean, p95 per query) on the set grown with filler messages.
 *
 *   npx tsx test/bench/cjk.ts [--filler 20000] [--backfill 30000]
 *
 * It also times migration 14 on a database of --backfill older Chinese/Japanese messages.
 *
 * Variants (each with the English words through the porter word index, as the app does):
 *   trigram    the substring index alone: runs of ≥ 3 characters and their trigrams, LIKE for shorter
 *              runs (what search did before migration 14)
 *   segmenter  Intl.Segmenter words in a word (unicode61) index, the query segmented the same way
 *   both       the two above, scores added
 *   shipping   searchSessions as it is now (trigram pieces plus marked segmented words in one index)
 */
import Database from 'better-sqlite3'
import { migrations } from '../../electron/core/db/migrations'
import { migrate, openStateDb, type StateDb } from '../../electron/core/db/state-db'
import { segmentBacklog } from '../../electron/core/db/segment-backlog'
import { segmentedWords } from '../../electron/core/db/cjk-segment'
import { extractTerms, isUnsegmented, planSearch } from '../../electron/core/sessions/fts-query'
import { foldQuery, isContentWord } from '../../electron/core/sessions/cjk-query'
import { SessionStore } from '../../electron/core/sessions/session-store'
import { searchSessions } from '../../electron/core/sessions/session-search'
import { anyAt, cjkConversations, cjkQueries, seedCjkConversations, type CjkConversation } from '../fixtures/cjk-search/load'

type Variant = 'trigram' | 'segmenter' | 'both'
type Scored = Array<{ id: number; score: number }>

const argument = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name)
  return at > 0 ? Number(process.argv[at + 1]) : fallback
}
const fillerMessages = argument('--filler', 20_000)
const backfillMessages = argument('--backfill', 30_000)

/** The bench's own tables, so each way of indexing is measured alone and the old one stays reproducible. */
function buildIndexes(conversations: CjkConversation[]): { db: Database.Database; sessionOf: Map<number, string> } {
  const db = new Database(':memory:')
  db.exec(`
    CREATE VIRTUAL TABLE words USING fts5(body, tokenize='porter unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE trigrams USING fts5(body, tokenize='trigram');
    CREATE VIRTUAL TABLE segments USING fts5(body, tokenize='unicode61 remove_diacritics 2');
    CREATE TABLE messages (id INTEGER PRIMARY KEY, body TEXT);`)
  const sessionOf = new Map<number, string>()
  const insert = db.transaction(() => {
    let id = 0
    for (const conversation of conversations) {
      for (const { content } of conversation.messages) {
        id++
        sessionOf.set(id, conversation.id)
        db.prepare('INSERT INTO messages (id, body) VALUES (?, ?)').run(id, content)
        db.prepare('INSERT INTO words (rowid, body) VALUES (?, ?)').run(id, content)
        if (isUnsegmented(content)) db.prepare('INSERT INTO trigrams (rowid, body) VALUES (?, ?)').run(id, content)
        const segmented = segmentedWords(content).join(' ')
        if (segmented) db.prepare('INSERT INTO segments (rowid, body) VALUES (?, ?)').run(id, segmented)
      }
    }
  })
  insert()
  return { db, sessionOf }
}

const quote = (text: string): string => `"${text.replace(/"/g, '""')}"`

function match(db: Database.Database, table: string, terms: string[]): Scored {
  if (!terms.length) return []
  return db.prepare(`SELECT rowid AS id, -rank AS score FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT 300`).all(terms.map(quote).join(' OR ')) as Scored
}

/** The pre-migration-14 plan: whole runs and their trigrams for ≥ 3 characters, LIKE below that. */
function trigramCandidates(db: Database.Database, query: string): Scored {
  const runs = extractTerms(query).filter((t) => isUnsegmented(t.text)).map((t) => [...t.text])
  const pieces = runs.filter((r) => r.length >= 3).flatMap((chars) => {
    const out = [chars.join('')]
    if (chars.length > 3 && chars.length <= 12) for (let i = 0; i + 3 <= chars.length; i++) out.push(chars.slice(i, i + 3).join(''))
    return out
  })
  const total = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n
  const like = runs.filter((r) => r.length < 3).flatMap((chars) => {
    const rows = db.prepare('SELECT id FROM messages WHERE body LIKE ? ORDER BY id DESC LIMIT 300').all(`%${chars.join('')}%`) as Array<{ id: number }>
    const idf = Math.log(1 + (total - rows.length + 0.5) / (rows.length + 0.5))
    return rows.map((r) => ({ id: r.id, score: idf }))
  })
  return [...match(db, 'trigrams', [...new Set(pieces)]), ...like]
}

function segmenterCandidates(db: Database.Database, query: string): Scored {
  const runs = extractTerms(foldQuery(query)).filter((t) => isUnsegmented(t.text))
  const words = runs.flatMap((t) => segmentedWords(t.text)).filter(isContentWord)
  return match(db, 'segments', [...new Set(words)])
}

function rank(db: Database.Database, sessionOf: Map<number, string>, query: string, variant: Variant): string[] {
  const byMessage = new Map<number, number>()
  const add = (rows: Scored): void => rows.forEach((r) => byMessage.set(r.id, (byMessage.get(r.id) ?? 0) + r.score))
  const latin = extractTerms(variant === 'trigram' ? query : foldQuery(query)).filter((t) => !isUnsegmented(t.text))
  add(match(db, 'words', latin.map((t) => t.text)))
  if (variant !== 'segmenter') add(trigramCandidates(db, query))
  if (variant !== 'trigram') add(segmenterCandidates(db, query))
  // As searchSessions: a session scores its best messages, each worth half the one before.
  const bySession = new Map<string, number[]>()
  for (const [id, score] of byMessage) {
    const session = sessionOf.get(id)!
    bySession.set(session, [...(bySession.get(session) ?? []), score])
  }
  return [...bySession]
    .map(([session, scores]) => ({ session, score: scores.sort((a, b) => b - a).slice(0, 5).reduce((sum, s, i) => sum + s * 0.5 ** i, 0) }))
    .sort((a, b) => b.score - a.score)
    .map((s) => s.session)
}

/** Filler conversations made of shuffled sentences of the set, so the indexes hold realistic CJK text. */
function filler(conversations: CjkConversation[], messages: number): CjkConversation[] {
  const sentences = conversations.flatMap((c) => c.messages.map((m) => m.content).flatMap((t) => t.split(/(?<=[。！？])/u)))
  let seed = 7
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
  const out: CjkConversation[] = []
  for (let i = 0; i < messages / 4; i++) {
    out.push({
      id: `filler-${i}`,
      title: 'filler',
      messages: Array.from({ length: 4 }, (_, j) => ({ role: j % 2 ? 'assistant' : 'user', content: Array.from({ length: 3 }, () => sentences[next() % sentences.length]).join('') }))
    })
  }
  return out
}

function latency(run: () => void, repeat = 3): { meanMs: number; p95Ms: number } {
  const times: number[] = []
  for (let r = 0; r < repeat; r++) {
    const start = performance.now()
    run()
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  return { meanMs: round(times.reduce((a, b) => a + b, 0) / times.length), p95Ms: round(times[Math.floor(times.length * 0.95)] ?? 0) }
}

/** Migration 14 on a database of `count` messages written before it, all holding Chinese or Japanese. */
/**
 * Migration 14 on a history of `count` Chinese/Japanese messages written before it: the schema work
 * at start-up, then the background pass that gives them their words (segment-backlog.ts).
 */
async function timeMigration14(conversations: CjkConversation[], count: number): Promise<{ messages: number; migrateMs: number; backgroundPassMs: number; batchMs: { p50: number; p95: number; max: number } }> {
  const db = new Database(':memory:') as StateDb
  for (const migration of migrations.filter((m) => m.version < 14)) db.exec(migration.sql)
  db.pragma('user_version = 13')
  db.prepare("INSERT INTO sessions (id, started_at, updated_at) VALUES ('old', 1, 1)").run()
  const texts = conversations.flatMap((c) => c.messages.map((m) => m.content))
  const insert = db.prepare("INSERT INTO messages (session_id, role, content, created_at) VALUES ('old', 'user', ?, 1)")
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(texts[i % texts.length] + texts[(i * 7) % texts.length])
  })()
  const start = performance.now()
  migrate(db)
  const migrateMs = performance.now() - start
  // Between batches the app's other work runs; a batch is what a chat turn starting meanwhile waits for.
  const batches: number[] = []
  let batchStart = performance.now()
  const passStart = performance.now()
  await segmentBacklog(db, {
    onProgress: () => {
      batches.push(performance.now() - batchStart)
      batchStart = performance.now()
    }
  })
  const backgroundPassMs = performance.now() - passStart
  db.close()
  batches.sort((a, b) => a - b)
  const at = (share: number): number => Math.round(batches[Math.min(batches.length - 1, Math.floor(batches.length * share))])
  return { messages: count, migrateMs: Math.round(migrateMs), backgroundPassMs: Math.round(backgroundPassMs), batchMs: { p50: at(0.5), p95: at(0.95), max: at(1) } }
}

const round = (n: number): number => Math.round(n * 1000) / 1000

async function main(): Promise<void> {
  const conversations = cjkConversations()
  const queries = cjkQueries()
  const clean = buildIndexes(conversations)
  const report: Record<string, unknown> = { conversations: conversations.length, queries: queries.length, fillerMessages }

  const variants: Variant[] = ['trigram', 'segmenter', 'both']
  const recall: Record<string, unknown> = {}
  for (const variant of variants) {
    const results = queries.map((q) => ({ ...q, found: rank(clean.db, clean.sessionOf, q.query, variant) }))
    recall[variant] = { any1: round(anyAt(1, results)), any3: round(anyAt(3, results)), missedAt3: results.filter((r) => !anyAt(3, [r])).map((r) => r.query) }
  }
  const store = openStateDb(':memory:')
  seedCjkConversations(new SessionStore(store), conversations)
  const shipped = queries.map((q) => ({ ...q, found: searchSessions(store, q.query, { limit: 3, includeCurrent: true }).sessions.map((s) => s.sessionId) }))
  recall.shipping = { any1: round(anyAt(1, shipped)), any3: round(anyAt(3, shipped)), missedAt3: shipped.filter((r) => !anyAt(3, [r])).map((r) => r.query) }
  report.recall = recall

  // Latency: the set plus filler, every query once per repeat, per query.
  const grown = [...conversations, ...filler(conversations, fillerMessages)]
  const big = buildIndexes(grown)
  const timings: Record<string, unknown> = {}
  for (const variant of variants) {
    const t = latency(() => queries.forEach((q) => rank(big.db, big.sessionOf, q.query, variant)))
    timings[variant] = { meanMsPerQuery: round(t.meanMs / queries.length) }
  }
  const bigStore = openStateDb(':memory:')
  const bigSessions = new SessionStore(bigStore)
  seedCjkConversations(bigSessions, grown)
  const perQuery: number[] = []
  for (const q of queries) {
    const start = performance.now()
    searchSessions(bigStore, q.query, { limit: 3, includeCurrent: true })
    perQuery.push(performance.now() - start)
  }
  perQuery.sort((a, b) => a - b)
  timings.shipping = {
    meanMsPerQuery: round(perQuery.reduce((a, b) => a + b, 0) / perQuery.length),
    p95Ms: round(perQuery[Math.floor(perQuery.length * 0.95)]),
    maxMs: round(perQuery[perQuery.length - 1])
  }
  report.latency = timings
  report.migration14 = await timeMigration14(conversations, backfillMessages)
  console.log(JSON.stringify(report, null, 2))
}

void main()

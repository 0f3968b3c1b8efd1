/**
 * Session search at scale: synthetic but realistic sessions (topic vocabulary over a Zipf-distributed
 * general vocabulary, tool calls with JSON arguments, long tool outputs, ~3% Chinese) are ingested
 * through SessionStore into a real state.db, 100k messages and then grown to 1M. Prints JSON with the
 * ingest rate (batched per session, and one transaction per message as the live agent writes) and
 * searchSessions p50/p95/max latency at each size, per query class: natural-language questions (the
 * agent's session_search) and the sidebar's as-you-type queries (every prefix of a typed query, as
 * the 220 ms debounce can send it, limit 10, current session included, the unfinished last word
 * completed from the vocabulary; the same queries searched as whole words are reported apart, as
 * incrementalWholeWords, and left out of the overall figures). Progress goes to stderr.
 *
 *   npx tsx test/bench/search.ts [--sizes 100000,1000000] [--keep] [--reuse DIR]
 *
 * --reuse DIR keeps one database per size in DIR (state-<size>.db) and measures an existing one
 * instead of ingesting again (a 1M ingest takes minutes); ingest figures are then absent.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStateDb } from '../../electron/core/db/state-db'
import { SessionStore } from '../../electron/core/sessions/session-store'
import { searchSessions } from '../../electron/core/sessions/session-search'
import type { NewMessage } from '../../electron/core/sessions/types'

const topics: Record<string, string[]> = {
  nginx: ['nginx', 'proxy', 'upstream', '502', 'gateway', 'timeout', 'config', 'reload', 'certificate', 'tls', 'vhost'],
  postgres: ['postgres', 'query', 'index', 'vacuum', 'replica', 'connection', 'pool', 'migration', 'schema', 'explain', 'deadlock'],
  docker: ['docker', 'container', 'image', 'compose', 'volume', 'registry', 'dockerfile', 'layer', 'build', 'healthcheck'],
  kubernetes: ['kubernetes', 'pod', 'deployment', 'ingress', 'helm', 'namespace', 'kubectl', 'rollout', 'node', 'crashloop'],
  react: ['react', 'component', 'hook', 'state', 'render', 'props', 'useeffect', 'suspense', 'redux', 'memo'],
  python: ['python', 'virtualenv', 'pip', 'pandas', 'dataframe', 'asyncio', 'typing', 'pytest', 'fixture', 'poetry'],
  rust: ['rust', 'cargo', 'borrow', 'lifetime', 'trait', 'tokio', 'crate', 'clippy', 'ownership', 'macro'],
  git: ['git', 'rebase', 'merge', 'branch', 'commit', 'cherry', 'conflict', 'bisect', 'stash', 'remote'],
  travel: ['flight', 'hotel', 'itinerary', 'lisbon', 'train', 'booking', 'passport', 'luggage', 'museum', 'restaurant'],
  cooking: ['recipe', 'sourdough', 'starter', 'oven', 'flour', 'hydration', 'proof', 'knead', 'crust', 'bake'],
  finance: ['budget', 'invoice', 'tax', 'receipt', 'spreadsheet', 'expense', 'refund', 'salary', 'mortgage', 'savings'],
  fitness: ['running', 'marathon', 'interval', 'pace', 'injury', 'stretching', 'strength', 'squat', 'recovery', 'heart'],
  writing: ['essay', 'draft', 'outline', 'paragraph', 'editor', 'chapter', 'tone', 'headline', 'citation', 'revision'],
  electron: ['electron', 'preload', 'ipc', 'renderer', 'sandbox', 'packaging', 'autoupdate', 'notarize', 'tray', 'window'],
  ci: ['pipeline', 'github', 'actions', 'workflow', 'cache', 'artifact', 'runner', 'matrix', 'flaky', 'lint'],
  security: ['password', 'ssh', 'key', 'token', 'rotate', 'vault', 'secret', 'oauth', 'mfa', 'audit']
}
const topicNames = Object.keys(topics)

const chinesePhrases = ['数据库迁移', '服务器部署', '容器化方案', '性能优化', '内存泄漏', '日志分析', '接口超时', '缓存失效', '权限配置', '单元测试', '代码审查', '版本发布', '网络延迟', '磁盘空间', '备份恢复']
const chineseGlue = ['我们', '今天', '讨论了', '问题', '已经', '解决', '需要', '检查', '一下', '结果', '发现', '然后', '应该', '可以']

const glue = 'the a to of and in we it that is for on you this with was be can but so if not have what how why when do'.split(' ')

const queries = [
  'how did we fix the nginx 502 bad gateway error',
  'what was the postgres connection pool size we settled on',
  'docker compose healthcheck keeps failing',
  'kubernetes pod stuck in crashloop after rollout',
  'react component renders twice with useeffect',
  'pytest fixture for the asyncio database',
  'rust borrow checker lifetime error in the tokio task',
  'git rebase conflict on the release branch',
  'hotel booking for the lisbon trip',
  'sourdough starter hydration and proofing time',
  'tax receipt for the refund',
  'marathon training interval pace',
  'outline for the essay about revision',
  'electron preload ipc sandbox',
  'flaky github actions workflow cache',
  'rotate the ssh key in vault',
  'ERR_CONN_RESET during deploy',
  'why did the build fail last week',
  'what did I decide about the mortgage savings plan',
  'remind me what the museum restaurant was called',
  'deploy*',
  '"connection pool"',
  '数据库迁移失败怎么办',
  '服务器部署',
  '缓存',
  'index vacuum deadlock explain',
  'my-app.config.ts',
  'token oauth mfa audit secret password',
  'the',
  'anything about squat recovery or injury',
  'how did we set up node with pnpm'
]

/** What a user types into the sidebar search; the UI sends what is typed so far, word by word. */
const typedQueries = ['nginx 502 gateway', 'how did we set up node with pnpm', 'postgres connection pool', 'the docker compose', 'sourdough hydration']

/** Every prefix of at least two characters (a fast typist sends fewer; this bounds the worst case). */
const incrementalQueries = [...new Set(typedQueries.flatMap((typed) => [...typed].map((_, i) => typed.slice(0, i + 1)).filter((p) => p.trim().length >= 2)))]

/** Deterministic PRNG (mulberry32) so every run ingests the same data. */
function rng(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const random = rng(42)
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]

// 20k pseudo-words with a Zipf distribution: a realistic long tail for bm25's idf.
const syllables = ['ka', 'lo', 'mi', 'ter', 'an', 'zu', 'pre', 'ven', 'dor', 'si', 'qua', 'ble', 'ox', 'rit', 'mun', 'gal', 'es', 'tro', 'ni', 'fe']
const vocabulary = Array.from({ length: 20_000 }, (_, i) => {
  let word = ''
  let n = i + 1
  while (n > 0) {
    word += syllables[n % syllables.length]
    n = Math.floor(n / syllables.length)
  }
  return word
})
const zipfCumulative = (() => {
  const weights = vocabulary.map((_, i) => 1 / (i + 1))
  const total = weights.reduce((s, w) => s + w, 0)
  let acc = 0
  return weights.map((w) => (acc += w / total))
})()

function zipfWord(): string {
  const r = random()
  let lo = 0
  let hi = zipfCumulative.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (zipfCumulative[mid] < r) lo = mid + 1
    else hi = mid
  }
  return vocabulary[lo]
}

function sentence(topic: string, words: number): string {
  const out: string[] = []
  for (let i = 0; i < words; i++) {
    const r = random()
    out.push(r < 0.25 ? pick(topics[topic]) : r < 0.55 ? pick(glue) : zipfWord())
  }
  return out.join(' ')
}

function chinese(topic: string): string {
  const parts = [pick(chineseGlue), pick(chinesePhrases), pick(chineseGlue), pick(chinesePhrases), pick(chineseGlue)]
  return `${parts.join('')}，${pick(topics[topic])} ${pick(chineseGlue)}${pick(chinesePhrases)}。`
}

function toolOutput(topic: string): string {
  const long = random() < 0.1
  const lines = long ? 40 + Math.floor(random() * 160) : 2 + Math.floor(random() * 8)
  const out: string[] = []
  for (let i = 0; i < lines; i++) {
    const r = random()
    if (r < 0.02) out.push(`Error: ${pick(['ERR_CONN_RESET', 'ENOSPC', 'EADDRINUSE', 'ETIMEDOUT'])} at ${pick(topics[topic])}.ts:${i}`)
    else out.push(`[${i}] ${sentence(topic, 6 + Math.floor(random() * 10))}`)
  }
  return out.join('\n')
}

let callCounter = 0
function sessionMessages(count: number): NewMessage[] {
  const topic = pick(topicNames)
  const messages: NewMessage[] = []
  while (messages.length < count) {
    const zh = random() < 0.03
    messages.push({ role: 'user', content: zh ? chinese(topic) : sentence(topic, 8 + Math.floor(random() * 30)) })
    if (random() < 0.4) {
      const id = `call_${++callCounter}`
      const name = pick(['run_command', 'read_file', 'search_files', 'web_fetch'])
      const args = JSON.stringify(name === 'run_command' ? { command: `${pick(topics[topic])} ${zipfWord()} --${pick(glue)}` } : { path: `src/${pick(topics[topic])}/${zipfWord()}.ts` })
      messages.push({ role: 'assistant', content: null, toolCalls: [{ id, name, arguments: args }], promptTokens: 800, completionTokens: 40 })
      messages.push({ role: 'tool', toolCallId: id, toolName: name, content: toolOutput(topic) })
    }
    messages.push({
      role: 'assistant',
      content: zh ? chinese(topic) : sentence(topic, 20 + Math.floor(random() * 120)),
      promptTokens: 1200,
      completionTokens: 150,
      cachedTokens: 1000
    })
  }
  return messages.slice(0, count)
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

interface QueryClass {
  queries: string[]
  options: { limit: number; includeCurrent?: boolean; prefixLastWord?: boolean }
  /** Measured to compare with, left out of the overall figures. */
  reference?: boolean
}

const queryClasses: Record<string, QueryClass> = {
  natural: { queries, options: { limit: 3 } },
  // As the sidebar searches: the unfinished last word also through its completions.
  incremental: { queries: incrementalQueries, options: { limit: 10, includeCurrent: true, prefixLastWord: true } },
  incrementalWholeWords: { queries: incrementalQueries, options: { limit: 10, includeCurrent: true }, reference: true }
}

function measureSearch(db: ReturnType<typeof openStateDb>, rounds: number): Record<string, unknown> {
  const figures: Record<string, unknown> = {}
  const everything: number[] = []
  for (const [name, { queries: list, options, reference }] of Object.entries(queryClasses)) {
    // The first pass warms SQLite's page cache and the planner's term counts; it is reported apart.
    const firstPass = list.map((q) => {
      const started = performance.now()
      searchSessions(db, q, options)
      return performance.now() - started
    })
    const times: number[] = []
    const perQuery = new Map<string, number[]>()
    const empty: string[] = []
    for (let r = 0; r < rounds; r++) {
      for (const q of list) {
        const started = performance.now()
        const result = searchSessions(db, q, options)
        const ms = performance.now() - started
        times.push(ms)
        perQuery.set(q, [...(perQuery.get(q) ?? []), ms])
        if (r === 0 && result.sessions.length === 0) empty.push(q)
      }
    }
    if (!reference) everything.push(...times)
    figures[name] = {
      queries: list.length,
      runs: times.length,
      ...latency(times),
      firstPass: latency(firstPass),
      slowestQueries: [...perQuery]
        .map(([query, ms]) => ({ query, medianMs: round(ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)]), maxMs: round(Math.max(...ms)) }))
        .sort((a, b) => b.medianMs - a.medianMs)
        .slice(0, 5),
      queriesWithNoResult: empty
    }
  }
  return { ...latency(everything), ...figures }
}

function latency(times: number[]): { p50Ms: number; p95Ms: number; maxMs: number } {
  const sorted = [...times].sort((a, b) => a - b)
  return { p50Ms: round(percentile(sorted, 50)), p95Ms: round(percentile(sorted, 95)), maxMs: round(sorted[sorted.length - 1]) }
}

function round(value: number): number {
  return Math.round(value * 100) / 100
}

function main(): void {
  const sizesFlag = process.argv.indexOf('--sizes')
  const sizes = sizesFlag > 0 ? process.argv[sizesFlag + 1].split(',').map(Number) : [100_000, 1_000_000]
  const reuseFlag = process.argv.indexOf('--reuse')
  const reuseDir = reuseFlag > 0 ? process.argv[reuseFlag + 1] : null
  if (reuseDir) mkdirSync(reuseDir, { recursive: true })
  const kept = (size: number): string | null => (reuseDir ? join(reuseDir, `state-${size}.db`) : null)
  const report: Record<string, unknown> = { benchmark: 'session search at scale' }
  // Sizes already kept are measured as they are; the rest are ingested in one growing database.
  const toIngest = sizes.filter((size) => !existsSync(kept(size) ?? ''))
  for (const size of sizes.filter((s) => !toIngest.includes(s))) {
    const path = kept(size) as string
    const db = openStateDb(path)
    try {
      const messages = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n
      process.stderr.write(`measuring search at ${messages} messages (kept ${path})\n`)
      report[`at${size}`] = { messages, dbMegabytes: Math.round(statSync(path).size / 1e6), reused: path, search: measureSearch(db, 5) }
      process.stderr.write(`${JSON.stringify(report[`at${size}`])}\n`)
    } finally {
      db.close()
    }
  }
  if (toIngest.length) ingestAndMeasure(toIngest, kept, report)
  console.log(JSON.stringify(report, null, 2))
}

function ingestAndMeasure(sizes: number[], kept: (size: number) => string | null, report: Record<string, unknown>): void {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-'))
  const dbPath = join(dir, 'state.db')
  const db = openStateDb(dbPath)
  const store = new SessionStore(db)
  report.dbPath = dbPath
  try {
    // The live path: one transaction per message, as the agent appends while it talks.
    const live = store.create({ source: 'bench' })
    const liveMessages = sessionMessages(2000)
    const liveStarted = performance.now()
    for (const message of liveMessages) store.append(live.id, message)
    report.liveAppend = { messages: liveMessages.length, perSecond: Math.round(liveMessages.length / ((performance.now() - liveStarted) / 1000)) }
    process.stderr.write(`live append: ${JSON.stringify(report.liveAppend)}\n`)

    let total = liveMessages.length
    let totalChars = 0
    for (const target of sizes) {
      const before = total
      let lastReport = performance.now()
      // Only the store calls are timed, not generating the text.
      let seconds = 0
      while (total < target) {
        const count = Math.min(target - total, 20 + Math.floor(random() * 60))
        const messages = sessionMessages(count)
        for (const m of messages) totalChars += (m.content?.length ?? 0) + (m.toolCalls ? JSON.stringify(m.toolCalls).length : 0)
        const started = performance.now()
        const session = store.create({ source: 'bench', title: `bench session ${total}` })
        store.appendMany(session.id, messages)
        seconds += (performance.now() - started) / 1000
        total += count
        if (performance.now() - lastReport > 10_000) {
          lastReport = performance.now()
          process.stderr.write(`ingested ${total} messages (${Math.round((total - before) / seconds)}/s)\n`)
        }
      }
      db.pragma('wal_checkpoint(TRUNCATE)')
      const keepAt = kept(target)
      if (keepAt) copyFileSync(dbPath, keepAt)
      process.stderr.write(`measuring search at ${total} messages\n`)
      report[`at${target}`] = {
        messages: total,
        averageMessageChars: Math.round(totalChars / (total - liveMessages.length)),
        ingestPerSecond: Math.round((total - before) / seconds),
        ingestSeconds: round(seconds),
        dbMegabytes: Math.round(statSync(dbPath).size / 1e6),
        search: measureSearch(db, 5)
      }
      process.stderr.write(`${JSON.stringify(report[`at${target}`])}\n`)
    }
  } finally {
    db.close()
    if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true })
  }
}

main()

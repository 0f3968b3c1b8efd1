/**
 * Session search at scale: synthetic but realistic sessions (topic vocabulary over a Zipf-distributed
 * general vocabulary, tool calls with JSON arguments, long tool outputs, ~3% Chinese) are ingested
 * through SessionStore into a real state.db, 100k messages and then grown to 1M. Prints JSON with the
 * ingest rate (batched per session, and one transaction per message as the live agent writes) and
 * searchSessions p50/p95 latency over natural-language queries at each size. Progress goes to stderr.
 *
 *   npx tsx test/bench/search.ts [--sizes 100000,1000000] [--keep]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
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
  'anything about squat recovery or injury'
]

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

function measureSearch(db: ReturnType<typeof openStateDb>, rounds: number): Record<string, unknown> {
  for (const q of queries) searchSessions(db, q) // warm the page cache
  const times: number[] = []
  const perQuery = new Map<string, number[]>()
  const empty: string[] = []
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const started = performance.now()
      const result = searchSessions(db, q, { limit: 3 })
      const ms = performance.now() - started
      times.push(ms)
      perQuery.set(q, [...(perQuery.get(q) ?? []), ms])
      if (r === 0 && result.sessions.length === 0) empty.push(q)
    }
  }
  times.sort((a, b) => a - b)
  return {
    queries: queries.length,
    runs: times.length,
    p50Ms: round(percentile(times, 50)),
    p95Ms: round(percentile(times, 95)),
    maxMs: round(times[times.length - 1]),
    slowestQueries: [...perQuery]
      .map(([query, list]) => ({ query, medianMs: round(list.sort((a, b) => a - b)[Math.floor(list.length / 2)]) }))
      .sort((a, b) => b.medianMs - a.medianMs)
      .slice(0, 5),
    queriesWithNoResult: empty
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100
}

function main(): void {
  const sizesFlag = process.argv.indexOf('--sizes')
  const sizes = sizesFlag > 0 ? process.argv[sizesFlag + 1].split(',').map(Number) : [100_000, 1_000_000]
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-'))
  const dbPath = join(dir, 'state.db')
  const db = openStateDb(dbPath)
  const store = new SessionStore(db)
  const report: Record<string, unknown> = { benchmark: 'session search at scale', dbPath }
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
      process.stderr.write(`measuring search at ${total} messages\n`)
      report[`at${total}`] = {
        messages: total,
        averageMessageChars: Math.round(totalChars / (total - liveMessages.length)),
        ingestPerSecond: Math.round((total - before) / seconds),
        ingestSeconds: round(seconds),
        dbMegabytes: Math.round(statSync(dbPath).size / 1e6),
        search: measureSearch(db, 5)
      }
      process.stderr.write(`${JSON.stringify(report[`at${total}`])}\n`)
    }
    console.log(JSON.stringify(report, null, 2))
  } finally {
    db.close()
    if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true })
  }
}

main()

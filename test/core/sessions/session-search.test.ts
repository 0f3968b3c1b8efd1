import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { SessionStore, searchSessions, type NewMessage } from '../../../electron/core/sessions'

let dir: string
let db: StateDb
let store: SessionStore

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-'))
  db = openStateDb(join(dir, 'state.db'))
  store = new SessionStore(db)
})

afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

function session(id: string, title: string, messages: Array<NewMessage | string>): number[] {
  store.create({ id, title })
  return store
    .appendMany(
      id,
      messages.map((m, i) => (typeof m === 'string' ? { role: i % 2 ? ('assistant' as const) : ('user' as const), content: m } : m))
    )
    .map((m) => m.id)
}

const filler = [
  'Sounds good, thanks.',
  'Let me know if anything else comes up.',
  'I will check and get back to you.',
  'Sure, happy to help with that.',
  'Okay, noted.'
]

describe('searchSessions', () => {
  it('answers natural-language questions that an implicit-AND query misses', () => {
    session('deploy', 'Blog hosting', [
      'Can we put my Hugo blog on Fly.io?',
      'Yes: run flyctl launch in the blog folder, then flyctl deploy.',
      ...filler
    ])
    session('other', 'Groceries', ['Remind me to buy oat milk', 'Added oat milk to the list.'])
    const question = 'how did we deploy the blog to fly last time?'
    const implicitAnd = db.prepare('SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH ?').get(question.replace(/[?]/g, '')) as { n: number }
    expect(implicitAnd.n).toBe(0)
    const result = searchSessions(db, question)
    expect(result.query).toBe('"deploy" OR "blog" OR "fly" OR "last" OR "time"')
    expect(result.sessions[0].sessionId).toBe('deploy')
    expect(result.sessions.map((s) => s.sessionId)).not.toContain('other')
  })

  it('ranks the session that is about the question above one that mentions it in passing', () => {
    session('passing', 'Weekly notes', [
      'Lots happened this week: the office moved, lunch was great, someone mentioned kubernetes once, and the printer broke again.',
      ...filler,
      'The printer is still broken.'
    ])
    session('focused', 'Ingress setup', [
      'The kubernetes ingress controller returns 404 for every host.',
      'Check the ingress class: your ingress resource needs ingressClassName: nginx.',
      'That fixed the ingress. Kubernetes routes the host now.',
      ...filler
    ])
    session('unrelated', 'Recipes', ['How long do I boil an egg?', 'About nine minutes for hard-boiled.'])
    const result = searchSessions(db, 'kubernetes ingress controller setup', { limit: 5 })
    expect(result.sessions.map((s) => s.sessionId)).toEqual(['focused', 'passing'])
    expect(result.sessions[0].score).toBeGreaterThan(result.sessions[1].score)
  })

  it('groups hits by session and returns a marked snippet and a window around the best hit', () => {
    const ids = session('long', 'Postgres tuning', [
      'hello',
      'Postgres is slow on the reports page.',
      'Look at the postgres query plan with EXPLAIN ANALYZE.',
      'The plan shows a sequential scan on orders.',
      'Add an index on orders.customer_id.',
      'Postgres is fast now, thanks!',
      'Great.',
      'One more thing later.'
    ])
    const result = searchSessions(db, 'postgres query plan', { window: 1 })
    expect(result.sessions).toHaveLength(1)
    const hit = result.sessions[0]
    expect(hit.matchMessageId).toBe(ids[2])
    // The snippet marks the rarest terms ("postgres" is in three of eight messages, "query" in one).
    expect(hit.snippet).toContain('>>>query<<<')
    expect(hit.snippet).toContain('>>>plan<<<')
    expect(hit.messages.map((m) => m.id)).toEqual([ids[1], ids[2], ids[3]])
    expect(hit.messages.filter((m) => m.anchor).map((m) => m.id)).toEqual([ids[2]])
    expect(hit.matches.map((m) => m.messageId)).toContain(ids[5])
    expect(hit.title).toBe('Postgres tuning')

    const atStart = searchSessions(db, 'hello', { window: 2 }).sessions[0]
    expect(atStart.messages.map((m) => m.id)).toEqual([ids[0], ids[1], ids[2]])
    expect(searchSessions(db, 'postgres query plan', { window: 0 }).sessions[0].messages.map((m) => m.id)).toEqual([ids[2]])
  })

  it('searches tool output, tool names and tool-call arguments', () => {
    const ids = session('build', 'Node upgrade', [
      { role: 'user', content: 'The build broke after upgrading node.' },
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'run_command', arguments: '{"command":"npm run build --workspace=webapp"}' }] },
      {
        role: 'tool',
        toolName: 'run_command',
        toolCallId: 'c1',
        content: `${'webpack compiling...\n'.repeat(200)}Error: error:0308010C:digital envelope routines::unsupported code: ERR_OSSL_EVP_UNSUPPORTED\n${'at node:internal\n'.repeat(100)}`
      },
      { role: 'assistant', content: 'Set NODE_OPTIONS=--openssl-legacy-provider.' }
    ])
    const byOutput = searchSessions(db, 'ERR_OSSL_EVP_UNSUPPORTED').sessions[0]
    expect(byOutput.matchMessageId).toBe(ids[2])
    const anchor = byOutput.messages.find((m) => m.anchor)!
    expect(anchor.role).toBe('tool')
    expect(anchor.toolName).toBe('run_command')
    // A long tool output is cut, around the match.
    expect(anchor.content.length).toBeLessThan(2000)
    expect(anchor.content).toContain('ERR_OSSL_EVP_UNSUPPORTED')

    expect(searchSessions(db, 'which workspace did npm build').sessions[0].matchMessageId).toBe(ids[1])
    // The JSON keys and call ids of tool calls are not indexed: they would match every call ever made.
    expect(searchSessions(db, 'call id name arguments').sessions).toEqual([])
  })

  it('still finds messages that compression summarised away', () => {
    const ids = session('compressed', 'Long chat', ['The wifi password is hunter2-orange', 'Saved.', ...filler])
    store.markCompacted('compressed', ids.slice(0, 3))
    expect(searchSessions(db, 'what was the wifi password').sessions[0].matchMessageId).toBe(ids[0])
  })

  it('skips the current session by default, even when it holds most of the matches, and includes it on request', () => {
    session('current', 'Today', Array.from({ length: 400 }, (_, i) => `terraform plan attempt ${i} failed`))
    session('past', 'Last month', ['terraform plan failed with a provider error', 'Pin the provider version.'])
    const skipped = searchSessions(db, 'terraform plan failed', { currentSessionId: 'current' })
    expect(skipped.sessions.map((s) => s.sessionId)).toEqual(['past'])
    const included = searchSessions(db, 'terraform plan failed', { currentSessionId: 'current', includeCurrent: true })
    expect(included.sessions.map((s) => s.sessionId)).toContain('current')
  })

  it('finds Chinese text through the trigram index (≥ 3 characters) and LIKE (shorter words)', () => {
    session('zh-deploy', '部署', ['我们昨天讨论了服务器部署的问题', '最后决定用容器化方案'])
    session('zh-park', '散步', ['今天天气很好，我们去公园散步吧', '好的'])
    session('zh-current', '当前', ['公园的门票多少钱'])
    session('en', 'English', ['The server deployment used containers.'])

    const long = searchSessions(db, '容器化方案是什么')
    expect(long.sessions.map((s) => s.sessionId)).toEqual(['zh-deploy'])
    expect(long.sessions[0].snippet).toContain('>>>容器化方案<<<')

    const short = searchSessions(db, '公园', { currentSessionId: 'zh-current' })
    expect(short.sessions.map((s) => s.sessionId)).toEqual(['zh-park'])
    expect(short.sessions[0].snippet).toContain('>>>公园<<<')
    expect(searchSessions(db, '公园', { currentSessionId: 'zh-current', includeCurrent: true }).sessions.map((s) => s.sessionId).sort()).toEqual([
      'zh-current',
      'zh-park'
    ])

    const mixed = searchSessions(db, 'server 部署')
    expect(mixed.sessions.map((s) => s.sessionId).sort()).toEqual(['en', 'zh-deploy'])
  })

  it('clamps limit to [1, 10] and defaults to 3', () => {
    for (let i = 0; i < 12; i++) session(`s${i}`, `Session ${i}`, [`the flamingo count was ${i}`])
    expect(searchSessions(db, 'flamingo').sessions).toHaveLength(3)
    expect(searchSessions(db, 'flamingo', { limit: 999 }).sessions).toHaveLength(10)
    expect(searchSessions(db, 'flamingo', { limit: 0 }).sessions).toHaveLength(1)
    expect(searchSessions(db, 'flamingo', { limit: -4 }).sessions).toHaveLength(1)
    expect(searchSessions(db, 'flamingo', { limit: Number.NaN }).sessions).toHaveLength(3)
    const ten = searchSessions(db, 'flamingo', { limit: 10 }).sessions.map((s) => s.sessionId)
    expect(new Set(ten).size).toBe(10)
  })

  it('returns nothing, without error, for unsearchable or unmatched queries', () => {
    session('a', 'A', ['some text'])
    expect(searchSessions(db, '***')).toEqual({ query: '', sessions: [] })
    expect(searchSessions(db, '')).toEqual({ query: '', sessions: [] })
    expect(searchSessions(db, 'xylophone quartet').sessions).toEqual([])
    for (const nasty of ['C++', '"unterminated', 'NEAR(a b)', 'col:val', '(((', 'a OR', '💥']) {
      expect(() => searchSessions(db, nasty)).not.toThrow()
    }
  })
})

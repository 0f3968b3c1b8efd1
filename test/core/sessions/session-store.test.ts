import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { InvalidMessageError, SessionNotFoundError, SessionStore, newSessionId } from '../../../electron/core/sessions'

/** When set, session-id suffixes come from here instead of the system's random source. */
const suffixSource = vi.hoisted(() => ({ next: null as null | (() => Buffer) }))
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>()
  const randomBytes = (size: number) => suffixSource.next?.() ?? real.randomBytes(size)
  return { ...real, randomBytes }
})

/** Suffixes from only `values` possibilities (a seeded generator): collisions, rare by chance, happen in every run. */
function fewSuffixes(values: number, seed: number): () => Buffer {
  let state = seed
  return () => {
    // mulberry32
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    const suffix = Buffer.alloc(3)
    suffix.writeUIntBE(((t ^ (t >>> 14)) >>> 0) % values, 0, 3)
    return suffix
  }
}

let dir: string
let dbPath: string
let db: StateDb
let store: SessionStore

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-'))
  dbPath = join(dir, 'state.db')
  db = openStateDb(dbPath)
  store = new SessionStore(db)
})

afterEach(() => {
  suffixSource.next = null
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('SessionStore', () => {
  it('creates sessions with readable, time-sortable ids', () => {
    const id = newSessionId(Date.UTC(2026, 10, 29, 15, 23, 1))
    expect(id).toMatch(/^20261129-152301-[0-9a-f]{6}$/)
    const early = store.create({ startedAt: Date.UTC(2025, 0, 1) })
    const late = store.create({ startedAt: Date.UTC(2026, 0, 1) })
    expect(early.id < late.id).toBe(true)
    expect(early).toMatchObject({ title: null, source: 'cli', messageCount: 0, inputTokens: 0, state: {} })
  })

  it('creates many sessions in the same second without an id collision failing any', () => {
    const second = Date.UTC(2026, 10, 29, 15, 23, 1)
    suffixSource.next = fewSuffixes(512, 7)
    const ids = Array.from({ length: 64 }, (_, n) => store.create({ startedAt: second + n, title: `import ${n}` }).id)
    expect(new Set(ids).size).toBe(64)
    for (const id of ids) expect(id).toMatch(/^20261129-152301-[0-9a-f]{6}$/)
    expect(store.list({ limit: 100 })).toHaveLength(64)
    // An id the caller chose is never replaced by another: a taken one is refused.
    expect(() => store.create({ id: ids[0] })).toThrow(/already exists/)
  })

  it('round-trips every message field after reopening the file', () => {
    const session = store.create({ id: 's1', title: 'Deploy', source: 'desktop', model: 'gpt-x', systemPrompt: 'be brief', startedAt: 1000 })
    const calls = [{ id: 'call_1', name: 'read_file', arguments: '{"path":"fly.toml"}' }]
    store.append(session.id, { role: 'user', content: 'deploy the blog', createdAt: 2000 })
    store.append(session.id, {
      role: 'assistant',
      content: null,
      toolCalls: calls,
      promptTokens: 120,
      completionTokens: 30,
      cachedTokens: 100,
      finishReason: 'tool_calls',
      createdAt: 3000,
      meta: { step: 1 }
    })
    store.append(session.id, { role: 'tool', content: 'app = "blog"', toolCallId: 'call_1', toolName: 'read_file', createdAt: 4000 })
    db.close()
    db = openStateDb(dbPath)
    store = new SessionStore(db)

    const [user, assistant, tool] = store.messages('s1')
    expect(user).toMatchObject({ role: 'user', content: 'deploy the blog', toolCalls: null, promptTokens: null, meta: null, compacted: false })
    expect(assistant).toMatchObject({
      role: 'assistant',
      content: null,
      toolCalls: calls,
      promptTokens: 120,
      completionTokens: 30,
      cachedTokens: 100,
      finishReason: 'tool_calls',
      createdAt: 3000,
      meta: { step: 1 }
    })
    expect(tool).toMatchObject({ role: 'tool', toolCallId: 'call_1', toolName: 'read_file', sessionId: 's1' })
    expect(store.get('s1')).toMatchObject({ title: 'Deploy', source: 'desktop', model: 'gpt-x', systemPrompt: 'be brief', startedAt: 1000 })
  })

  it('append returns the stored record, identical to what a later read returns', () => {
    const session = store.create()
    const appended = store.append(session.id, { role: 'assistant', content: 'hi', toolCalls: [{ id: 'c', name: 'x', arguments: '{}' }] })
    expect(store.messages(session.id)).toEqual([appended])
    expect(store.message(appended.id)).toEqual(appended)
  })

  it('keeps message counts, token sums and last activity on the session', () => {
    const session = store.create({ startedAt: 1000 })
    store.append(session.id, { role: 'user', content: 'a', createdAt: 2000 })
    store.append(session.id, { role: 'assistant', content: 'b', promptTokens: 100, completionTokens: 20, cachedTokens: 80, createdAt: 3000 })
    store.appendMany(session.id, [
      { role: 'assistant', content: 'c', promptTokens: 150, completionTokens: 10, createdAt: 4000 },
      { role: 'tool', content: 'd', createdAt: 3500 }
    ])
    expect(store.get(session.id)).toMatchObject({ messageCount: 4, inputTokens: 250, outputTokens: 30, cachedTokens: 80, updatedAt: 4000 })
  })

  it('lists sessions by most recent activity, filtered by source, and finds the latest', () => {
    const a = store.create({ id: 'a', source: 'cli', startedAt: 1000 })
    const b = store.create({ id: 'b', source: 'desktop', startedAt: 2000 })
    store.create({ id: 'c', source: 'cli', startedAt: 3000 })
    store.append(a.id, { role: 'user', content: 'later activity', createdAt: 5000 })
    expect(store.list().map((s) => s.id)).toEqual(['a', 'c', 'b'])
    expect(store.list({ source: 'cli' }).map((s) => s.id)).toEqual(['a', 'c'])
    expect(store.list({ limit: 1, cursor: store.listPage({ limit: 1 }).nextCursor! }).map((s) => s.id)).toEqual(['c'])
    expect(store.latest()?.id).toBe('a')
    expect(b.id).toBe('b')
  })

  it('pages messages forward and hides compacted ones unless asked', () => {
    const session = store.create()
    const ids = store.appendMany(session.id, ['one', 'two', 'three', 'four'].map((content) => ({ role: 'user' as const, content }))).map((m) => m.id)
    store.markCompacted(session.id, [ids[0], ids[1]])
    expect(store.messages(session.id).map((m) => m.content)).toEqual(['three', 'four'])
    const all = store.messages(session.id, { includeCompacted: true })
    expect(all.map((m) => [m.content, m.compacted])).toEqual([
      ['one', true],
      ['two', true],
      ['three', false],
      ['four', false]
    ])
    expect(store.messages(session.id, { afterId: ids[2], includeCompacted: true }).map((m) => m.content)).toEqual(['four'])
    expect(store.messages(session.id, { limit: 1, includeCompacted: true }).map((m) => m.content)).toEqual(['one'])
  })

  it('updates title, model, prompt and state', () => {
    const session = store.create({ startedAt: 1 })
    const updated = store.update(session.id, { title: 'Fix CI', model: 'm2', systemPrompt: 'p', state: { turns: 3 } })
    expect(updated).toMatchObject({ title: 'Fix CI', model: 'm2', systemPrompt: 'p', state: { turns: 3 } })
    expect(updated.updatedAt).toBeGreaterThan(1)
    expect(store.update(session.id, { title: null }).title).toBeNull()
  })

  it('deletes a session with its messages and leaves child sessions unparented', () => {
    const parent = store.create({ id: 'parent' })
    const child = store.create({ id: 'child', parentSessionId: parent.id })
    store.append(parent.id, { role: 'user', content: 'remove me' })
    store.delete(parent.id)
    expect(store.get(parent.id)).toBeNull()
    expect(store.messages(parent.id, { includeCompacted: true })).toEqual([])
    expect(store.get(child.id)?.parentSessionId).toBeNull()
    expect(db.prepare("SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'remove'").get()).toEqual({ n: 0 })
  })

  it('refuses bad input with messages that say what to do, and writes nothing', () => {
    const session = store.create()
    expect(() => store.append('missing', { role: 'user', content: 'x' })).toThrow(SessionNotFoundError)
    expect(() => store.append('missing', { role: 'user', content: 'x' })).toThrow(/does not exist/)
    expect(() => store.append(session.id, { role: 'robot' as never, content: 'x' })).toThrow(InvalidMessageError)
    expect(() => store.append(session.id, { role: 'assistant', promptTokens: -1 })).toThrow(/whole numbers/)
    expect(() => store.append(session.id, { role: 'assistant', toolCalls: [{ id: 1 } as never] })).toThrow(/tool call/)
    // A bad message in a batch rolls back the good ones before it.
    expect(() =>
      store.appendMany(session.id, [
        { role: 'user', content: 'kept?' },
        { role: 'nobody' as never, content: 'bad' }
      ])
    ).toThrow(InvalidMessageError)
    expect(store.messages(session.id)).toEqual([])
    expect(store.get(session.id)?.messageCount).toBe(0)
    expect(() => store.update('missing', { title: 't' })).toThrow(SessionNotFoundError)
    expect(() => store.delete('missing')).toThrow(SessionNotFoundError)
    expect(() => store.create({ id: session.id })).toThrow(/already exists/)
    expect(() => store.create({ parentSessionId: 'missing' })).toThrow(SessionNotFoundError)
  })
})

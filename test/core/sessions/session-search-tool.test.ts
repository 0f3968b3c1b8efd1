import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { SessionStore, createSessionSearchTool } from '../../../electron/core/sessions'
import { newTurnState, type ToolContext } from '../../../electron/core/tools/types'

let dir: string
let db: StateDb
let store: SessionStore
let current: string | null
const ctx: ToolContext = { write: { source: 'agent' }, turn: newTurnState() }

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-'))
  db = openStateDb(join(dir, 'state.db'))
  store = new SessionStore(db)
  current = null
})

afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

type Result = any

function call(args: Record<string, unknown>): Result {
  const tool = createSessionSearchTool(db, () => current)
  return tool.run(tool.schema.parse(args), ctx) as Result
}

function seed(id: string, title: string, contents: string[], startedAt: number): number[] {
  store.create({ id, title, startedAt })
  return store
    .appendMany(id, contents.map((content, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content, createdAt: startedAt + i })))
    .map((m) => m.id)
}

function seedModpacks(): void {
  seed('s_old', 'Modpack setup', ['Install the modpack with the launcher', 'Done, the modpack runs.'], 1000)
  seed('s_mid', 'Modpack crash', ['The modpack crashes on load', 'Remove the shader mod from the modpack.'], 2000)
  seed('s_new', 'Modpack memory', ['Give the modpack more memory', 'Set -Xmx8G for the modpack.'], 3000)
  seed('s_now', 'Current chat', ['modpack talk right now'], 4000)
  current = 's_now'
}

describe('session_search tool', () => {
  it('teaches natural-language use and warns that history is not proof of current state', () => {
    const tool = createSessionSearchTool(db, () => null)
    expect(tool.name).toBe('session_search')
    expect(tool.description).toMatch(/plain language/)
    expect(tool.description).toMatch(/No search syntax is needed/)
    expect(tool.description).toMatch(/not proof/)
    expect(tool.description).toMatch(/include_current/)
    const schema = z.toJSONSchema(tool.schema, { io: 'input' }) as { properties: Record<string, unknown> }
    expect(Object.keys(schema.properties).sort()).toEqual(['around_message_id', 'include_current', 'limit', 'query', 'session_id', 'summarize', 'window'])
  })

  it('search: sessions with when, anchor window and snippet, the current session left out', () => {
    seedModpacks()
    const result = call({ query: 'why does my modpack crash?' })
    expect(result).toMatchObject({ success: true, mode: 'search' })
    expect(result.sessions[0]).toMatchObject({ session_id: 's_mid', title: 'Modpack crash', when: new Date(2000).toISOString() })
    const first = result.sessions[0]
    expect(first.snippet).toContain('>>>')
    expect(first.messages.some((m: Result) => m.anchor && m.id === first.match_message_id)).toBe(true)
    expect(result.sessions.map((s: Result) => s.session_id)).not.toContain('s_now')
    expect(call({ query: 'modpack talk right now', include_current: true }).sessions[0].session_id).toBe('s_now')
  })

  it('search: says how to widen a search that found nothing', () => {
    seedModpacks()
    const result = call({ query: 'xylophone' })
    expect(result).toMatchObject({ success: true, count: 0, sessions: [] })
    expect(result.note).toMatch(/include_current: true/)
    expect(call({ query: '***' })).toMatchObject({ success: false, error: expect.stringMatching(/no searchable words/) })
  })

  it('search: clamps limit', () => {
    seedModpacks()
    expect(call({ query: 'modpack', limit: 999 }).sessions.length).toBeLessThanOrEqual(10)
    expect(call({ query: 'modpack', limit: 0 }).sessions).toHaveLength(1)
    expect(call({ query: 'modpack' }).sessions).toHaveLength(3)
  })

  it('browse: no query lists recent sessions with titles and previews, skipping the current one', () => {
    seedModpacks()
    const result = call({})
    expect(result).toMatchObject({ success: true, mode: 'recent' })
    expect(result.sessions.map((s: Result) => s.session_id)).toEqual(['s_new', 's_mid', 's_old'])
    expect(result.sessions[0]).toMatchObject({ title: 'Modpack memory', preview: 'Give the modpack more memory', message_count: 2 })
    expect(call({ query: '   ' }).mode).toBe('recent')
    expect(call({ include_current: true }).sessions[0].session_id).toBe('s_now')
  })

  it('read: a short session whole, a long one as its first 20 and last 10 messages', () => {
    seed('short', 'Short', ['a', 'b', 'c', 'd', 'e'], 1)
    const ids = seed('long', 'Long', Array.from({ length: 50 }, (_, i) => `line ${i}`), 2)
    const short = call({ session_id: 'short' })
    expect(short).toMatchObject({ success: true, mode: 'read', truncated: false })
    expect(short.messages).toHaveLength(5)
    const long = call({ session_id: 'long', query: 'ignored when reading' })
    expect(long.truncated).toBe(true)
    expect(long.messages.map((m: Result) => m.id)).toEqual([...ids.slice(0, 20), ...ids.slice(40)])
    expect(long.note).toMatch(/20 middle messages omitted/)
    // Messages kept as another version are not part of what is read, nor counted as left out.
    store.forkAfter('short', store.messages('short')[2].id)
    expect(call({ session_id: 'short' })).toMatchObject({ truncated: false, messages: [{ content: 'a' }, { content: 'b' }, { content: 'c' }] })
    expect(call({ session_id: 'nope' })).toMatchObject({ success: false, error: expect.stringMatching(/does not exist.*list recent sessions/) })
  })

  it('scroll: a window around a message, clamped to [1, 20], beating a query', () => {
    const ids = seed('chat', 'Chat', Array.from({ length: 60 }, (_, i) => `message ${i}`), 1)
    const around = call({ session_id: 'chat', around_message_id: ids[30], query: 'anything' })
    expect(around).toMatchObject({ success: true, mode: 'scroll', around_message_id: ids[30], more_before: true, more_after: true })
    expect(around.messages.map((m: Result) => m.id)).toEqual(ids.slice(25, 36))
    expect(around.messages.filter((m: Result) => m.anchor).map((m: Result) => m.id)).toEqual([ids[30]])
    expect(call({ session_id: 'chat', around_message_id: ids[30], window: 100 }).messages).toHaveLength(41)
    expect(call({ session_id: 'chat', around_message_id: ids[30], window: 0 }).messages).toHaveLength(3)
    // Scrolling on from the last message shown overlaps by that one message.
    const next = call({ session_id: 'chat', around_message_id: ids[35], window: 5 })
    expect(next.messages[0].id).toBe(ids[30])
    const end = call({ session_id: 'chat', around_message_id: ids[59], window: 3 })
    expect(end.more_after).toBe(false)
  })

  it('scroll: explains a message id from another session or a missing session', () => {
    const a = seed('a', 'A', ['one', 'two'], 1)
    seed('b', 'B', ['three'], 2)
    expect(call({ session_id: 'b', around_message_id: a[0] })).toMatchObject({ success: false, error: expect.stringMatching(/not in session "b"/) })
    expect(call({ session_id: 'zzz', around_message_id: a[0] })).toMatchObject({ success: false, error: expect.stringMatching(/does not exist/) })
  })
})

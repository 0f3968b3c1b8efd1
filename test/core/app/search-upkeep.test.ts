import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { configSchema } from '../../../shared/config'
import type { SearchUpkeep as SearchUpkeepInfo } from '../../../shared/ipc/contract-search'
import type { AppEvent } from '../../../electron/core/app/app-context'
import { SearchUpkeep } from '../../../electron/core/app/search-upkeep'
import { SemanticFilling } from '../../../electron/core/app/semantic-filling'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { EventBus } from '../../../electron/core/events/event-bus'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { BACKLOG, writeSchema13 } from '../db/schema-13-history'
import { say, TestClock } from '../learning/host/desktop-chat'

let fx: AppFixture | undefined
const cleanup: Array<() => unknown> = []
afterEach(async () => {
  await fx?.close()
  fx = undefined
  for (const step of cleanup.splice(0).reverse()) await step()
})

/** The app's word pass over a history from before migration 14, with the chat's idleness in the test's hands. */
function upkeepOnOldHistory(): { upkeep: SearchUpkeep; db: StateDb; events: EventBus<AppEvent>; seen: SearchUpkeepInfo[]; idle: { now: boolean } } {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-upkeep-'))
  writeSchema13(join(dir, 'state.db'))
  const db = openStateDb(join(dir, 'state.db'))
  const events = new EventBus<AppEvent>()
  const clock = new TestClock()
  const idle = { now: false }
  const config = () => configSchema.parse({})
  const deps = { db, config, chatProvider: () => ({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', apiKey: null }) as never, env: {}, isIdle: () => idle.now, events, clock }
  const meaning = new SemanticFilling(deps)
  const seen: SearchUpkeepInfo[] = []
  const upkeep = new SearchUpkeep({ ...deps, meaning, wordBatchSize: 2, changed: (status) => seen.push(status) })
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }), () => db.close(), () => meaning.close(), () => upkeep.close())
  return { upkeep, db, events, seen, idle }
}

describe('the word pass in the app', () => {
  it('waits while a chat runs, then indexes older messages between turns, announcing progress', async () => {
    const { upkeep, events, seen, idle } = upkeepOnOldHistory()
    await upkeep.settled()
    expect(upkeep.status().words).toEqual({ backlog: { done: 0, total: BACKLOG }, running: false })

    idle.now = true
    events.emit({ name: 'chat.status', payload: { sessionId: 's', running: false } })
    expect(upkeep.status().words.running).toBe(true)
    await upkeep.settled()
    expect(upkeep.status().words).toEqual({ backlog: null, running: false })
    expect(seen[0].words).toEqual({ backlog: { done: 0, total: BACKLOG }, running: true })
    expect(seen.at(-1)?.words).toEqual({ backlog: null, running: false })
  })

  it('stops after the batch in flight when a chat starts, and goes on once it ends', async () => {
    const { upkeep, events, idle } = upkeepOnOldHistory()
    idle.now = true
    events.emit({ name: 'chat.status', payload: { sessionId: 's', running: false } })
    // The first batch is written in the first turn of the event loop; a chat starts right after.
    await new Promise((resolve) => setImmediate(resolve))
    idle.now = false
    await upkeep.settled()
    const paused = upkeep.status().words
    expect(paused.running).toBe(false)
    expect(paused.backlog?.done).toBeGreaterThan(0)
    expect(paused.backlog?.done).toBeLessThan(BACKLOG)

    idle.now = true
    events.emit({ name: 'chat.status', payload: { sessionId: 's', running: false } })
    await upkeep.settled()
    expect(upkeep.status().words.backlog).toBeNull()
  })
})

describe('Settings → Search routes', () => {
  it('"Fill now" during a chat says the fill waits for it, and the fill starts once the chat ends', async () => {
    const { db, events, idle } = upkeepOnOldHistory()
    const clock = new TestClock()
    const config = () => configSchema.parse({ search: { embeddingModel: 'embed-a' } })
    // Nothing listens on port 9: the fill that starts fails at once, which is all this needs.
    const meaning = new SemanticFilling({ db, config, chatProvider: () => ({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', apiKey: null, maxRetries: 0, requestTimeoutMs: 1000 }) as never, env: {}, isIdle: () => idle.now, events, clock })
    cleanup.push(() => meaning.close())
    meaning.fillNow()
    expect(meaning.waiting()).toBe(true)
    expect(meaning.status().running).toBe(false)
    idle.now = true
    events.emit({ name: 'chat.status', payload: { sessionId: 's', running: false } })
    expect(meaning.waiting()).toBe(false)
    expect(meaning.status().running).toBe(true)
    await meaning.settled()
  })

  it('says search by meaning is off, fills nothing when asked, and has no word backlog on a new home', async () => {
    fx = await appFixture()
    const status = await fx.ok('search.status')
    expect(status.words).toEqual({ backlog: null, running: false })
    expect(status.meaning).toMatchObject({ state: 'off', settings: { model: '', baseURL: '', dimensions: 0 }, endpoint: '', filling: false, paused: false, waiting: false, index: null, lastError: null })
    expect((await fx.ok('search.fillMeaning')).meaning).toMatchObject({ state: 'off', filling: false })
    await fx.app.meaning.settled()
    expect(fx.server.requests).toEqual([])
    const invalid = await fx.call('search.status', { extra: true } as never)
    expect(invalid).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
  })

  it('shows the index after a turn, pauses the backfill until "Fill now", and words a failure by its code', async () => {
    fx = await appFixture({ config: { search: { embeddingModel: 'embed-a' } } })
    await fx.ok('search.status')
    fx.server.enqueue({ text: 'Water them less.' })
    const sessionId = await say(fx, null, 'my tomato plants have yellow leaves')
    await fx.app.meaning.settled()
    const ready = await fx.ok('search.status')
    expect(ready.meaning).toMatchObject({ state: 'ready', index: { model: 'embed-a', embedded: 2 }, filling: false, progress: { done: 2, total: 2 } })
    expect(ready.meaning.endpoint).toBe(fx.server.url)

    expect((await fx.ok('search.pauseMeaning')).meaning.paused).toBe(true)
    fx.server.enqueue({ text: 'Yes.' })
    await say(fx, sessionId, 'and the basil?')
    await fx.app.meaning.settled()
    expect((await fx.ok('search.status')).meaning.index?.embedded).toBe(2)

    fx.server.failEmbeddings({ status: 401 })
    const resumed = await fx.ok('search.fillMeaning')
    expect(resumed.meaning.paused).toBe(false)
    await fx.app.meaning.settled()
    const failed = await fx.ok('search.status')
    expect(failed.meaning.lastError).toMatchObject({ code: 'auth', status: 401 })
    expect(fx.events.some((e) => e.name === 'search.changed' && (e.payload as SearchUpkeepInfo).meaning.lastError?.code === 'auth')).toBe(true)
  })
})

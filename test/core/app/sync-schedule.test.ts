import { afterEach, describe, expect, it } from 'vitest'
import type { SyncStatus } from '../../../shared/ipc/contract-sync'
import type { LedgerEntry } from '../../../shared/ledger'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { say, TestClock } from '../learning/host/desktop-chat'
import { syncWorld, type SyncWorld } from '../sync/sync-devices'

const TOKEN = 'tok-laptop-and-desktop'
let fx: AppFixture | null = null
let world: SyncWorld | null = null
afterEach(async () => {
  await fx?.close()
  await world?.close()
  fx = world = null
})

/** The desktop app, set up to sync with the world's repository (the token in CAIRN_SYNC_TOKEN unless given). */
async function desktopApp(options: { everyMinutes?: number; token?: string | null; clock?: TestClock } = {}): Promise<AppFixture> {
  const token = options.token === undefined ? TOKEN : options.token
  return appFixture({
    app: options.clock ? { clock: options.clock } : undefined,
    config: { sync: { remote: world!.remote, deviceName: 'desktop', everyMinutes: options.everyMinutes ?? 15 } },
    env: token ? { CAIRN_SYNC_TOKEN: token } : {}
  })
}

const synced = (count: number) => (status: SyncStatus) => !status.running && status.lastSync !== null && fx!.events.filter((e) => e.name === 'sync.changed' && !(e.payload as SyncStatus).running).length >= count
const syncRows = (app: AppFixture): LedgerEntry[] =>
  app.events.filter((e) => e.name === 'ledger.changed').map((e) => (e.payload as { entry: LedgerEntry }).entry).filter((entry) => entry.source === 'sync')

describe("the app's syncs", () => {
  it('syncs at start without holding the window up, then every everyMinutes on the clock, with the token it keeps', async () => {
    world = await syncWorld({ token: TOKEN })
    const laptop = await world.device('laptop')
    await laptop.core.memory.add('memory', 'The user deploys with fly.io.', { write: { source: 'agent' } })
    await laptop.sync()

    const clock = new TestClock()
    fx = await desktopApp({ clock })
    // The constructor returned before any sync ran: the first one starts after it.
    expect(fx.events.filter((e) => e.name === 'sync.changed')).toEqual([])
    const first = await fx.waitFor('sync.changed', synced(1), 30_000)
    expect(first).toMatchObject({ remote: world.remote, deviceName: 'desktop', hasToken: true, lastError: null, lastSync: { received: 1, devices: ['laptop'] } })
    expect(fx.core.memory.read('memory').entries).toContain('The user deploys with fly.io.')
    // The renderer hears of it: the timeline's row names the device, and memory is told to reload.
    expect(syncRows(fx)).toMatchObject([{ kind: 'memory.add', after: 'The user deploys with fly.io.', reviewId: `sync:${clock.at}`, meta: { device: 'laptop' } }])
    expect(fx.events.some((e) => e.name === 'memory.changed')).toBe(true)
    expect(fx.events.filter((e) => e.name === 'sync.changed').map((e) => (e.payload as SyncStatus).phase)).toContain('fetching')

    await laptop.core.memory.add('memory', 'Staging runs on port 8443.', { write: { source: 'agent' } })
    await laptop.sync()
    clock.pass(10)
    expect(fx.app.syncs.status().running).toBe(false)
    clock.pass(5)
    expect(fx.app.syncs.status().running).toBe(true)
    await fx.waitFor('sync.changed', synced(2), 30_000)
    expect(fx.core.memory.read('memory').entries).toContain('Staging runs on port 8443.')

    // Off the timer: minutes pass, no sync starts.
    await fx.ok('sync.setSchedule', { everyMinutes: 0 })
    clock.pass(60)
    expect(fx.app.syncs.status()).toMatchObject({ running: false, everyMinutes: 0 })
  })

  it('sends what a review learned as soon as the review has finished', async () => {
    world = await syncWorld({ token: TOKEN })
    const laptop = await world.device('laptop')
    fx = await desktopApp({ everyMinutes: 0 })
    await fx.waitFor('sync.changed', synced(1), 30_000)

    const session = fx.core.sessions.create({ source: 'cli', model: 'scripted' })
    fx.core.sessions.append(session.id, { role: 'user', content: 'I prefer tabs over spaces.' })
    fx.server.enqueue({ toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'User prefers tabs over spaces' } }] }, { text: 'Saved.' })
    await fx.ok('learning.reviewNow', { sessionId: session.id })
    const after = await fx.waitFor('sync.changed', (status) => !status.running && (status.lastSync?.sent ?? 0) > 0, 30_000)
    expect(after.lastSync?.outcome).toBe('pushed')

    await laptop.sync()
    expect(laptop.core.memory.read('user').entries).toContain('User prefers tabs over spaces')
  })

  it('records a refused token as the problem, syncs once the token is changed, and joins asks while one runs', async () => {
    world = await syncWorld({ token: TOKEN })
    fx = await desktopApp({ token: 'tok-wrong', everyMinutes: 0 })
    const failed = await fx.waitFor('sync.changed', (status) => !status.running && status.lastError !== null, 30_000)
    expect(failed).toMatchObject({ lastSync: null, lastError: { code: 'unauthorized' } })

    // Two asks while one runs are one sync; a review that wrote meanwhile gets one more sync after it.
    await fx.ok('sync.setToken', { token: TOKEN })
    const started = () => fx!.events.filter((e) => e.name === 'sync.changed' && (e.payload as SyncStatus).running && (e.payload as SyncStatus).phase === null).length
    expect(started()).toBe(1)
    const [one, two] = await Promise.all([fx.ok('sync.run'), fx.ok('sync.run')])
    expect(one.lastSync?.at).toBe(two.lastSync?.at)
    expect(started()).toBe(2)
    expect(one).toMatchObject({ hasToken: true, lastSync: { outcome: 'up_to_date' } })
    await Promise.all([fx.ok('sync.run'), fx.app.syncs.syncIfSetUp({ includeLatest: true })])
    expect(started()).toBe(4)
  })

  it("leaves the memory frozen into a running conversation's prompt as it was; the next conversation sees what came in", async () => {
    world = await syncWorld({ token: TOKEN })
    const laptop = await world.device('laptop')
    fx = await desktopApp({ everyMinutes: 0 })
    await fx.waitFor('sync.changed', synced(1), 30_000)
    fx.server.enqueue({ text: 'Hello.' }, { text: 'Still here.' }, { text: 'New chat.' })
    const sessionId = await say(fx, null, 'Hi')

    await laptop.core.memory.add('memory', 'The user deploys with fly.io.', { write: { source: 'agent' } })
    await laptop.sync()
    expect((await fx.ok('sync.run')).lastSync?.received).toBe(1)
    await say(fx, sessionId, 'And now?')
    await say(fx, null, 'A new conversation')

    const systemPrompts = fx.server.chatRequests().map((request) => (request.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'system')?.content ?? '')
    expect(systemPrompts).toHaveLength(3)
    expect(systemPrompts[1]).toBe(systemPrompts[0])
    expect(systemPrompts[0]).not.toContain('fly.io')
    expect(systemPrompts[2]).toContain('The user deploys with fly.io.')
  })
})

describe('Settings → Data: setting sync up', () => {
  it('refuses bad input before anything changes', async () => {
    fx = await appFixture()
    const refused = [
      { remote: 'git@github.com:me/notes.git' },
      { remote: 'ftp://example.com/notes.git' },
      { remote: 'https://example.com/notes.git', deviceName: 'lap\0top' },
      { remote: 'https://example.com/notes.git', token: 'two words' },
      { remote: `https://example.com/${'a'.repeat(2100)}` }
    ]
    for (const input of refused) {
      const result = await fx.call('sync.setup', input)
      expect(result.ok, JSON.stringify(input).slice(0, 80)).toBe(false)
      if (!result.ok) expect(result.error.code).toBe('VALIDATION_FAILED')
    }
    expect(await fx.call('sync.setSchedule', { everyMinutes: -5 })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect(fx.core.config.get().sync.remote).toBe('')
    expect(await fx.ok('sync.status')).toMatchObject({ remote: '', hasToken: false, running: false, lastSync: null })
  })

  it('keeps the token only after the first sync succeeded, and leaving deletes nothing', async () => {
    world = await syncWorld({ token: TOKEN })
    fx = await appFixture()
    await fx.core.memory.add('memory', 'The user deploys with fly.io.', { write: { source: 'agent' } })

    const wrong = await fx.ok('sync.setup', { remote: world.remote, token: 'tok-wrong', deviceName: 'desktop' })
    expect(wrong).toMatchObject({ ok: false, code: 'unauthorized', status: { remote: '', hasToken: false } })
    // The cause travels keyed, for the form to word in the user's language.
    expect(wrong).toMatchObject({ key: 'sync.unauthorized', params: { url: world.remote } })
    expect(fx.core.config.get().sync).toMatchObject({ remote: '', deviceName: '' })

    const right = await fx.ok('sync.setup', { remote: world.remote, token: TOKEN, deviceName: 'desktop' })
    expect(right).toMatchObject({ ok: true, status: { remote: world.remote, deviceName: 'desktop', hasToken: true, lastSync: { outcome: 'pushed' } } })
    const laptop = await world.device('laptop')
    await laptop.sync()
    expect(laptop.core.memory.read('memory').entries).toContain('The user deploys with fly.io.')

    const left = await fx.ok('sync.leave')
    expect(left).toMatchObject({ remote: '', hasToken: false })
    expect(fx.core.memory.read('memory').entries).toContain('The user deploys with fly.io.')
  })
})

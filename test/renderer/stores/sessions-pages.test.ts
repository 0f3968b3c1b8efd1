import { describe, expect, it } from 'vitest'
import type { SessionSummary } from '../../../shared/ipc/domain'
import { createClient } from '../../../renderer/src/ipc/client'
import { preloadTransport } from '../../../renderer/src/ipc/transport'
import { createSessionsStore } from '../../../renderer/src/stores/sessions'
import { conversationsPage, FakeBridge, FakeFailure } from '../helpers/fake-transport'
import { NOW, session } from '../helpers/fixtures'

/** `count` conversations a minute apart, newest first (c0 is the newest), as a fake main keeps them. */
function fakeMain(count: number) {
  const all: SessionSummary[] = Array.from({ length: count }, (_, i) => session(`c${i}`, `Chat ${i}`, NOW - i * 60_000))
  const bridge = new FakeBridge({
    'sessions.list': (input) => conversationsPage(all, input),
    'sessions.get': ({ sessionId }) => {
      const found = all.find((s) => s.id === sessionId)
      if (!found) throw new FakeFailure('NOT_FOUND', `There is no conversation ${sessionId}.`)
      return { session: found, messages: [], running: false, page: { hasOlder: false } }
    }
  })
  const store = createSessionsStore(createClient(preloadTransport(bridge)))
  const change = (id: string, patch: Partial<SessionSummary>) => {
    const at = all.findIndex((s) => s.id === id)
    all[at] = { ...all[at], ...patch }
  }
  return { all, bridge, store, change }
}

const ids = (rows: SessionSummary[]) => rows.map((s) => s.id)

describe('the sidebar store pages the conversations list', () => {
  it('loads the first page, then appends the next pages until there are no more', async () => {
    const { store, bridge } = fakeMain(250)
    await store.getState().load()
    expect(store.getState().list).toHaveLength(100)
    expect(store.getState().pages.nextCursor).not.toBeNull()
    await store.getState().loadMore()
    await store.getState().loadMore()
    expect(ids(store.getState().list)).toEqual(Array.from({ length: 250 }, (_, i) => `c${i}`))
    expect(store.getState().pages.nextCursor).toBeNull()
    await store.getState().loadMore()
    expect(bridge.callsTo('sessions.list').filter((input) => !(input as { archived?: boolean }).archived)).toHaveLength(3)
  })

  it('merges a change into the loaded pages: new activity brings a row not loaded yet to the front, the rest stay loaded once', async () => {
    const { store, change, bridge } = fakeMain(450)
    await store.getState().load()
    await store.getState().loadMore()
    await store.getState().loadMore()
    expect(store.getState().list).toHaveLength(300)
    const cursor = store.getState().pages.nextCursor
    change('c350', { updatedAt: NOW + 60_000, title: 'Back to this one' })
    await store.getState().load(['c350'])
    const list = store.getState().list
    expect(list[0]).toMatchObject({ id: 'c350', title: 'Back to this one' })
    expect(list).toHaveLength(301)
    expect(new Set(ids(list)).size).toBe(301)
    expect(store.getState().pages.nextCursor).toBe(cursor)
    // Loading on from the kept cursor neither repeats nor skips a row.
    await store.getState().loadMore()
    expect(ids(store.getState().list).slice(300, 302)).toEqual(['c299', 'c300'])
    expect(store.getState().list).toHaveLength(401)
    expect(new Set(ids(store.getState().list)).size).toBe(401)
    // Each reload asked for one page, not for every page loaded so far.
    expect(bridge.callsTo('sessions.list').every((input) => (input as { limit: number }).limit <= 100)).toBe(true)
  })

  it('updates a conversation changed past the first page in place, and drops one deleted there', async () => {
    const { store, change, all } = fakeMain(250)
    await store.getState().load()
    await store.getState().loadMore()
    change('c150', { title: 'Renamed elsewhere' })
    all.splice(all.findIndex((s) => s.id === 'c170'), 1)
    await store.getState().load(['c150', 'c170'])
    const list = store.getState().list
    expect(list[150]).toMatchObject({ id: 'c150', title: 'Renamed elsewhere' })
    expect(ids(list)).not.toContain('c170')
    expect(list).toHaveLength(199)
  })

  it('keeps archived conversations apart, pages them once shown, and says whether there are any', async () => {
    const { store, change } = fakeMain(20)
    await store.getState().load()
    expect(store.getState().hasArchived).toBe(false)
    change('c3', { archived: true })
    change('c7', { archived: true })
    await store.getState().load(['c3', 'c7'])
    expect(store.getState().hasArchived).toBe(true)
    expect(ids(store.getState().list)).not.toContain('c3')
    await store.getState().showArchived(true)
    expect(ids(store.getState().archivedPages.rows)).toEqual(['c3', 'c7'])
    expect(ids(store.getState().list).slice(-2)).toEqual(['c3', 'c7'])
    await store.getState().showArchived(false)
    expect(store.getState().list).toHaveLength(18)
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

describe('the archive through the app', () => {
  it('a review worker that removes an entry retires it to the archive; the routes list, hide, search, move back and remove it', async () => {
    fx = await appFixture({ config: { learning: { mode: 'auto' } } })
    const user = { write: { source: 'user' as const } }
    await fx.core.memory.add('user', 'Drives a 2009 Volvo estate to work', user)
    await fx.core.memory.add('user', 'Prefers tabs over spaces', user)
    const session = fx.core.sessions.create({ source: 'cli', model: 'scripted' })
    fx.core.sessions.append(session.id, { role: 'user', content: 'I sold the Volvo, I cycle to work now.' })
    // A reviewer at its worst: one call per response, old_text a fragment, no read first.
    fx.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'remove', target: 'user', old_text: 'Volvo estate' } }] },
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Cycles to work' } }] },
      { text: 'Updated how they commute.' }
    )
    const { reviewId } = await fx.ok('learning.reviewNow', { sessionId: session.id })
    await fx.waitFor('review.event', (event) => event.type === 'review_finished' && event.reviewId === reviewId, 30_000)

    const listed = await fx.ok('archive.list', {})
    expect(listed).toMatchObject({ total: 1, entries: [{ text: 'Drives a 2009 Volvo estate to work', source: 'retired', target: 'user', hidden: false }] })
    const [row] = fx.core.ledger.list({ kinds: ['archive.add'] })
    expect(row).toMatchObject({ source: 'review', reviewId, meta: { archiveSource: 'retired', store: 'user' } })

    const id = listed.entries[0].id
    const found = await fx.ok('memory.search', { query: 'volvo' })
    expect(found.archive.map((entry) => entry.id)).toEqual([id])
    expect((await fx.ok('memory.search', { query: 'cycles' })).core).toEqual([{ target: 'user', position: 2, text: 'Cycles to work' }])

    await fx.ok('archive.setHidden', { id, hidden: true })
    expect(fx.core.archive.search('volvo')).toEqual([])
    expect((await fx.ok('archive.list', {})).entries[0].hidden).toBe(true)
    expect(fx.events.some((event) => event.name === 'memory.changed')).toBe(true)

    expect(await fx.ok('archive.restore', { id })).toMatchObject({ success: true })
    expect(fx.core.memory.read('user').entries).toContain('Drives a 2009 Volvo estate to work')
    expect((await fx.ok('archive.list', {})).total).toBe(0)
    expect(await fx.call('archive.remove', { id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', key: 'archive.entry_missing' } })
  })

  it('refuses to move an entry back into a full store, with a keyed error', async () => {
    fx = await appFixture({ config: { memory: { userCharLimit: 100 } } })
    await fx.core.memory.add('user', 'x'.repeat(90), { write: { source: 'user' } })
    const added = fx.core.archive.add({ target: 'user', text: 'Speaks Portuguese and a little Japanese' })
    if (added.kind !== 'added') throw new Error('expected an add')
    expect(await fx.call('archive.restore', { id: added.entry.id })).toMatchObject({ ok: false, error: { code: 'CONFLICT', key: 'archive.no_room', params: { file: 'USER.md', limit: 100 } } })
    expect((await fx.ok('archive.remove', { id: added.entry.id })).ledgerId).toBeGreaterThan(0)
    expect(fx.core.archive.count()).toBe(0)
  })
})

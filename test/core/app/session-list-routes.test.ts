import { afterEach, describe, expect, it } from 'vitest'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture | undefined

afterEach(async () => {
  await fx?.close()
  fx = undefined
})

describe('sessions.list pages', () => {
  it('pages with the cursor it hands out, pinned first, archived ones apart', async () => {
    fx = await appFixture()
    const ids = Array.from({ length: 7 }, (_, i) => fx!.core.sessions.create({ title: `Chat ${i}`, source: 'desktop', startedAt: 1000 + i }).id)
    await fx.ok('sessions.setFlags', { sessionId: ids[0], pinned: true })
    await fx.ok('sessions.setFlags', { sessionId: ids[1], archived: true })

    const first = await fx.ok('sessions.list', { limit: 4 })
    expect(first.sessions.map((s) => s.id)).toEqual([ids[0], ids[6], ids[5], ids[4]])
    expect(first.nextCursor).toEqual(expect.any(String))
    const second = await fx.ok('sessions.list', { limit: 4, cursor: first.nextCursor! })
    expect(second).toEqual({ sessions: [expect.objectContaining({ id: ids[3] }), expect.objectContaining({ id: ids[2] })], nextCursor: null })
    expect(await fx.ok('sessions.list', { archived: true })).toEqual({ sessions: [expect.objectContaining({ id: ids[1], archived: true })], nextCursor: null })
  })

  it('answers a malformed cursor or an oversized page with a validation error', async () => {
    fx = await appFixture()
    expect(await fx.call('sessions.list', { cursor: 'bm90IGEgY3Vyc29y' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/cursor is malformed/) } })
    expect(await fx.call('sessions.list', { limit: 501 })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
  })
})

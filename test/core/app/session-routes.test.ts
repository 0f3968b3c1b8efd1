import { afterEach, describe, expect, it } from 'vitest'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

/** Two conversations with their last activity at fixed times, the older one first. */
async function twoConversations(app: AppFixture) {
  const older = app.core.sessions.create({ title: 'Groceries', source: 'desktop', startedAt: 1000 })
  app.core.sessions.append(older.id, { role: 'user', content: 'Milk and eggs', meta: { hint: '\n[Cairn: skills that may help: shopping]' }, createdAt: 1000 })
  const newer = app.core.sessions.create({ title: 'Taxes', source: 'desktop', startedAt: 2000 })
  app.core.sessions.append(newer.id, { role: 'user', content: 'Deadline?', createdAt: 2000 })
  return { older, newer }
}

describe('conversation routes', () => {
  it('renames without moving the conversation in the list', async () => {
    fx = await appFixture()
    const { older, newer } = await twoConversations(fx)
    const renamed = await fx.ok('sessions.rename', { sessionId: older.id, title: 'Weekly shop' })
    expect(renamed).toMatchObject({ title: 'Weekly shop', updatedAt: 1000 })
    expect((await fx.ok('sessions.list', {})).sessions.map((s) => s.id)).toEqual([newer.id, older.id])
  })

  it('pins and archives, keeping the time, and tells every window', async () => {
    fx = await appFixture()
    const { older, newer } = await twoConversations(fx)
    const pinned = await fx.ok('sessions.setFlags', { sessionId: older.id, pinned: true })
    expect(pinned).toMatchObject({ pinned: true, archived: false, updatedAt: 1000 })
    expect(fx.events).toContainEqual({ name: 'sessions.changed', payload: { sessionId: older.id } })
    await fx.ok('sessions.setFlags', { sessionId: older.id, archived: true })
    expect((await fx.ok('sessions.list', {})).sessions).toEqual([expect.objectContaining({ id: newer.id })])
    const listed = (await fx.ok('sessions.list', { archived: true })).sessions.find((s) => s.id === older.id)
    expect(listed).toMatchObject({ pinned: true, archived: true, updatedAt: 1000 })
    expect(await fx.call('sessions.setFlags', { sessionId: 'nope', pinned: true })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })

  it('exports Markdown and JSON without the skill hint, and rejects an unknown format', async () => {
    fx = await appFixture()
    const { older } = await twoConversations(fx)
    const md = await fx.ok('sessions.export', { sessionId: older.id, format: 'md' })
    expect(md).toMatchObject({ fileName: `Groceries-${older.id}.md`, mimeType: 'text/markdown' })
    expect(md.text).toContain('## You\n\nMilk and eggs')
    expect(md.text).not.toContain('[Cairn:')
    const json = await fx.ok('sessions.export', { sessionId: older.id, format: 'json' })
    expect(JSON.parse(json.text).messages).toEqual([expect.objectContaining({ role: 'user', content: 'Milk and eggs' })])
    expect(await fx.call('sessions.export', { sessionId: older.id, format: 'pdf' } as never)).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect(await fx.call('sessions.export', { sessionId: 'nope', format: 'md' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })

  it.each(['en', 'zh-CN'] as const)('exports an imported ChatGPT conversation with its answers headed "ChatGPT (o3)" (%s)', async (language) => {
    fx = await appFixture({ config: { ui: { language } } })
    const imported = fx.core.sessions.create({ title: 'Sourdough', source: 'import:chatgpt', model: null })
    fx.core.sessions.appendMany(imported.id, [
      { role: 'user', content: 'Is my starter dead?', meta: { importedFrom: 'chatgpt' } },
      { role: 'assistant', content: 'Not dead.', meta: { importedFrom: 'chatgpt', model: 'o3' } }
    ])
    const md = await fx.ok('sessions.export', { sessionId: imported.id, format: 'md' })
    expect(md.text).toContain('## ChatGPT (o3)\n\nNot dead.')
    expect(md.text).not.toContain('## Cairn')
  })
})

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnApp, type AppEvent } from '../../../electron/core/app/cairn-app'
import { CairnCore } from '../../../electron/core/cairn'
import { ConfigStore } from '../../../electron/core/config/config-store'
import { forkReviewWorker } from '../../../electron/core/learning/host/spawn-worker'
import { ProcessSecretStore } from '../../../electron/serve/process-secrets'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { skillText } from '../../helpers/skill-env'

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

describe('skill routes', () => {
  it('list items carry flags, maker and spec issues; setFlags answers the item and announces it', async () => {
    fx = await appFixture()
    await fx.core.skills.create({ name: 'rotate-logs', category: 'ops', content: skillText('rotate-logs') }, { source: 'review', reviewId: 'r1' })
    const listed = await fx.ok('skills.list')
    expect(listed.skills).toEqual([expect.objectContaining({ name: 'rotate-logs', pinned: false, disabled: false, madeBy: 'cairn', specIssues: [] })])

    const pinned = await fx.ok('skills.setFlags', { name: 'rotate-logs', pinned: true })
    expect(pinned).toMatchObject({ name: 'rotate-logs', pinned: true, disabled: false })
    const disabled = await fx.ok('skills.setFlags', { name: 'rotate-logs', disabled: true })
    expect(disabled).toMatchObject({ pinned: true, disabled: true })
    expect(fx.events.filter((e) => e.name === 'skills.changed' && (e.payload as { name: string }).name === 'rotate-logs').length).toBeGreaterThanOrEqual(2)
    expect((await fx.ok('skills.get', { name: 'rotate-logs' })).skill).toMatchObject({ pinned: true, disabled: true })

    const unknown = await fx.call('skills.setFlags', { name: 'nope', pinned: true })
    expect(unknown).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    expect(fx.core.skillFlags.get('nope')).toEqual({ pinned: false, disabled: false })
  })

  it('restore makes a skill read as an earlier version and refuses another skill’s row', async () => {
    fx = await appFixture()
    const first = skillText('rotate-logs')
    await fx.core.skills.create({ name: 'rotate-logs', content: first }, { source: 'agent' })
    await fx.core.skills.edit({ name: 'rotate-logs', content: skillText('rotate-logs', 'How to rotate-logs', '# Changed\n') }, { source: 'agent' })
    const history = await fx.ok('skills.history', { name: 'rotate-logs' })
    const restored = await fx.ok('skills.restore', { name: 'rotate-logs', ledgerId: history[1].id })
    expect(restored).toMatchObject({ ok: true, revertEntry: { kind: 'skill.edit', source: 'user', after: first } })
    expect(readFileSync(fx.core.skills.get('rotate-logs')!.path, 'utf8')).toBe(first)
    await fx.core.memory.add('user', 'Likes tea', { write: { source: 'user' } })
    const memoryRow = fx.core.ledger.list({ limit: 1 })[0].id
    expect(await fx.ok('skills.restore', { name: 'rotate-logs', ledgerId: memoryRow })).toMatchObject({ ok: false })
  })
})

describe('memory routes', () => {
  it('memory.get answers provenance and pins per entry; a pin follows the user’s replace', async () => {
    fx = await appFixture()
    await fx.core.memory.add('user', 'Uses npm', { write: { source: 'agent', sessionId: 'chat-1' } })
    expect(await fx.ok('memory.setPinned', { target: 'user', text: 'npm', pinned: true })).toEqual({ ok: true })
    let view = (await fx.ok('memory.get')).user
    expect(view.info).toEqual([expect.objectContaining({ text: 'Uses npm', pinned: true, source: 'agent', sessionId: 'chat-1' })])

    expect((await fx.ok('memory.replace', { target: 'user', oldText: 'Uses npm', content: 'Uses pnpm' })).success).toBe(true)
    view = (await fx.ok('memory.get')).user
    expect(view.info).toEqual([expect.objectContaining({ text: 'Uses pnpm', pinned: true, source: 'user' })])
    expect(view.info[0].createdAt).not.toBe(null)

    const history = await fx.ok('memory.history', { target: 'user', entry: 'Uses pnpm' })
    expect(history.map((row) => row.kind)).toEqual(['memory.replace', 'memory.add'])
    const restored = await fx.ok('memory.restore', { ledgerId: history[1].id })
    expect(restored).toMatchObject({ ok: true, revertEntry: { source: 'user', after: 'Uses npm' } })
    expect((await fx.ok('memory.get')).user.info).toEqual([expect.objectContaining({ text: 'Uses npm', pinned: true })])

    const missing = await fx.call('memory.setPinned', { target: 'user', text: 'no such entry', pinned: true })
    expect(missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })
})

describe('archiving at app start', () => {
  it('moves an unused skill Cairn made to the archive after the app is up, without holding up the constructor', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cairn-app-archive-'))
    await new ConfigStore(join(home, 'config.json')).update({ skills: { extraDirs: [] } })
    const core = await CairnCore.open({ home })
    try {
      await core.skills.create({ name: 'forgotten', content: skillText('forgotten') }, { source: 'review', reviewId: 'r1' })
      await core.skills.create({ name: 'mine', content: skillText('mine') }, { source: 'user' })
      // Both were written 120 days ago and never used since.
      const longAgo = Date.now() - 120 * 24 * 60 * 60 * 1000
      core.db.prepare('UPDATE ledger SET at = ?').run(longAgo)
      core.db.prepare('UPDATE skill_usage SET created_at = ?').run(longAgo)
      const folder = dirname(core.skills.get('forgotten')!.path)
      const env = { CAIRN_API_KEY: 'sk-test' }
      const events: AppEvent[] = []
      const archived = new Promise<void>((resolve) => {
        core.ledger.onRecord((row) => {
          if (row.kind === 'skill.delete') resolve()
        })
      })
      const app = new CairnApp({ core, spawnWorker: () => forkReviewWorker(), secrets: new ProcessSecretStore(env), platform: { mode: 'browser' }, version: 'test', env })
      app.events.on((event) => events.push(event))
      expect(existsSync(folder)).toBe(true)
      await archived
      expect(existsSync(folder)).toBe(false)
      expect(core.skills.get('mine')).not.toBeNull()
      expect(core.ledger.forSkill('forgotten')[0]).toMatchObject({ kind: 'skill.delete', source: 'review', reviewId: null })
      await app.close()
      expect(events.some((e) => e.name === 'skills.changed')).toBe(true)
    } finally {
      await core.close()
      rmSync(home, { recursive: true, force: true })
    }
  })
})

import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { skillText } from '../../helpers/skill-env'

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

describe('skills written by hand in the Skills screen', () => {
  it('creates a skill from the form, recorded as the user’s, and refuses a taken or invalid name', async () => {
    fx = await appFixture()
    const created = await fx.ok('skills.create', {
      name: 'brew-tea',
      category: 'kitchen',
      description: 'Steeping: times, temperatures # and "quotes"',
      body: '# Steps\n1. Boil water.\n'
    })
    expect(created).toEqual({ ok: true, name: 'brew-tea' })
    const item = (await fx.ok('skills.list')).skills.find((skill) => skill.name === 'brew-tea')
    expect(item).toMatchObject({ category: 'kitchen', description: 'Steeping: times, temperatures # and "quotes"', madeBy: 'user', specIssues: [] })
    expect(fx.core.ledger.list({ limit: 1 })[0]).toMatchObject({ kind: 'skill.create', source: 'user' })

    const again = await fx.ok('skills.create', { name: 'brew-tea', category: null, description: 'Another', body: '' })
    expect(again).toMatchObject({ ok: false, code: 'exists' })
    const badName = await fx.ok('skills.create', { name: 'Brew Tea!', category: null, description: 'Bad name', body: '' })
    expect(badName).toMatchObject({ ok: false, code: 'invalid' })
    expect((await fx.ok('skills.list')).skills.map((skill) => skill.name)).toEqual(['brew-tea'])
  })

  it('saves SKILL.md edited by hand as source user; invalid front matter or a newer file writes nothing', async () => {
    fx = await appFixture()
    const original = skillText('rotate-logs')
    await fx.core.skills.create({ name: 'rotate-logs', content: original }, { source: 'review', reviewId: 'r1' })
    expect((await fx.ok('skills.get', { name: 'rotate-logs' })).skill.madeBy).toBe('cairn')
    const path = fx.core.skills.get('rotate-logs')!.path

    const broken = await fx.ok('skills.saveFile', { name: 'rotate-logs', content: '---\nname: rotate-logs\n# no closing fence\n', expected: original })
    expect(broken).toMatchObject({ ok: false, code: 'invalid' })
    expect(readFileSync(path, 'utf8')).toBe(original)

    const edited = skillText('rotate-logs', 'Rotate logs weekly', '# Steps\n1. Run logrotate.\n')
    expect(await fx.ok('skills.saveFile', { name: 'rotate-logs', content: edited, expected: original })).toEqual({ ok: true, name: 'rotate-logs' })
    expect(readFileSync(path, 'utf8')).toBe(edited)
    expect(fx.core.ledger.list({ limit: 1 })[0]).toMatchObject({ kind: 'skill.edit', source: 'user', before: original, after: edited })
    expect((await fx.ok('skills.get', { name: 'rotate-logs' })).skill.madeBy).toBe('user')

    // The editor opened the old text; the file moved on meanwhile, so the save is refused.
    const stale = await fx.ok('skills.saveFile', { name: 'rotate-logs', content: skillText('rotate-logs', 'Mine'), expected: original })
    expect(stale).toMatchObject({ ok: false, code: 'changed' })
    expect(readFileSync(path, 'utf8')).toBe(edited)
  })

  it('archives a skill on delete, and the timeline revert brings it back', async () => {
    fx = await appFixture()
    await fx.core.skills.create({ name: 'rotate-logs', content: skillText('rotate-logs') }, { source: 'agent' })
    const dir = dirname(fx.core.skills.get('rotate-logs')!.path)
    expect(await fx.ok('skills.archive', { name: 'rotate-logs' })).toEqual({ ok: true, name: 'rotate-logs' })
    expect(existsSync(dir)).toBe(false)
    expect((await fx.ok('skills.list')).skills).toEqual([])
    const row = fx.core.ledger.list({ limit: 1 })[0]
    expect(row).toMatchObject({ kind: 'skill.delete', source: 'user' })
    expect(await fx.ok('skills.archive', { name: 'rotate-logs' })).toMatchObject({ ok: false, code: 'not_found' })

    expect(await fx.ok('timeline.revert', { id: row.id })).toMatchObject({ ok: true })
    expect(existsSync(dir)).toBe(true)
  })

  it('answers the folder in browser mode instead of opening it', async () => {
    fx = await appFixture()
    await fx.core.skills.create({ name: 'rotate-logs', content: skillText('rotate-logs') }, { source: 'agent' })
    const folder = dirname(fx.core.skills.get('rotate-logs')!.path)
    expect(await fx.ok('skills.openFolder', { name: 'rotate-logs' })).toEqual({ path: folder, opened: false })
    expect(await fx.call('skills.openFolder', { name: 'nope' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })
})

describe('revert anyway', () => {
  it('reverts a skill change over newer text when forced, and that revert can itself be undone', async () => {
    fx = await appFixture()
    const first = skillText('rotate-logs')
    const learned = skillText('rotate-logs', 'How to rotate-logs', '# Learned\n')
    const mine = skillText('rotate-logs', 'How to rotate-logs', '# Edited by hand\n')
    await fx.core.skills.create({ name: 'rotate-logs', content: first }, { source: 'agent' })
    await fx.core.skills.edit({ name: 'rotate-logs', content: learned }, { source: 'review', reviewId: 'r1' })
    const learnedRow = fx.core.ledger.list({ limit: 1 })[0]
    const path = fx.core.skills.get('rotate-logs')!.path
    writeFileSync(path, mine)

    const refused = await fx.ok('timeline.revert', { id: learnedRow.id })
    expect(refused).toMatchObject({ ok: false, code: 'conflict', conflict: { expected: learned, actual: mine } })
    expect(readFileSync(path, 'utf8')).toBe(mine)

    const forced = await fx.ok('timeline.revert', { id: learnedRow.id, force: true })
    expect(forced).toMatchObject({ ok: true, revertEntry: { source: 'revert', before: mine, after: first } })
    expect(readFileSync(path, 'utf8')).toBe(first)
    expect(fx.core.ledger.get(learnedRow.id)!.revertedBy).not.toBe(null)

    // Undoing the forced revert brings back the text it wrote over.
    if (!forced.ok) throw new Error('expected the forced revert to succeed')
    expect(await fx.ok('timeline.revert', { id: forced.revertEntry.id })).toMatchObject({ ok: true })
    expect(readFileSync(path, 'utf8')).toBe(mine)
  })

  it('never forces a memory change: it keeps refusing with the conflict', async () => {
    fx = await appFixture()
    await fx.core.memory.add('user', 'Likes tea', { write: { source: 'review', reviewId: 'r1' } })
    const row = fx.core.ledger.list({ limit: 1 })[0]
    await fx.core.memory.replace('user', 'Likes tea', 'Likes green tea', { write: { source: 'user' } })
    const forced = await fx.ok('timeline.revert', { id: row.id, force: true })
    expect(forced).toMatchObject({ ok: false, code: 'conflict' })
    expect((await fx.ok('memory.get')).user.info.map((entry) => entry.text)).toEqual(['Likes green tea'])
  })
})

import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ledgerEntrySchema, type LedgerEntry, type SkillDeleteMeta } from '../../../shared/ledger'
import { openStateDb } from '../../../electron/core/db/state-db'
import { ensureHome } from '../../../electron/core/config/home'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { SkillStore } from '../../../electron/core/skills'
import type { WriteContext } from '../../../shared/ledger'
import { newTurnState } from '../../../electron/core/tools/types'

const skillText = (name: string, description = `How to ${name}`, body = '# Steps\n1. Check.\n2. Apply.\n') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}`

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
})

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'cairn-'))
  const paths = ensureHome(root)
  const db = openStateDb(paths.stateDb)
  const ledger = new Ledger(db)
  const store = new SkillStore({ dataHome: root, skillsDir: paths.skillsDir, extraDirs: [], locksDir: paths.locksDir, db, recorder: ledger })
  store.load()
  cleanups.push(() => {
    db.close()
    rmSync(root, { recursive: true, force: true })
  })
  const agent: WriteContext = { source: 'agent', sessionId: 'sess-1' }
  const latest = (): LedgerEntry => ledger.list({ limit: 1 })[0]
  return { root, paths, db, ledger, store, agent, latest }
}

describe('ledger rows of skill writes', () => {
  it('records one row per write with kind, target, before/after, attribution and meta', async () => {
    const { store, agent, latest, ledger } = setup()
    await store.create({ name: 'deploy', category: 'devops', content: skillText('deploy') }, agent)
    expect(latest()).toMatchObject({
      kind: 'skill.create',
      target: 'skills/devops/deploy/SKILL.md',
      source: 'agent',
      sessionId: 'sess-1',
      before: null,
      after: skillText('deploy'),
      meta: { skill: 'deploy', category: 'devops' }
    })
    await store.patch({ name: 'deploy', old_string: 'Check.', new_string: 'Check twice.' }, agent)
    expect(latest()).toMatchObject({ kind: 'skill.patch', before: skillText('deploy'), after: skillText('deploy', undefined, '# Steps\n1. Check twice.\n2. Apply.\n') })
    await store.edit({ name: 'deploy', content: skillText('deploy', 'v2') }, agent)
    expect(latest()).toMatchObject({ kind: 'skill.edit', after: skillText('deploy', 'v2') })
    await store.writeFile({ name: 'deploy', file_path: 'references/api.md', file_content: 'v1\n' }, agent)
    expect(latest()).toMatchObject({ kind: 'skill.file_write', target: 'skills/devops/deploy/references/api.md', before: null, after: 'v1\n' })
    await store.writeFile({ name: 'deploy', file_path: 'references/api.md', file_content: 'v2\n' }, agent)
    expect(latest()).toMatchObject({ kind: 'skill.file_write', before: 'v1\n', after: 'v2\n' })
    await store.patch({ name: 'deploy', file_path: 'references/api.md', old_string: 'v2', new_string: 'v3' }, agent)
    expect(latest()).toMatchObject({ kind: 'skill.patch', target: 'skills/devops/deploy/references/api.md', before: 'v2\n', after: 'v3\n' })
    await store.removeFile({ name: 'deploy', file_path: 'references/api.md' }, agent)
    expect(latest()).toMatchObject({ kind: 'skill.file_remove', before: 'v3\n', after: null })
    const review = { write: { source: 'review' as const, reviewId: 'rev-9' }, turn: newTurnState() }
    await store.delete({ name: 'deploy' }, review)
    expect(latest()).toMatchObject({
      kind: 'skill.delete',
      source: 'review',
      reviewId: 'rev-9',
      before: skillText('deploy', 'v2'),
      after: null,
      meta: { skill: 'deploy', category: 'devops', archivePath: expect.stringMatching(/^skills\/\.archive\/deploy-/) }
    })
    expect(ledger.list({ limit: 100 })).toHaveLength(8)
  })

  it('records nothing for refused or no-op writes', async () => {
    const { store, agent, ledger } = setup()
    await store.create({ name: 'deploy', content: skillText('deploy') }, agent)
    await store.edit({ name: 'deploy', content: skillText('deploy') }, agent)
    await store.patch({ name: 'deploy', old_string: 'nowhere to be found', new_string: 'x' }, agent)
    await store.create({ name: 'deploy', content: skillText('deploy') }, agent)
    expect(ledger.list({ limit: 100 }).map((entry) => entry.kind)).toEqual(['skill.create'])
  })
})

describe('revertChange', () => {
  it('reverts a patch, an edit and a file write, recording the revert itself', async () => {
    const { store, agent, latest, paths } = setup()
    await store.create({ name: 'deploy', content: skillText('deploy') }, agent)
    await store.patch({ name: 'deploy', old_string: 'Check.', new_string: 'Check twice.' }, agent)
    const patch = latest()
    const result = await store.revertChange(patch)
    expect(result).toMatchObject({
      ok: true,
      revertEntry: { kind: 'skill.patch', source: 'revert', before: patch.after, after: patch.before, meta: { revertOf: patch.id, skill: 'deploy' } }
    })
    expect(readFileSync(join(paths.skillsDir, 'deploy/SKILL.md'), 'utf8')).toBe(skillText('deploy'))

    await store.edit({ name: 'deploy', content: skillText('deploy', 'Edited') }, agent)
    const edit = latest()
    expect(store.get('deploy')?.description).toBe('Edited')
    expect((await store.revertChange(edit)).ok).toBe(true)
    expect(store.get('deploy')?.description).toBe('How to deploy')

    await store.writeFile({ name: 'deploy', file_path: 'scripts/run.sh', file_content: 'echo 1\n' }, agent)
    const added = latest()
    expect(await store.revertChange(added)).toMatchObject({ ok: true, revertEntry: { kind: 'skill.file_remove', before: 'echo 1\n', after: null } })
    expect(existsSync(join(paths.skillsDir, 'deploy/scripts'))).toBe(false)

    await store.writeFile({ name: 'deploy', file_path: 'scripts/run.sh', file_content: 'echo 1\n' }, agent)
    await store.writeFile({ name: 'deploy', file_path: 'scripts/run.sh', file_content: 'echo 2\n' }, agent)
    expect((await store.revertChange(latest())).ok).toBe(true)
    expect(readFileSync(join(paths.skillsDir, 'deploy/scripts/run.sh'), 'utf8')).toBe('echo 1\n')
  })

  it('reverts a file removal, including a binary file', async () => {
    const { store, agent, latest, paths } = setup()
    await store.create({ name: 'deploy', content: skillText('deploy') }, agent)
    await store.writeFile({ name: 'deploy', file_path: 'references/a.md', file_content: 'A\n' }, agent)
    await store.removeFile({ name: 'deploy', file_path: 'references/a.md' }, agent)
    expect(await store.revertChange(latest())).toMatchObject({ ok: true, revertEntry: { kind: 'skill.file_write', before: null, after: 'A\n' } })
    expect(readFileSync(join(paths.skillsDir, 'deploy/references/a.md'), 'utf8')).toBe('A\n')

    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x10])
    writeFileSync(join(paths.skillsDir, 'deploy/references/logo.png'), png)
    await store.removeFile({ name: 'deploy', file_path: 'references/logo.png' }, agent)
    expect(latest().meta).toMatchObject({ encoding: 'base64' })
    expect((await store.revertChange(latest())).ok).toBe(true)
    expect(readFileSync(join(paths.skillsDir, 'deploy/references/logo.png'))).toEqual(png)
  })

  it('reverts a create by archiving the folder, and a delete by moving the archive back', async () => {
    const { store, agent, latest, paths } = setup()
    await store.create({ name: 'deploy', category: 'devops', content: skillText('deploy') }, agent)
    await store.writeFile({ name: 'deploy', file_path: 'references/a.md', file_content: 'A\n' }, agent)
    await store.delete({ name: 'deploy' }, agent)
    const deletion = latest()
    expect(store.get('deploy')).toBeNull()
    expect(await store.revertChange(deletion)).toMatchObject({ ok: true, revertEntry: { kind: 'skill.create', before: null, after: skillText('deploy') } })
    expect(store.get('deploy')).toMatchObject({ category: 'devops' })
    expect(readFileSync(join(paths.skillsDir, 'devops/deploy/references/a.md'), 'utf8')).toBe('A\n')
    expect(readdirSync(join(paths.skillsDir, '.archive'))).toEqual([])

    await store.create({ name: 'fresh', content: skillText('fresh') }, agent)
    const creation = latest()
    expect(await store.revertChange(creation)).toMatchObject({
      ok: true,
      revertEntry: { kind: 'skill.delete', before: skillText('fresh'), after: null, meta: { archivePath: expect.stringMatching(/^skills\/\.archive\/fresh-/) } }
    })
    expect(existsSync(join(paths.skillsDir, 'fresh'))).toBe(false)
    expect(store.get('fresh')).toBeNull()
  })

  it('refuses with a conflict when the target changed since the row, and a delete revert when the name is taken', async () => {
    const { store, agent, latest, paths } = setup()
    await store.create({ name: 'deploy', content: skillText('deploy') }, agent)
    await store.patch({ name: 'deploy', old_string: 'Check.', new_string: 'Check twice.' }, agent)
    const patch = latest()
    await store.patch({ name: 'deploy', old_string: 'Apply.', new_string: 'Apply now.' }, agent)
    const current = readFileSync(join(paths.skillsDir, 'deploy/SKILL.md'), 'utf8')
    const result = await store.revertChange(patch)
    expect(result).toMatchObject({ ok: false, conflict: { expected: patch.after, actual: current } })
    if (!result.ok) expect(result.error).toMatch(/has changed since timeline entry/)
    expect(readFileSync(join(paths.skillsDir, 'deploy/SKILL.md'), 'utf8')).toBe(current)

    await store.delete({ name: 'deploy' }, agent)
    const deletion = latest()
    await store.create({ name: 'deploy', category: 'again', content: skillText('deploy', 'New one') }, agent)
    const refused = await store.revertChange(deletion)
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/A skill named 'deploy' exists now/) })
    expect(store.get('deploy')?.description).toBe('New one')
  })
})

describe('ledger meta per kind', () => {
  it('gives each kind of row what it has: a delete its archive and umbrella, a restoring create its archive', async () => {
    const { store, agent, latest, ledger } = setup()
    await store.create({ name: 'umbrella', content: skillText('umbrella') }, agent)
    await store.create({ name: 'deploy', category: 'devops', content: skillText('deploy') }, agent)
    expect(latest().meta).toEqual({ skill: 'deploy', category: 'devops' })
    await store.writeFile({ name: 'deploy', file_path: 'references/a.md', file_content: 'A\n' }, agent)
    expect(latest().meta).toEqual({ skill: 'deploy', category: 'devops' })
    await store.delete({ name: 'deploy', absorbed_into: 'umbrella' }, agent)
    const deletion = latest()
    const archivePath = expect.stringMatching(/^skills\/\.archive\/deploy-/)
    expect(deletion).toMatchObject({ kind: 'skill.delete', meta: { skill: 'deploy', category: 'devops', archivePath, absorbedInto: 'umbrella' } })

    const restored = await store.revertChange(deletion)
    expect(restored).toMatchObject({ ok: true, revertEntry: { kind: 'skill.create', source: 'revert' } })
    if (!restored.ok) return
    expect(restored.revertEntry.meta).toEqual({
      skill: 'deploy',
      category: 'devops',
      revertOf: deletion.id,
      restoredFrom: (deletion.meta as SkillDeleteMeta).archivePath
    })
    for (const entry of ledger.list({ limit: 100 })) expect(ledgerEntrySchema.parse(entry)).toEqual(entry)
  })

  it('reads older or malformed rows leniently: fields of another kind dropped, a delete without an archive refused on revert', async () => {
    const { db, store, ledger } = setup()
    const insert = (kind: string, target: string, meta: object) =>
      Number(
        db
          .prepare(`INSERT INTO ledger (at, kind, target, source, before, after, meta) VALUES (?, ?, ?, 'agent', ?, NULL, ?)`)
          .run(Date.now(), kind, target, skillText('old'), JSON.stringify(meta)).lastInsertRowid
      )
    const stray = { archivePath: 'skills/.archive/x', absorbedInto: 'y', restoredFrom: 'skills/.archive/z', encoding: 'base64' }
    const patch = insert('skill.patch', 'skills/old/SKILL.md', stray)
    const create = insert('skill.create', 'skills/old/SKILL.md', { restoredFrom: null })
    const file = insert('skill.file_remove', 'skills/old/assets/logo.png', stray)
    const deletion = insert('skill.delete', 'skills/tools/old/SKILL.md', {})

    expect(ledger.get(patch)!.meta).toEqual({ skill: 'old', category: null })
    expect(ledger.get(create)!.meta).toEqual({ skill: 'old', category: null })
    expect(ledger.get(file)!.meta).toEqual({ skill: 'old', category: null, encoding: 'base64' })
    expect(ledger.get(deletion)!.meta).toEqual({ skill: 'old', category: 'tools', archivePath: null })
    for (const entry of ledger.list({ limit: 100 })) expect(ledgerEntrySchema.parse(entry)).toEqual(entry)

    expect(await store.revertChange(ledger.get(deletion)!)).toMatchObject({ ok: false, error: expect.stringMatching(/archived copy .*\(unknown\) is gone/) })
  })
})

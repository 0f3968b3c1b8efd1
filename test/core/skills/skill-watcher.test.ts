import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openStateDb } from '../../../electron/core/db/state-db'
import { ensureHome } from '../../../electron/core/config/home'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { SkillStore, type SkillChangeEvent } from '../../../electron/core/skills'

const skillText = (name: string, description = `How to ${name}`) => `---\nname: ${name}\ndescription: ${description}\n---\n# Steps\n1. Go.\n`

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!()
})

/** Resolves once `check` holds, re-checking on every store change (the watcher's timing is not asserted). */
function until(store: SkillStore, check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (check()) return resolve()
    const off = store.onChange(() => {
      if (check()) {
        off()
        resolve()
      }
    })
  })
}

async function setup(options: { watch?: boolean } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'cairn-'))
  const paths = ensureHome(root)
  const extra = join(root, 'extra')
  mkdirSync(join(extra, 'vendor'), { recursive: true })
  writeFileSync(join(extra, 'vendor/SKILL.md'), skillText('vendor'))
  mkdirSync(join(paths.skillsDir, 'ops/alpha'), { recursive: true })
  writeFileSync(join(paths.skillsDir, 'ops/alpha/SKILL.md'), skillText('alpha'))
  mkdirSync(join(paths.skillsDir, 'ops/beta'), { recursive: true })
  writeFileSync(join(paths.skillsDir, 'ops/beta/SKILL.md'), skillText('beta'))
  const db = openStateDb(paths.stateDb)
  const store = new SkillStore({ dataHome: root, skillsDir: paths.skillsDir, extraDirs: [extra], locksDir: paths.locksDir, db, recorder: new Ledger(db) })
  store.load()
  if (options.watch !== false) await store.start()
  const events: SkillChangeEvent[] = []
  store.onChange((event) => events.push(event))
  cleanups.push(async () => {
    await store.close()
    db.close()
    rmSync(root, { recursive: true, force: true })
  })
  return { root, paths, extra, store, events }
}

describe('skill watcher', () => {
  it('picks up an external edit, addition and deletion of SKILL.md files', async () => {
    const { paths, store, events } = await setup()
    writeFileSync(join(paths.skillsDir, 'ops/alpha/SKILL.md'), skillText('alpha', 'Edited in an editor'))
    await until(store, () => store.get('alpha')?.description === 'Edited in an editor')
    expect(events).toContainEqual({ name: 'alpha', path: join(paths.skillsDir, 'ops/alpha/SKILL.md'), type: 'change' })

    mkdirSync(join(paths.skillsDir, 'ops/gamma'))
    writeFileSync(join(paths.skillsDir, 'ops/gamma/SKILL.md'), skillText('gamma'))
    await until(store, () => store.get('gamma') !== null)
    expect(store.get('gamma')).toMatchObject({ category: 'ops', readOnly: false })

    rmSync(join(paths.skillsDir, 'ops/beta'), { recursive: true })
    await until(store, () => store.get('beta') === null)
    expect(store.list().map((skill) => skill.name)).toEqual(['vendor', 'alpha', 'gamma'])
  })

  it('reports a malformed edit as a diagnostic and keeps the other skills', async () => {
    const { paths, store } = await setup()
    const alpha = join(paths.skillsDir, 'ops/alpha/SKILL.md')
    writeFileSync(alpha, '---\nname: alpha\ndescription: [broken\n---\nbody\n')
    await until(store, () => store.get('alpha') === null)
    expect(store.diagnostics()).toContainEqual({ path: alpha, severity: 'skipped', reason: expect.stringMatching(/^YAML frontmatter parse error/) })
    expect(store.list().map((skill) => skill.name)).toEqual(['vendor', 'beta'])
    writeFileSync(alpha, skillText('alpha', 'Fixed'))
    await until(store, () => store.get('alpha')?.description === 'Fixed')
    expect(store.diagnostics()).toEqual([])
  })

  it('follows a skill folder renamed into place and changes in read-only roots', async () => {
    const { root, paths, extra, store } = await setup()
    const staging = join(root, 'staging')
    mkdirSync(staging)
    writeFileSync(join(staging, 'SKILL.md'), skillText('delta'))
    renameSync(staging, join(paths.skillsDir, 'delta'))
    await until(store, () => store.get('delta') !== null)
    writeFileSync(join(extra, 'vendor/SKILL.md'), skillText('vendor', 'Vendor updated'))
    await until(store, () => store.get('vendor')?.description === 'Vendor updated')
    expect(store.get('vendor')?.readOnly).toBe(true)
  })
})

describe('refreshing only the skills another process changed', () => {
  it('re-reads the named skills, announces what changed, and leaves every other skill as it was read', async () => {
    const { paths, store, events } = await setup({ watch: false })
    const skill = (rel: string) => join(paths.skillsDir, rel, 'SKILL.md')
    // Another process (the review worker) edits alpha, adds gamma and deletes beta; unrelated to
    // that, vendor is broken in an editor while no watcher runs.
    writeFileSync(skill('ops/alpha'), skillText('alpha', 'Patched by the review'))
    mkdirSync(join(paths.skillsDir, 'ops/gamma/references'), { recursive: true })
    writeFileSync(skill('ops/gamma'), skillText('gamma'))
    writeFileSync(join(paths.skillsDir, 'ops/gamma/references/notes.md'), 'notes')
    rmSync(join(paths.skillsDir, 'ops/beta'), { recursive: true })
    const vendor = store.get('vendor')!
    writeFileSync(vendor.path, '---\nname: vendor\ndescription: [broken\n---\n')

    store.refreshPaths(['skills/ops/alpha/SKILL.md', 'skills/ops/gamma/SKILL.md', 'skills/ops/gamma/references/notes.md', 'skills/ops/beta/SKILL.md', 'memories/USER.md'])

    expect(store.get('alpha')?.description).toBe('Patched by the review')
    expect(store.get('gamma')).toMatchObject({ category: 'ops', readOnly: false })
    expect(store.get('beta')).toBeNull()
    expect(store.get('vendor')).toEqual(vendor)
    expect(store.diagnostics()).toEqual([])
    expect(events).toEqual([
      { name: 'alpha', path: skill('ops/alpha'), type: 'change' },
      { name: 'gamma', path: skill('ops/gamma'), type: 'add' },
      { name: 'beta', path: skill('ops/beta'), type: 'unlink' }
    ])
    // Nothing new the second time.
    store.refreshPaths(['skills/ops/alpha/SKILL.md'])
    expect(events).toHaveLength(3)
  })
})

import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { findOrphanTempFiles, isAtomicTempName } from '../../../electron/core/fs/atomic'
import { findSkillTempFiles } from '../../../electron/core/skills/skill-dir-files'
import { put, skillEnv, withDeploy } from '../../helpers/skill-env'

/** A pid that belonged to a process that has exited. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid!

const age = (path: string, ms: number): void => {
  const then = new Date(Date.now() - ms)
  utimesSync(path, then, then)
}

describe('temp files of killed skill writes', () => {
  it('recognises atomic-write temp names and nothing else', () => {
    expect(isAtomicTempName('SKILL.md.3847561209')).toBe(true)
    expect(isAtomicTempName('MEMORY.md.123456')).toBe(true)
    expect(isAtomicTempName('config.json.4294967295')).toBe(true)
    expect(isAtomicTempName('SKILL.md.cairn-4242-7.tmp')).toBe(true)
    expect(isAtomicTempName('backup.20240101')).toBe(false)
    expect(isAtomicTempName('notes.md')).toBe(false)
    expect(isAtomicTempName('v1.2.txt')).toBe(false)
    expect(isAtomicTempName('data.csv.12')).toBe(false)
    // Digits after a file Cairn never wrote through write-file-atomic: the user's own file (a dated dump).
    expect(isAtomicTempName('schema.sql.20240131')).toBe(false)
    expect(isAtomicTempName('api.md.123456')).toBe(false)
  })

  it('skill_view never lists them; load removes the orphans (dead writer, or older than a minute) and keeps live ones', async () => {
    const env = skillEnv()
    const dir = await withDeploy(env)
    const legacyOld = put(dir, 'SKILL.md.3847561209', '')
    const legacyRef = put(dir, 'references/SKILL.md.123456789', 'half a file')
    const legacyFresh = put(dir, 'SKILL.md.2222222222', '')
    const deadWriter = put(dir, `references/api.md.cairn-${deadPid()}-3.tmp`, '')
    const liveWriter = put(dir, `SKILL.md.cairn-${process.pid}-99.tmp`, '')
    put(dir, 'references/api.md', '# API\n')
    put(dir, 'assets/backup.20240101', 'user data')
    const dump = put(dir, 'references/schema.sql.20240131', 'CREATE TABLE t (id int);\n')
    age(legacyOld, 120_000)
    age(legacyRef, 120_000)
    age(dump, 120_000)

    const listed = await env.view({ name: 'deploy' })
    expect(listed.linked_files).toEqual({ references: ['references/api.md', 'references/schema.sql.20240131'], assets: ['assets/backup.20240101'] })

    expect(findSkillTempFiles(env.paths.skillsDir)).toEqual([legacyRef, deadWriter, legacyOld].sort())
    env.load()
    expect([legacyOld, legacyRef, deadWriter].map(existsSync)).toEqual([false, false, false])
    // Possibly a write in progress: left alone until it is a minute old, but still never listed.
    expect([legacyFresh, liveWriter].map(existsSync)).toEqual([true, true])
    expect(existsSync(join(dir, 'assets', 'backup.20240101'))).toBe(true)
    expect(existsSync(dump)).toBe(true)
    expect((await env.view({ name: 'deploy' })).linked_files).toEqual(listed.linked_files)
    expect(findOrphanTempFiles(dir, { recursive: true, maxAgeMs: 0 })).toEqual([legacyFresh, liveWriter].sort())
  })

  it("keeps a user's dated file (schema.sql.20240131) through a start, and lists it", async () => {
    const home = mkdtempSync(join(tmpdir(), 'cairn-dated-'))
    try {
      let core = await CairnCore.open({ home })
      const content = '---\nname: db-migrate\ndescription: Migrate the database.\n---\n# Steps\n1. Dump.\n'
      expect((await core.skills.create({ name: 'db-migrate', content }, { source: 'user' })).success).toBe(true)
      const dir = join(core.paths.skillsDir, 'db-migrate')
      const dump = put(dir, 'references/schema.sql.20240131', 'CREATE TABLE t (id int);\n')
      const memoryDump = put(core.paths.memoriesDir, 'notes.txt.20240131', 'mine')
      age(dump, 3_600_000)
      age(memoryDump, 3_600_000)
      await core.close()

      core = await CairnCore.open({ home })
      expect([dump, memoryDump].map(existsSync)).toEqual([true, true])
      expect(core.skills.view('db-migrate', null, null, false)).toMatchObject({ linked_files: { references: ['references/schema.sql.20240131'] } })
      await core.close()
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })
})

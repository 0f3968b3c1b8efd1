import { spawnSync } from 'node:child_process'
import { existsSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
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
    expect(isAtomicTempName('api.md.123456')).toBe(true)
    expect(isAtomicTempName('SKILL.md.cairn-4242-7.tmp')).toBe(true)
    expect(isAtomicTempName('backup.20240101')).toBe(false)
    expect(isAtomicTempName('notes.md')).toBe(false)
    expect(isAtomicTempName('v1.2.txt')).toBe(false)
    expect(isAtomicTempName('data.csv.12')).toBe(false)
  })

  it('skill_view never lists them; load removes the orphans (dead writer, or older than a minute) and keeps live ones', async () => {
    const env = skillEnv()
    const dir = await withDeploy(env)
    const legacyOld = put(dir, 'SKILL.md.3847561209', '')
    const legacyRef = put(dir, 'references/api.md.123456789', 'half a file')
    const legacyFresh = put(dir, 'SKILL.md.2222222222', '')
    const deadWriter = put(dir, `references/api.md.cairn-${deadPid()}-3.tmp`, '')
    const liveWriter = put(dir, `SKILL.md.cairn-${process.pid}-99.tmp`, '')
    put(dir, 'references/api.md', '# API\n')
    put(dir, 'assets/backup.20240101', 'user data')
    age(legacyOld, 120_000)
    age(legacyRef, 120_000)

    const listed = await env.view({ name: 'deploy' })
    expect(listed.linked_files).toEqual({ references: ['references/api.md'], assets: ['assets/backup.20240101'] })

    expect(findSkillTempFiles(env.paths.skillsDir)).toEqual([legacyRef, deadWriter, legacyOld].sort())
    env.load()
    expect([legacyOld, legacyRef, deadWriter].map(existsSync)).toEqual([false, false, false])
    // Possibly a write in progress: left alone until it is a minute old, but still never listed.
    expect([legacyFresh, liveWriter].map(existsSync)).toEqual([true, true])
    expect(existsSync(join(dir, 'assets', 'backup.20240101'))).toBe(true)
    expect((await env.view({ name: 'deploy' })).linked_files).toEqual(listed.linked_files)
    expect(findOrphanTempFiles(dir, { recursive: true, maxAgeMs: 0 })).toEqual([legacyFresh, liveWriter].sort())
  })
})

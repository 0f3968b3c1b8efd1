import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createBackup } from '../../electron/core/backup'
import { seedBackupHome, tableRows, tempDir } from '../core/backup/backup-home'
import { startPty } from './pty-terminal'

const repoRoot = join(__dirname, '..', '..')
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const restoreOnTerminal = (archive: string, home: string) =>
  startPty(process.execPath, ['--import', 'tsx', join(repoRoot, 'electron/cli/index.ts'), 'restore', archive, '--home', home], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: home, TERM: 'xterm-256color' }
  })

describe('cairn restore on a terminal', () => {
  it('asks y/N before replacing a home with data: Enter keeps it, y replaces it and keeps the old one aside', async () => {
    const source = tempDir('cairn-prompt-src-')
    const parent = tempDir('cairn-prompt-dst-')
    dirs.push(source, parent)
    await seedBackupHome(source, 2)
    const archive = (await createBackup({ home: source, out: join(source, '..', `${source.split('/').pop()}.tar.gz`), cairnVersion: '1.0.0' })).file
    dirs.push(archive)
    const home = join(parent, 'home')
    await seedBackupHome(home, 4)

    const kept = restoreOnTerminal(archive, home)
    await kept.waitFor(/already holds data\. Replace it with the backup of .*\r?\nThe current home is kept at .*before-restore-\d{8}-\d{6}\.\r?\nReplace it\? \[y\/N\] $/)
    kept.type('\r')
    expect(await kept.exited).toBe(1)
    expect(kept.text()).toContain('restore cancelled; nothing was changed.')
    expect(readdirSync(parent)).toEqual(['home'])

    const replaced = restoreOnTerminal(archive, home)
    await replaced.waitFor(/Replace it\? \[y\/N\] $/)
    replaced.type('y\r')
    // Then the backup's settings that grant power: Enter keeps them held back.
    await replaced.waitFor(/Bring these settings in\? \[y\/N\] $/)
    replaced.type('\r')
    expect(await replaced.exited).toBe(0)
    expect(replaced.text()).toMatch(/the previous data home is kept at .*home\.before-restore-\d{8}-\d{6}/)
    const aside = readdirSync(parent).find((name) => name.startsWith('home.before-restore-'))!
    expect(existsSync(join(parent, aside, 'state.db'))).toBe(true)
    expect(tableRows(join(home, 'state.db'))).toEqual(tableRows(join(source, 'state.db')))
  })
})

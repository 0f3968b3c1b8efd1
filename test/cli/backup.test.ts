import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { seedBackupHome, tempDir } from '../core/backup/backup-home'
import { until } from '../helpers/review-fixture'
import { runCairn } from '../helpers/run-cli'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function dir(prefix: string): string {
  const path = tempDir(prefix)
  dirs.push(path)
  return path
}

const cairn = (home: string, ...args: string[]) => runCairn(['--home', home, ...args], { cwd: home })

describe('cairn backup and cairn restore', () => {
  it('backs a home up into <home>/backups and restores it into a new home that then works', async () => {
    const home = dir('cairn-cli-backup-')
    await seedBackupHome(home, 2)
    const backup = await cairn(home, 'backup', '--json')
    expect(backup.stderr).toBe('')
    expect(backup.code).toBe(0)
    const made = JSON.parse(backup.stdout) as { file: string; bytes: number; manifest: { files: Array<{ path: string }> } }
    expect(made.file).toMatch(new RegExp(`^${join(home, 'backups')}/cairn-\\d{8}-\\d{6}\\.tar\\.gz$`))
    expect(made.manifest.files.map((file) => file.path)).not.toContain('secrets.json')

    const target = join(dir('cairn-cli-restore-'), 'new-home')
    const restore = await runCairn(['restore', made.file, '--home', target])
    // The seeded home's MCP server is shown, and held back: nobody at a terminal agreed to it.
    expect(restore.stderr).toMatch(/^The backup's settings grant these powers; they come in only if you say so:\n {2}MCP server github: runs /)
    expect(restore.code).toBe(0)
    expect(restore.stdout).toMatch(/^Restored .*new-home\n  from the backup of .* \(Cairn .*, \d+ files, every checksum verified\)\n  1 setting\(s\) that grant power were held back, out of config\.json: .*\n$/)

    const memory = await cairn(target, 'memory', '--json')
    expect(memory.code).toBe(0)
    expect(memory.stdout).toContain('The build server is called atlas.')
    const sessions = await cairn(target, 'sessions', '--json')
    expect(JSON.parse(sessions.stdout)).toHaveLength(2)
  })

  it('asks before replacing a home with data: without a terminal it needs --yes, and keeps the old home aside', async () => {
    const source = dir('cairn-cli-backup-')
    await seedBackupHome(source, 1)
    const out = join(dir('cairn-cli-out-'), 'mine.tar.gz')
    const text = await cairn(source, 'backup', '--out', out)
    expect(text.code).toBe(0)
    expect(text.stdout).toContain(`to ${out} (`)
    expect(text.stdout).toContain(`Restore it with: cairn restore ${out}`)
    const again = await cairn(source, 'backup', '--out', out)
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/already exists; choose another file name/)

    const parent = dir('cairn-cli-existing-')
    const target = join(parent, 'home')
    await seedBackupHome(target, 3)
    const refused = await cairn(target, 'restore', out)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/^cairn: .*home already holds data\. Re-run with --yes to replace it .*before-restore-\d{8}-\d{6}\)\.\n$/)
    expect(readdirSync(parent)).toEqual(['home'])

    const replaced = await cairn(target, 'restore', out, '--yes', '--json')
    expect(replaced.code).toBe(0)
    const result = JSON.parse(replaced.stdout) as { restored: boolean; aside: string }
    expect(result.restored).toBe(true)
    expect(existsSync(join(result.aside, 'state.db'))).toBe(true)
    const sessions = await cairn(target, 'sessions', '--json')
    expect(JSON.parse(sessions.stdout)).toHaveLength(1)
  })

  it('refuses a damaged archive in one line naming it, and a missing one', async () => {
    const home = dir('cairn-cli-backup-')
    writeFileSync(join(home, 'broken.tar.gz'), 'these bytes are not a gzip stream')
    const broken = await runCairn(['restore', join(home, 'broken.tar.gz'), '--home', join(home, 'target')])
    expect(broken.code).toBe(1)
    expect(broken.stderr).toMatch(/^cairn: broken\.tar\.gz is damaged or cut short and cannot be read .*; nothing was restored\.\n$/)
    expect(existsSync(join(home, 'target'))).toBe(false)
    const missing = await runCairn(['restore', join(home, 'nope.tar.gz'), '--home', join(home, 'target')])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('There is no backup file at')
    const usage = await runCairn(['restore'])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('Missing the backup file to restore.')
  })

  it('a backup killed mid-way leaves no archive under its name; the next one clears what it left', async () => {
    const home = dir('cairn-cli-killed-')
    await seedBackupHome(home, 1)
    // Big enough (40 MB) for progress lines, which say the backup is under way.
    for (let i = 0; i < 40; i++) {
      mkdirSync(join(home, 'attachments', `s${i}`), { recursive: true })
      writeFileSync(join(home, 'attachments', `s${i}`, 'scan.bin'), randomBytes(1024 * 1024))
    }
    const folder = dir('cairn-cli-killed-out-')
    const killed = spawn(process.execPath, ['--import', 'tsx', 'electron/cli/index.ts', '--home', home, 'backup', '--out', join(folder, 'first.tar.gz')], { cwd: join(__dirname, '..', '..') })
    let stderr = ''
    killed.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise((done) => killed.once('exit', done))
    await until(() => stderr.includes('backing up:') || killed.exitCode !== null, 'the backup to show progress')
    killed.kill('SIGKILL')
    await exited
    expect(stderr).toMatch(/^backing up: \d+\/\d+ files, [\d.]+ MB of [\d.]+ MB$/m)
    expect(existsSync(join(folder, 'first.tar.gz'))).toBe(false)
    expect(readdirSync(folder).length).toBeGreaterThan(0)

    const next = await cairn(home, 'backup', '--out', join(folder, 'second.tar.gz'))
    expect(next.code).toBe(0)
    expect(readdirSync(folder)).toEqual(['second.tar.gz'])
  })
})

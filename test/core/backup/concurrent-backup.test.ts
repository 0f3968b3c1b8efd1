import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import * as tar from 'tar'
import { afterEach, describe, expect, it } from 'vitest'
import { createBackup } from '../../../electron/core/backup'
import { parseEntries } from '../../../electron/core/memory/memory-file'
import { writerEntryPattern } from '../../helpers/memory-writer'
import { until } from '../../helpers/review-fixture'
import { seedBackupHome, tempDir } from './backup-home'

const repoRoot = join(__dirname, '..', '..', '..')
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('backup while another process writes', () => {
  it('archives a database that passes integrity_check and memory files of whole entries', async () => {
    const home = tempDir('cairn-busy-home-')
    const work = tempDir('cairn-busy-out-')
    dirs.push(home, work)
    await seedBackupHome(home, 3)
    writeFileSync(join(home, 'config.json'), JSON.stringify({ memory: { memoryCharLimit: 1_000_000 } }))

    const writer = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'busy-writer.ts'), '--home', home], { cwd: repoRoot })
    let stdout = ''
    let stderr = ''
    writer.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    writer.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((done) => writer.once('exit', done))
    try {
      await until(() => stdout.includes('ready') || writer.exitCode !== null, 'the writer to start')
      expect(stderr).toBe('')
      // Several backups, each taken while rounds keep landing.
      const archives: string[] = []
      for (let i = 0; i < 3; i++) {
        const roundsBefore = countRows(join(home, 'state.db'))
        archives.push((await createBackup({ home, out: join(work, `busy-${i}.tar.gz`), cairnVersion: '1.0.0' })).file)
        await until(() => countRows(join(home, 'state.db')) > roundsBefore, 'the writer to go on writing')
      }
      writer.stdin.write('stop\n')
      expect(await exited).toBe(0)
      const result = JSON.parse(stdout.trim().split('\n').pop()!) as { rounds: number; failed: number }
      expect(result.failed).toBe(0)

      let previous = 0
      for (const archive of archives) {
        const unpacked = join(work, `unpacked-${archives.indexOf(archive)}`)
        mkdirSync(unpacked)
        await tar.x({ file: archive, cwd: unpacked })
        const db = new Database(join(unpacked, 'state.db'), { readonly: true })
        try {
          expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
          const messages = db.prepare('SELECT count(*) FROM messages').pluck().get() as number
          expect(messages).toBeGreaterThan(previous)
          previous = messages
          const learned = db.prepare("SELECT count(*) FROM ledger WHERE source = 'review'").pluck().get() as number
          expect(learned).toBeGreaterThan(0)
        } finally {
          db.close()
        }
        const entries = parseEntries(readFileSync(join(unpacked, 'memories', 'MEMORY.md'), 'utf8'))
        const written = entries.filter((entry) => entry.startsWith('writer '))
        expect(written.length).toBeGreaterThan(0)
        for (const entry of written) expect(entry).toMatch(writerEntryPattern)
      }
    } finally {
      if (writer.exitCode === null) writer.kill('SIGKILL')
    }
  })
})

function countRows(stateDb: string): number {
  const db = new Database(stateDb, { readonly: true })
  try {
    return db.prepare('SELECT count(*) FROM messages').pluck().get() as number
  } finally {
    db.close()
  }
}

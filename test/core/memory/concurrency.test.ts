import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb } from '../../../electron/core/db/state-db'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { isAtomicTempName } from '../../../electron/core/fs/atomic'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { MemoryStore } from '../../../electron/core/memory'
import { readMemoryText, splitEntries } from '../../../electron/core/memory/memory-file'
import { writerEntry, writerEntryPattern } from '../../helpers/memory-writer'

const repoRoot = resolve(__dirname, '..', '..', '..')
const writerScript = join(repoRoot, 'test', 'helpers', 'memory-writer.ts')

let home: string
let paths: HomePaths
let children: ChildProcessWithoutNullStreams[] = []

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-'))
  paths = ensureHome(home)
  openStateDb(paths.stateDb).close() // migrate before the writers race to
})

afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  children = []
  rmSync(home, { recursive: true, force: true })
})

function startWriter(id: number, count: number, waitGo: boolean): ChildProcessWithoutNullStreams {
  const args = ['--import', 'tsx', writerScript, '--home', home, '--id', String(id), '--count', String(count)]
  const child = spawn(process.execPath, waitGo ? [...args, '--wait-go'] : args, { cwd: repoRoot })
  children.push(child)
  return child
}

function output(child: ChildProcessWithoutNullStreams): { stdout: () => string; stderr: () => string } {
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return { stdout: () => stdout, stderr: () => stderr }
}

function exited(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  }
  return new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })))
}

async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((wake) => setTimeout(wake, 10))
  }
}

/** Problems with the file as a reader sees it right now: torn, merged or unknown entries, duplicates. */
function fileProblems(entries: string[]): string[] {
  const problems = entries.filter((entry) => !writerEntryPattern.test(entry)).map((entry) => `malformed: ${entry.slice(0, 80)}`)
  if (new Set(entries).size !== entries.length) problems.push('duplicate entries')
  return problems
}

function tempFiles(): string[] {
  return readdirSync(paths.memoriesDir).filter(isAtomicTempName)
}

describe('several processes writing one memory file', () => {
  it('4 processes × 250 adds at once: nothing lost, parseable at every moment, one ledger row per add', async () => {
    const writers = [0, 1, 2, 3].map((id) => startWriter(id, 250, true))
    const logs = writers.map(output)
    await until(() => logs.every((log) => log.stdout().includes('ready')), 'all writers to start', 30_000)

    const problems: string[] = []
    let samples = 0
    let partialSamples = 0
    let lastCount = 0
    const reader = setInterval(() => {
      const entries = splitEntries(readMemoryText(paths.memoryFile))
      samples++
      if (entries.length > 0 && entries.length < 1000) partialSamples++
      problems.push(...fileProblems(entries))
      if (entries.length < lastCount) problems.push(`entry count went down from ${lastCount} to ${entries.length}`)
      lastCount = entries.length
    }, 2)

    const exits = writers.map(exited)
    for (const child of writers) child.stdin.write('go\n')
    const results = await Promise.all(exits)
    clearInterval(reader)

    expect(results.map((result) => result.code), logs.map((log) => log.stderr()).join('\n')).toEqual([0, 0, 0, 0])
    expect(logs.map((log) => JSON.parse(log.stdout().trim().split('\n').pop()!))).toEqual(
      [0, 1, 2, 3].map((id) => ({ id, added: 250, failed: 0, errors: [] }))
    )
    expect(problems).toEqual([])
    expect(partialSamples).toBeGreaterThan(0)

    const entries = splitEntries(readMemoryText(paths.memoryFile))
    const expected = [0, 1, 2, 3].flatMap((id) => Array.from({ length: 250 }, (_, i) => writerEntry(id, i)))
    expect(entries).toHaveLength(1000)
    expect(new Set(entries)).toEqual(new Set(expected))

    const db = openStateDb(paths.stateDb)
    const rows = new Ledger(db).list({ limit: 5000, kinds: ['memory.add'] })
    db.close()
    expect(rows).toHaveLength(1000)
    expect(new Set(rows.map((row) => row.after))).toEqual(new Set(expected))
    expect(rows.every((row) => row.target === 'memories/MEMORY.md' && row.source === 'agent')).toBe(true)
    expect(tempFiles()).toEqual([])
  }, 120_000)

  it('a writer killed with SIGKILL mid-write leaves a whole file and a lock the next writer takes over', async () => {
    const writer = startWriter(0, 1_000_000, false)
    const log = output(writer)
    await until(() => splitEntries(readMemoryText(paths.memoryFile)).length >= 40, 'the writer to add 40 entries', 30_000)
    writer.kill('SIGKILL')
    expect(await exited(writer), log.stderr()).toEqual({ code: null, signal: 'SIGKILL' })

    // Whatever instant the kill hit, the file holds whole entries in order, none torn or missing.
    const survivors = splitEntries(readMemoryText(paths.memoryFile))
    expect(fileProblems(survivors)).toEqual([])
    expect(survivors).toEqual(survivors.map((_, i) => writerEntry(0, i)))

    // Rows are written pending before the file and committed after it, under the lock: every committed
    // row names an entry on disk, and at most one entry (the write the kill hit) waits in a pending row.
    const db = openStateDb(paths.stateDb)
    const ledger = new Ledger(db)
    const rows = ledger.list({ limit: 5000 })
    expect(rows.length).toBeGreaterThanOrEqual(survivors.length - 1)
    expect(rows.every((row) => row.after !== null && survivors.includes(row.after))).toBe(true)
    expect(ledger.unsettled().length).toBeLessThanOrEqual(1)

    // The next writer takes the lock over once it is stale (about 10 s if the kill hit while it was held).
    const next = new MemoryStore({
      dataHome: home,
      dir: paths.memoriesDir,
      memoryCharLimit: 1_000_000,
      userCharLimit: 1375,
      recorder: new Ledger(db),
      lockTimeoutMs: 30_000
    })
    const result = await next.add('memory', writerEntry(9, 0), { write: { source: 'agent' } })
    db.close()
    expect(result).toMatchObject({ success: true, entry_count: survivors.length + 1 })
    expect(splitEntries(readMemoryText(paths.memoryFile))).toEqual([...survivors, writerEntry(9, 0)])
    expect(tempFiles()).toEqual([])
    expect(existsSync(`${paths.memoryFile}.lock`)).toBe(false)
  }, 60_000)
})

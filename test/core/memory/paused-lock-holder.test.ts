import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { openStateDb } from '../../../electron/core/db/state-db'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { parseEntries, readMemoryText } from '../../../electron/core/memory/memory-file'
import { fileExists, resultOf, runChild, until, type ChildRun } from '../ledger/fault-rig'

let home: string
let paths: HomePaths
let paused: ChildRun | null = null

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-pause-'))
  paths = ensureHome(home)
  openStateDb(paths.stateDb).close()
})

afterEach(() => {
  if (paused && paused.child.exitCode === null) {
    paused.child.kill('SIGCONT')
    paused.child.kill('SIGKILL')
  }
  paused = null
  rmSync(home, { recursive: true, force: true })
})

// Both processes take a stale lock over after 2 s (the library's minimum) instead of 10 s.
const fast = { CAIRN_LOCK_STALE_MS: '2000' }

describe('a memory writer paused while holding the lock', () => {
  it('does not overwrite the entry another process confirmed meanwhile: its stale write is refused and re-applied', async () => {
    const mark = join(home, 'paused')
    // A reads MEMORY.md under the lock, and is SIGSTOPped right before it writes the new file.
    paused = runChild(home, 'memory-add', { content: 'entry from the paused writer' }, { ...fast, CAIRN_FAULT: 'before-write:stop:MEMORY.md', CAIRN_FAULT_MARK: mark })
    await until(fileExists(mark), 'the first writer to pause holding the lock')

    // B waits until A's lock is stale, takes it over, writes and confirms its entry.
    const confirmed = await runChild(home, 'memory-add', { content: 'entry confirmed by another process' }, fast).done
    expect(resultOf(confirmed), confirmed.stderr).toMatchObject({ success: true })

    paused.child.kill('SIGCONT')
    const resumed = await paused.done
    expect(resumed.code, resumed.stderr).toBe(0)
    // A found out it had lost the lock, wrote nothing from its stale read, and re-applied on a fresh one.
    expect(resultOf(resumed)).toMatchObject({ success: true })

    const entries = parseEntries(readMemoryText(paths.memoryFile))
    expect(entries).toEqual(['entry confirmed by another process', 'entry from the paused writer'])
    const db = openStateDb(paths.stateDb)
    const ledger = new Ledger(db)
    const rows = ledger.list({ limit: 100 }).reverse()
    const unsettled = ledger.unsettled()
    db.close()
    // Ledger rows match the file: one committed add per entry, nothing left pending.
    expect(rows.map((row) => [row.kind, row.after])).toEqual(entries.map((entry) => ['memory.add', entry]))
    expect(unsettled).toEqual([])
    expect(readdirSync(paths.memoriesDir).filter((name) => name.includes('.cairn-'))).toEqual([])
  }, 60_000)
})

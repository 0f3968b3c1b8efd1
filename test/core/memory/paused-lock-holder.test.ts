import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openStateDb } from '../../../electron/core/db/state-db'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { parseEntries, readMemoryText } from '../../../electron/core/memory/memory-file'
import { fileExists, resultOf, runChild, until } from '../ledger/fault-rig'
import { FAST_STALE, pausedWriterHome } from '../ledger/fault-homes'

const rig = pausedWriterHome({ withDb: true })

const fast = FAST_STALE

describe('a memory writer paused while holding the lock', () => {
  it('does not overwrite the entry another process confirmed meanwhile: its stale write is refused and re-applied', async () => {
    const mark = join(rig.home, 'paused')
    // A reads MEMORY.md under the lock, and is SIGSTOPped right before it writes the new file.
    rig.paused = runChild(rig.home, 'memory-add', { content: 'entry from the paused writer' }, { ...fast, CAIRN_FAULT: 'before-write:stop:MEMORY.md', CAIRN_FAULT_MARK: mark })
    await until(fileExists(mark), 'the first writer to pause holding the lock')

    // B waits until A's lock is stale, takes it over, writes and confirms its entry.
    const confirmed = await runChild(rig.home, 'memory-add', { content: 'entry confirmed by another process' }, fast).done
    expect(resultOf(confirmed), confirmed.stderr).toMatchObject({ success: true })

    rig.paused.child.kill('SIGCONT')
    const resumed = await rig.paused.done
    expect(resumed.code, resumed.stderr).toBe(0)
    // A found out it had lost the lock, wrote nothing from its stale read, and re-applied on a fresh one.
    expect(resultOf(resumed)).toMatchObject({ success: true })

    const entries = parseEntries(readMemoryText(rig.paths.memoryFile))
    expect(entries).toEqual(['entry confirmed by another process', 'entry from the paused writer'])
    const db = openStateDb(rig.paths.stateDb)
    const ledger = new Ledger(db)
    const rows = ledger.list({ limit: 100 }).reverse()
    const unsettled = ledger.unsettled()
    db.close()
    // Ledger rows match the file: one committed add per entry, nothing left pending.
    expect(rows.map((row) => [row.kind, row.after])).toEqual(entries.map((entry) => ['memory.add', entry]))
    expect(unsettled).toEqual([])
    expect(readdirSync(rig.paths.memoriesDir).filter((name) => name.includes('.cairn-'))).toEqual([])
  }, 60_000)
})

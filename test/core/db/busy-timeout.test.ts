import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { DEFAULT_BUSY_TIMEOUT_MS, openStateDb, type StateDb } from '../../../electron/core/db/state-db'

const dirs: string[] = []
const open: Array<{ close(): unknown }> = []
afterEach(async () => {
  for (const handle of open.splice(0).reverse()) await handle.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-db-'))
  dirs.push(dir)
  return dir
}

function db(path: string, busyTimeoutMs?: number): StateDb {
  const handle = openStateDb(path, { busyTimeoutMs })
  open.push(handle)
  return handle
}

describe('waiting for another process’s lock on state.db', () => {
  it('waits 10 s by default (the CLI and the review worker), and as long as the opener says otherwise', async () => {
    const path = join(home(), 'state.db')
    expect(db(path).pragma('busy_timeout', { simple: true })).toBe(DEFAULT_BUSY_TIMEOUT_MS)
    expect(DEFAULT_BUSY_TIMEOUT_MS).toBe(10_000)
    expect(db(path, 1_500).pragma('busy_timeout', { simple: true })).toBe(1_500)
    const core = await CairnCore.open({ home: home(), busyTimeoutMs: 1_500 })
    open.push(core)
    expect(core.db.pragma('busy_timeout', { simple: true })).toBe(1_500)
  })

  it('gives up with SQLITE_BUSY after the short wait while another connection holds the write lock', () => {
    const path = join(home(), 'state.db')
    const writer = db(path)
    const impatient = db(path, 20)
    writer.exec('BEGIN IMMEDIATE')
    try {
      expect(() => impatient.exec('BEGIN IMMEDIATE')).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }))
    } finally {
      writer.exec('ROLLBACK')
    }
  })

  it('refuses a timeout that is not a whole number of milliseconds', () => {
    const path = join(home(), 'state.db')
    expect(() => openStateDb(path, { busyTimeoutMs: -1 })).toThrow(RangeError)
    expect(() => openStateDb(path, { busyTimeoutMs: 1.5 })).toThrow(RangeError)
  })
})

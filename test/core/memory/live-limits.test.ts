import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseConfig, type SettingsStore } from '../../../electron/core/config/config-store'
import { CairnCore } from '../../../electron/core/cairn'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { MemoryStore, type MemoryCallContext } from '../../../electron/core/memory'

let home: string
let paths: HomePaths
const ctx: MemoryCallContext = { write: { source: 'user' } }

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-'))
  paths = ensureHome(home)
})

afterEach(() => {
  rmSync(home, { recursive: true, force: true })
})

function writeConfig(memory: Record<string, number>): void {
  writeFileSync(paths.configFile, JSON.stringify({ memory, skills: { extraDirs: [] } }))
}

describe('char limits follow the settings without reopening', () => {
  it('settings.update raises and lowers the limits of an open core', async () => {
    writeConfig({ memoryCharLimit: 100, userCharLimit: 100 })
    const core = await CairnCore.open({ home })
    try {
      const long = 'Deploys go through the staging cluster first, then production after a manual approval step.' + ' x'.repeat(30)
      // Refused rather than archived (issue 28): this checks the limit itself.
      expect(await core.memory.add('memory', long, ctx, { overflow: false })).toMatchObject({ success: false, usage: '0/100' })

      await core.config.update({ memory: { memoryCharLimit: 1000 } })
      expect(await core.memory.add('memory', long, ctx)).toMatchObject({ success: true, usage: '15% — 151/1,000 chars' })
      expect(core.memory.read('memory').usage).toEqual({ current: 151, limit: 1000, percent: 15 })
      expect(core.memory.loadSnapshot().memory).toContain('[15% — 151/1,000 chars]')

      await core.config.update({ memory: { memoryCharLimit: 120 } })
      expect(await core.memory.add('memory', 'one more fact', ctx, { overflow: false })).toMatchObject({ success: false, usage: '151/120' })
      expect(core.memory.read('memory').entries).toEqual([long])

      expect(await core.memory.add('user', 'Name: Ada. '.repeat(12), ctx, { overflow: false })).toMatchObject({ success: false, usage: '0/100' })
      await core.config.update({ memory: { userCharLimit: 500 } })
      expect(await core.memory.add('user', 'Name: Ada. '.repeat(12), ctx)).toMatchObject({ success: true })
    } finally {
      await core.close()
    }
  })

  it('picks up config.json edited by another process when the settings store re-reads it', async () => {
    writeConfig({ memoryCharLimit: 100 })
    // Like the app's electron-store: every get() reads the file.
    const settings: SettingsStore = {
      get: () => parseConfig(JSON.parse(readFileSync(paths.configFile, 'utf8'))),
      update: async () => {
        throw new Error('not used')
      },
      edit: async () => {
        throw new Error('not used')
      }
    }
    const core = await CairnCore.open({ home, settings })
    try {
      const entry = 'y'.repeat(150)
      expect((await core.memory.add('memory', entry, ctx, { overflow: false })).success).toBe(false)
      writeConfig({ memoryCharLimit: 400 })
      expect(await core.memory.add('memory', entry, ctx)).toMatchObject({ success: true, usage: '37% — 150/400 chars' })
    } finally {
      await core.close()
    }
  })
})

describe('MemoryStore limits as a function', () => {
  let db: StateDb

  beforeEach(() => {
    db = openStateDb(paths.stateDb)
  })

  afterEach(() => {
    db.close()
  })

  it('reads the limits on every call, per target', async () => {
    const limits = { memory: 100, user: 200, project: 100 }
    const store = new MemoryStore({ dataHome: home, dir: paths.memoriesDir, limits: () => limits, recorder: new Ledger(db) })
    expect((await store.add('memory', 'z'.repeat(150), ctx)).success).toBe(false)
    expect((await store.add('user', 'z'.repeat(150), ctx)).success).toBe(true)
    limits.memory = 300
    expect(await store.add('memory', 'z'.repeat(150), ctx)).toMatchObject({ success: true, usage: '50% — 150/300 chars' })
    // Lowering a limit below what is stored refuses growth but loses nothing.
    limits.user = 100
    expect(await store.add('user', 'short', ctx)).toMatchObject({ success: false, usage: '150/100' })
    expect(store.read('user')).toEqual({ entries: ['z'.repeat(150)], usage: { current: 150, limit: 100, percent: 100 } })
  })

  it('keeps the last good limits when the settings cannot be read for a moment', async () => {
    let broken = false
    const store = new MemoryStore({
      dataHome: home,
      dir: paths.memoriesDir,
      limits: () => {
        if (broken) throw new Error('config.json is not valid JSON')
        return { memory: 300, user: 300, project: 300 }
      },
      recorder: new Ledger(db)
    })
    expect(store.read('memory').usage.limit).toBe(300)
    broken = true
    expect(await store.add('memory', 'fact A', ctx)).toMatchObject({ success: true, usage: '2% — 6/300 chars' })
    expect((await store.add('memory', 'w'.repeat(400), ctx)).success).toBe(false)
  })
})

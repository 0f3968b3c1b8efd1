import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { fileExists, resultOf, runChild, until, type ChildRun } from '../ledger/fault-rig'

let home: string
let paths: HomePaths
let paused: ChildRun | null = null

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-pause-'))
  paths = ensureHome(home)
})

afterEach(() => {
  if (paused && paused.child.exitCode === null) {
    paused.child.kill('SIGCONT')
    paused.child.kill('SIGKILL')
  }
  paused = null
  rmSync(home, { recursive: true, force: true })
})

const fast = { CAIRN_LOCK_STALE_MS: '2000' }

describe('a settings update paused while holding the config lock', () => {
  it('keeps the other process\'s update: the stale merge is refused and redone on a fresh read', async () => {
    const mark = join(home, 'paused')
    paused = runChild(home, 'config-update', { patch: { ui: { theme: 'dark' } } }, { ...fast, CAIRN_FAULT: 'before-write:stop:config.json', CAIRN_FAULT_MARK: mark })
    await until(fileExists(mark), 'the first update to pause holding the lock')
    const confirmed = await runChild(home, 'config-update', { patch: { provider: { model: 'confirmed-model' } } }, fast).done
    expect(resultOf(confirmed), confirmed.stderr).toMatchObject({ success: true })

    paused.child.kill('SIGCONT')
    const resumed = await paused.done
    expect(resumed.code, resumed.stderr).toBe(0)
    const onDisk = JSON.parse(readFileSync(paths.configFile, 'utf8'))
    expect(onDisk).toMatchObject({ ui: { theme: 'dark' }, provider: { model: 'confirmed-model' } })
  }, 60_000)
})

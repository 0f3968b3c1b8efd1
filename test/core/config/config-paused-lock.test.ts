import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fileExists, resultOf, runChild, until } from '../ledger/fault-rig'
import { FAST_STALE, pausedWriterHome } from '../ledger/fault-homes'

const rig = pausedWriterHome()

const fast = FAST_STALE

describe('a settings update paused while holding the config lock', () => {
  it('keeps the other process\'s update: the stale merge is refused and redone on a fresh read', async () => {
    const mark = join(rig.home, 'paused')
    rig.paused = runChild(rig.home, 'config-update', { patch: { ui: { theme: 'dark' } } }, { ...fast, CAIRN_FAULT: 'before-write:stop:config.json', CAIRN_FAULT_MARK: mark })
    await until(fileExists(mark), 'the first update to pause holding the lock')
    const confirmed = await runChild(rig.home, 'config-update', { patch: { provider: { model: 'confirmed-model' } } }, fast).done
    expect(resultOf(confirmed), confirmed.stderr).toMatchObject({ success: true })

    rig.paused.child.kill('SIGCONT')
    const resumed = await rig.paused.done
    expect(resumed.code, resumed.stderr).toBe(0)
    const onDisk = JSON.parse(readFileSync(rig.paths.configFile, 'utf8'))
    expect(onDisk).toMatchObject({ ui: { theme: 'dark' }, provider: { model: 'confirmed-model' } })
  }, 60_000)
})

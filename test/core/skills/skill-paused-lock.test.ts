import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openStateDb } from '../../../electron/core/db/state-db'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { fileExists, resultOf, runChild, until } from '../ledger/fault-rig'
import { FAST_STALE, pausedWriterHome } from '../ledger/fault-homes'

const rig = pausedWriterHome({ withDb: true })

const fast = FAST_STALE
const skillText = `---\nname: deploy\ndescription: How to deploy\n---\n# Steps\n- Step A\n- Step B\n`

describe('a skill writer paused while holding the skill lock', () => {
  it('fails cleanly instead of writing back its stale copy over a confirmed patch', async () => {
    expect(resultOf(await runChild(rig.home, 'skill-create', { name: 'deploy', content: skillText }).done)).toMatchObject({ success: true })
    const mark = join(rig.home, 'paused')
    rig.paused = runChild(rig.home, 'skill-patch', { name: 'deploy', old_string: '- Step A', new_string: '- Step A (paused)' }, {
      ...fast,
      CAIRN_FAULT: 'before-write:stop:SKILL.md',
      CAIRN_FAULT_MARK: mark
    })
    await until(fileExists(mark), 'the first patch to pause holding the lock')
    const confirmed = await runChild(rig.home, 'skill-patch', { name: 'deploy', old_string: '- Step B', new_string: '- Step B (confirmed)' }, fast).done
    expect(resultOf(confirmed), confirmed.stderr).toMatchObject({ success: true })

    rig.paused.child.kill('SIGCONT')
    const resumed = await rig.paused.done
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resultOf(resumed)).toMatchObject({ success: false, error: expect.stringMatching(/took over the lock on skill 'deploy' while this write was paused; nothing was written/) })

    const text = readFileSync(join(rig.paths.skillsDir, 'deploy', 'SKILL.md'), 'utf8')
    expect(text).toBe(skillText.replace('- Step B', '- Step B (confirmed)'))
    const db = openStateDb(rig.paths.stateDb)
    const ledger = new Ledger(db)
    const rows = ledger.list({ limit: 100 })
    const unsettled = ledger.unsettled()
    db.close()
    expect(rows.map((row) => row.kind)).toEqual(['skill.patch', 'skill.create'])
    expect(rows[0].after).toBe(text)
    expect(unsettled).toEqual([])
  }, 60_000)
})

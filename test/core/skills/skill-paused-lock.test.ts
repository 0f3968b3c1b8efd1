import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { openStateDb } from '../../../electron/core/db/state-db'
import { Ledger } from '../../../electron/core/ledger/ledger'
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

const fast = { CAIRN_LOCK_STALE_MS: '2000' }
const skillText = `---\nname: deploy\ndescription: How to deploy\n---\n# Steps\n- Step A\n- Step B\n`

describe('a skill writer paused while holding the skill lock', () => {
  it('fails cleanly instead of writing back its stale copy over a confirmed patch', async () => {
    expect(resultOf(await runChild(home, 'skill-create', { name: 'deploy', content: skillText }).done)).toMatchObject({ success: true })
    const mark = join(home, 'paused')
    paused = runChild(home, 'skill-patch', { name: 'deploy', old_string: '- Step A', new_string: '- Step A (paused)' }, {
      ...fast,
      CAIRN_FAULT: 'before-write:stop:SKILL.md',
      CAIRN_FAULT_MARK: mark
    })
    await until(fileExists(mark), 'the first patch to pause holding the lock')
    const confirmed = await runChild(home, 'skill-patch', { name: 'deploy', old_string: '- Step B', new_string: '- Step B (confirmed)' }, fast).done
    expect(resultOf(confirmed), confirmed.stderr).toMatchObject({ success: true })

    paused.child.kill('SIGCONT')
    const resumed = await paused.done
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resultOf(resumed)).toMatchObject({ success: false, error: expect.stringMatching(/took over the lock on skill 'deploy' while this write was paused; nothing was written/) })

    const text = readFileSync(join(paths.skillsDir, 'deploy', 'SKILL.md'), 'utf8')
    expect(text).toBe(skillText.replace('- Step B', '- Step B (confirmed)'))
    const db = openStateDb(paths.stateDb)
    const ledger = new Ledger(db)
    const rows = ledger.list({ limit: 100 })
    const unsettled = ledger.unsettled()
    db.close()
    expect(rows.map((row) => row.kind)).toEqual(['skill.patch', 'skill.create'])
    expect(rows[0].after).toBe(text)
    expect(unsettled).toEqual([])
  }, 60_000)
})

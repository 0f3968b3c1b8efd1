import { mkdtempSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { skillsWithStats } from '../../../electron/core/skills/skill-stats'

let core: CairnCore
const DAY = 24 * 60 * 60 * 1000

const skill = (name: string) => `---\nname: ${name}\ndescription: Does ${name} things reliably.\n---\n# ${name}\nStep one.\n`

beforeEach(async () => {
  core = await CairnCore.open({ home: mkdtempSync(join(tmpdir(), 'cairn-stats-')) })
  await core.config.update({ skills: { extraDirs: [], staleAfterDays: 30 } })
  for (const name of ['fresh-skill', 'old-skill', 'used-skill']) {
    const result = await core.skills.create({ name, category: 'ops', content: skill(name) }, { source: 'user' })
    expect(result.success).toBe(true)
  }
})
afterEach(async () => {
  await core.close()
})

describe('skill usage figures', () => {
  it('reports use count, last use and success rate from recorded outcomes', () => {
    core.skills.recordUse('used-skill', 'success')
    core.skills.recordUse('used-skill', 'success')
    core.skills.recordUse('used-skill', 'failure')
    const stats = skillsWithStats(core).find((s) => s.name === 'used-skill')!.stats
    expect(stats).toMatchObject({ useCount: 3, successCount: 2, failureCount: 1, stale: false })
    expect(stats.successRate).toBeCloseTo(2 / 3)
    expect(stats.lastUsedAt).toBeGreaterThan(Date.now() - 60_000)
  })

  it('marks a skill stale after staleAfterDays without use, and never deletes it', () => {
    const old = core.skills.get('old-skill')!
    const longAgo = new Date(Date.now() - 45 * DAY)
    utimesSync(old.path, longAgo, longAgo)
    // The creation time in state.db also counts; pretend the skill was created long ago.
    core.db.prepare('UPDATE skill_usage SET created_at = ? WHERE name = ?').run(longAgo.getTime(), 'old-skill')
    const byName = new Map(skillsWithStats(core).map((s) => [s.name, s.stats]))
    expect(byName.get('old-skill')!.stale).toBe(true)
    expect(byName.get('fresh-skill')!.stale).toBe(false)
    expect(core.skills.get('old-skill')).not.toBeNull()

    core.skills.recordView('old-skill')
    expect(skillsWithStats(core).find((s) => s.name === 'old-skill')!.stats.stale).toBe(false)
  })
})

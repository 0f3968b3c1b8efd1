import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { ConfigStore } from '../../../electron/core/config/config-store'
import { archiveUnusedSkills } from '../../../electron/core/skills/skill-archive'
import { put, skillText } from '../../helpers/skill-env'

const DAY = 24 * 60 * 60 * 1000
let home: string
let extra: string
let core: CairnCore

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-archive-'))
  extra = mkdtempSync(join(tmpdir(), 'cairn-archive-extra-'))
  put(extra, 'old-external/SKILL.md', skillText('old-external'))
  await new ConfigStore(join(home, 'config.json')).update({ skills: { extraDirs: [extra] } })
  core = await CairnCore.open({ home })
})
afterEach(async () => {
  await core.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(extra, { recursive: true, force: true })
})

async function make(name: string, source: 'agent' | 'review' | 'user' | 'import'): Promise<string> {
  const result = await core.skills.create({ name, category: 'ops', content: skillText(name) }, { source, reviewId: source === 'review' ? 'r1' : null })
  expect(result.success).toBe(true)
  return dirname(core.skills.get(name)!.path)
}

describe('archiving unused skills', () => {
  it('moves only unused, unpinned skills Cairn made into skills/.archive, as revertible review rows', async () => {
    const stale = await make('stale-by-review', 'review')
    const staleAgent = await make('stale-by-agent', 'agent')
    await make('pinned-by-review', 'review')
    await make('yours', 'user')
    await make('imported', 'import')
    await make('viewed-lately', 'review')
    core.skillFlags.set('pinned-by-review', { pinned: true })
    const now = Date.now() + 100 * DAY
    // A view ten days before "now" keeps a skill.
    core.db.prepare('UPDATE skill_usage SET last_viewed_at = ? WHERE name = ?').run(now - 10 * DAY, 'viewed-lately')

    const report = await archiveUnusedSkills(core, { now })
    expect(report.failed).toEqual([])
    expect(report.archived.map((skill) => skill.name)).toEqual(['stale-by-agent', 'stale-by-review'])
    expect(existsSync(stale)).toBe(false)
    expect(existsSync(staleAgent)).toBe(false)
    for (const name of ['pinned-by-review', 'yours', 'imported', 'viewed-lately', 'old-external']) expect(core.skills.get(name)).not.toBeNull()

    // Never deleted: the folder is in the archive, and the row says so.
    const archived = report.archived.find((skill) => skill.name === 'stale-by-review')!
    expect(archived.archivePath).toMatch(/^skills\/\.archive\/stale-by-review-/)
    expect(readFileSync(join(home, ...archived.archivePath.split('/'), 'SKILL.md'), 'utf8')).toBe(skillText('stale-by-review'))
    const row = core.ledger.forSkill('stale-by-review')[0]
    expect(row).toMatchObject({ kind: 'skill.delete', source: 'review', reviewId: null, meta: { archivePath: archived.archivePath } })

    // The timeline's revert brings it back, and a restored skill is not archived again straight away.
    const restored = await core.revert(row.id)
    expect(restored.ok).toBe(true)
    expect(readFileSync(join(stale, 'SKILL.md'), 'utf8')).toBe(skillText('stale-by-review'))
    const again = await archiveUnusedSkills(core, { now: Date.now() + 30 * DAY })
    expect(again.archived).toEqual([])
  })

  it('keeps everything within archiveAfterDays, and archives nothing when it is 0', async () => {
    await make('recent', 'review')
    expect((await archiveUnusedSkills(core, { now: Date.now() + 80 * DAY })).archived).toEqual([])
    await core.config.update({ skills: { archiveAfterDays: 0 } })
    expect((await archiveUnusedSkills(core, { now: Date.now() + 1000 * DAY })).archived).toEqual([])
    await core.config.update({ skills: { archiveAfterDays: 7 } })
    expect((await archiveUnusedSkills(core, { now: Date.now() + 8 * DAY })).archived.map((s) => s.name)).toEqual(['recent'])
  })
})

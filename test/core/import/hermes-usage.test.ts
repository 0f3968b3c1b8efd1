import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { importHermes, undoImport } from '../../../electron/core/import'
import { cairnHome, hermesHome } from './hermes-home'

const cores: CairnCore[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function setUp(): Promise<{ core: CairnCore; hermes: string }> {
  const home = await cairnHome()
  const hermes = hermesHome({ stateDb: false })
  dirs.push(home, join(hermes, '..'))
  const core = await CairnCore.open({ home })
  cores.push(core)
  return { core, hermes }
}

describe("cairn import hermes keeps Hermes's skill usage figures (skills/.usage.json)", () => {
  it('seeds the created skills with their views, uses, patches and last use; outcomes stay unknown', async () => {
    const { core, hermes } = await setUp()
    const dry = await importHermes(core, { path: hermes, dryRun: true })
    const report = await importHermes(core, { path: hermes })
    expect(report.counts.skills.usage).toBe(2)
    expect(dry.counts.skills.usage).toBe(2)
    expect(core.skills.getUsage('dogfood')).toMatchObject({
      viewCount: 57,
      useCount: 42,
      patchCount: 3,
      lastUsedAt: Date.parse('2026-06-10T08:05:31.402Z'),
      lastViewedAt: Date.parse('2026-06-11T14:22:09.771Z'),
      successCount: 0,
      failureCount: 0,
      createdBy: 'import'
    })
    // A count that is not one (negative) or a time that is not one is ignored, the rest of the record kept.
    expect(core.skills.getUsage('nano-pdf')).toMatchObject({ viewCount: 0, useCount: 5, lastViewedAt: null, lastUsedAt: Date.parse('2026-05-01T10:00:00Z') })
    // Skills without a record start from zero, as any new skill; one waiting in the Inbox (it adds a
    // download) has no figures until it is approved.
    expect(core.skills.getUsage('openhue')).toBeNull()
    expect(core.skills.getUsage('songsee')).toMatchObject({ viewCount: 0, useCount: 0 })
    expect(core.skills.getUsage('long-gone')).toBeNull()

    // Undone and imported again: the figures come back with the skill, not doubled.
    await undoImport(core, report.importId!)
    await importHermes(core, { path: hermes })
    expect(core.skills.getUsage('dogfood')).toMatchObject({ viewCount: 57, useCount: 42 })
  })

  it('a usage file that is not JSON is reported and the skills still come in, without figures', async () => {
    const { core, hermes } = await setUp()
    writeFileSync(join(hermes, 'skills', '.usage.json'), '{"dogfood": {"use_count": 4,')
    const report = await importHermes(core, { path: hermes })
    expect(report.problems).toContainEqual({
      file: 'skills/.usage.json',
      message: expect.stringMatching(/^is not valid JSON \(.+\); the skills came in without their usage figures\.$/)
    })
    expect(report.counts.skills).toMatchObject({ created: 6, proposed: 1, usage: 0 })
    expect(core.skills.getUsage('dogfood')).toMatchObject({ useCount: 0, viewCount: 0 })
  })
})

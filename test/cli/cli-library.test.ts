import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../electron/core/cairn'
import { ConfigStore } from '../../electron/core/config/config-store'
import { runCairn } from '../helpers/run-cli'

let home: string

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-cli-library-'))
  await new ConfigStore(join(home, 'config.json')).update({ skills: { extraDirs: [] } })
})

const cairn = (...args: string[]) => runCairn(['--home', home, ...args])

const skill = (body: string) => `---\nname: deploy\ndescription: Deploy the site to the server.\n---\n# Deploy\n${body}`

/** A data home with a skill a review wrote and the agent changed twice, and one another client would reject. */
async function seedSkills(): Promise<number[]> {
  const core = await CairnCore.open({ home })
  try {
    await core.skills.create({ name: 'deploy', category: 'web', content: skill('1. Build.\n') }, { source: 'review', reviewId: 'r1' })
    await core.skills.edit({ name: 'deploy', content: skill('1. Build.\n2. Upload.\n') }, { source: 'agent' })
    await core.skills.edit({ name: 'deploy', content: skill('1. Build with --prod.\n2. Upload.\n') }, { source: 'agent' })
    mkdirSync(join(home, 'skills', 'Odd_Folder'), { recursive: true })
    writeFileSync(join(home, 'skills', 'Odd_Folder', 'SKILL.md'), '---\nname: odd\ndescription: Written elsewhere\nversion: 2\n---\nBody\n')
    return core.ledger.forSkill('deploy').map((row) => row.id).reverse()
  } finally {
    await core.close()
  }
}

describe('cairn skills: tending one skill', () => {
  it('pins and disables, shows it in the list, and refuses an unknown skill clearly', async () => {
    await seedSkills()
    expect((await cairn('skills', 'pin', 'deploy')).stdout).toMatch(/Skill 'deploy' pinned/)
    expect((await cairn('skills', 'disable', 'deploy')).code).toBe(0)
    const listed = await cairn('skills', '--json')
    const items = JSON.parse(listed.stdout).skills as Array<Record<string, unknown>>
    expect(items.find((item) => item.name === 'deploy')).toMatchObject({ pinned: true, disabled: true, madeBy: 'cairn', specIssues: [] })
    expect((items.find((item) => item.name === 'Odd_Folder')!.specIssues as string[]).length).toBeGreaterThan(0)
    const text = await cairn('skills')
    expect(text.stdout).toMatch(/deploy .*\(disabled, pinned, made by Cairn/)
    expect(text.stdout).toMatch(/1 skill would be rejected by a strict Agent Skills client/)
    const unknown = await cairn('skills', 'pin', 'deplyo')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/There is no skill named "deplyo"\. Closest: deploy/)
  })

  it('shows its history, diffs two versions and restores one', async () => {
    const [created, firstEdit] = await seedSkills()
    const history = await cairn('skills', 'history', 'deploy')
    expect(history.code).toBe(0)
    expect(history.stdout).toMatch(new RegExp(`#${created} .*skill\\.create .*skills/web/deploy/SKILL\\.md +\\(review`))
    const diff = await cairn('skills', 'diff', 'deploy', String(created), String(firstEdit))
    expect(diff.code).toBe(0)
    expect(diff.stdout).toContain(`--- #${created} skills/web/deploy/SKILL.md`)
    expect(diff.stdout).toMatch(/^\+2\. Upload\.$/m)
    const restored = await cairn('skills', 'restore', 'deploy', String(created))
    expect(restored.stdout).toMatch(new RegExp(`Restored skills/web/deploy/SKILL.md as it was after #${created}`))
    expect(readFileSync(join(home, 'skills', 'web', 'deploy', 'SKILL.md'), 'utf8')).toBe(skill('1. Build.\n'))
    const bad = await cairn('skills', 'restore', 'deploy', 'twelve')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/timeline id/)
  })
})

describe('cairn memory', () => {
  it('lists entries with where they came from, pins one by a part of it, and follows its history', async () => {
    const core = await CairnCore.open({ home })
    try {
      await core.memory.add('user', 'Uses npm', { write: { source: 'agent', sessionId: 'chat-1' } })
      await core.memory.replace('user', 'Uses npm', 'Uses pnpm', { write: { source: 'review', reviewId: 'r1' } })
      await core.memory.add('memory', 'Build server is ci-01', { write: { source: 'user' } })
      // Saved again later by another writer: that confirms it.
      core.memoryConfirmations.confirm('memory', 'Build server is ci-01', Date.now() + 60_000)
    } finally {
      await core.close()
    }
    const pin = await cairn('memory', 'pin', 'user', 'pnpm')
    expect(pin.stdout).toMatch(/Pinned in USER\.md: Uses pnpm/)
    const shown = await cairn('memory')
    expect(shown.stdout).toMatch(/USER\.md \(user\)/)
    expect(shown.stdout).toMatch(/1\. Uses pnpm {2}\(pinned, review \d{4}-/)
    expect(shown.stdout).toMatch(/1\. Build server is ci-01 {2}\(user \d{4}-.*, last confirmed \d{4}-/)
    const json = JSON.parse((await cairn('memory', '--json')).stdout)
    expect(json.user.info[0]).toMatchObject({ text: 'Uses pnpm', pinned: true, source: 'review', reviewId: 'r1' })
    const history = JSON.parse((await cairn('memory', 'history', 'user', '--entry', 'Uses pnpm', '--json')).stdout)
    expect(history.map((row: { kind: string }) => row.kind)).toEqual(['memory.replace', 'memory.add'])
    const missing = await cairn('memory', 'pin', 'user', 'yarn')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/No user entry contains "yarn"/)
  })
})

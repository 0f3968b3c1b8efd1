import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCairn } from '../helpers/run-cli'
import { cairnHome, hermesHome, tempDir } from '../core/import/hermes-home'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function homes(): Promise<{ home: string; hermes: string }> {
  const home = await cairnHome()
  const hermes = hermesHome()
  dirs.push(home, join(hermes, '..'))
  return { home, hermes }
}

const cairn = (home: string, args: string[], env: NodeJS.ProcessEnv = {}) => runCairn(['--home', home, 'import', ...args], { cwd: home, env })

describe('cairn import', () => {
  it('imports a Hermes home ($HERMES_HOME by default), lists the batch and undoes it', async () => {
    const { home, hermes } = await homes()
    const dry = await cairn(home, ['hermes', '--dry-run'], { HERMES_HOME: hermes })
    expect(dry.stderr).toBe('')
    expect(dry.code).toBe(0)
    expect(dry.stdout).toContain(`Dry run: nothing was changed. Importing ${hermes} would bring in:\n`)
    expect(dry.stdout).toContain('  skills: 6 created (6 supporting files, 2 with their usage figures), 0 already the same, 1 proposed (a different skill of that name exists, or it adds a download, an address or a credentials path), 1 refused\n')
    expect(dry.stdout).toContain('  memories/MEMORY.md:13: entry not imported: ')
    expect(dry.stdout).toContain('  skills/broken/half-written/SKILL.md')

    const run = await cairn(home, ['hermes', hermes, '--json'])
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout) as { importId: number; counts: { sessions: { added: number } } }
    expect(report.importId).toBe(1)
    expect(report.counts.sessions.added).toBe(3)

    const search = await runCairn(['--home', home, 'search', 'invoice rounding', '--json'], { cwd: home })
    expect(search.stdout).toContain('Fixing the flaky invoice test')

    const listed = await cairn(home, ['list'])
    expect(listed.stdout).toMatch(/^#1 {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}hermes {2}.+ {2}\d+ memory entries, 6 skills, 3 conversations, \d+ problems\n$/)

    const undone = await cairn(home, ['undo', '1'])
    expect(undone.stderr).toBe('')
    expect(undone.code).toBe(0)
    expect(undone.stdout).toMatch(/^Undid import #1: \d+ changes reverted, 3 conversations deleted, 1 waiting proposal withdrawn\.\n$/)
    const batches = JSON.parse((await cairn(home, ['list', '--json'])).stdout) as Array<{ id: number; revertedAt: number | null }>
    expect(batches).toEqual([expect.objectContaining({ id: 1, revertedAt: expect.any(Number) })])
  })

  it('says clearly when there is nothing to import or the command is wrong', async () => {
    const home = tempDir('cairn-import-cli-')
    dirs.push(home)
    const missing = await cairn(home, ['hermes', join(home, 'no-such-hermes')])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain(`There is no Hermes home at ${join(home, 'no-such-hermes')}.`)
    const empty = tempDir('cairn-not-hermes-')
    dirs.push(empty)
    const notHermes = await cairn(home, ['hermes', empty])
    expect(notHermes.code).toBe(1)
    expect(notHermes.stderr).toContain('does not look like a Hermes home: it has no memories/, skills/ or state.db.')
    const unknown = await cairn(home, ['no-such-app'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Cairn cannot import from "no-such-app" yet')
    const noBatch = await cairn(home, ['undo', '9'])
    expect(noBatch.code).toBe(1)
    expect(noBatch.stderr).toContain('There is no import #9')
  })
})

describe('cairn import: a large import', () => {
  it('shows its progress on stderr, a line per tenth of the conversations', async () => {
    const home = await cairnHome()
    const hermes = hermesHome({ extraSessions: 297 })
    dirs.push(home, join(hermes, '..'))
    const run = await cairn(home, ['hermes', hermes])
    expect(run.code).toBe(0)
    const lines = run.stderr.trimEnd().split('\n')
    expect(lines).toHaveLength(10)
    expect(lines[0]).toBe('importing conversations: 30/300')
    expect(lines[9]).toBe('importing conversations: 300/300')
    expect(run.stdout).toContain('  conversations: 300 added (602 messages), 0 imported before\n')
  })
})

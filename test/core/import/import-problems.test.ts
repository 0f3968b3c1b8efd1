import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { importHermes, ImportBatches, undoImport } from '../../../electron/core/import'
import { ProposalStore } from '../../../electron/core/ledger/proposals'
import { cairnHome, hermesHome } from './hermes-home'

const cores: CairnCore[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function setUp(options: Parameters<typeof hermesHome>[0] = {}): Promise<{ core: CairnCore; hermes: string }> {
  const home = await cairnHome()
  const hermes = hermesHome(options)
  dirs.push(home, join(hermes, '..'))
  const core = await CairnCore.open({ home })
  cores.push(core)
  return { core, hermes }
}

describe('cairn import hermes: what is malformed is reported and the rest still comes in', () => {
  it('reports a skill whose front matter does not parse, by its file, and imports the others', async () => {
    const { core, hermes } = await setUp()
    const report = await importHermes(core, { path: hermes })
    const problem = report.problems.find((entry) => entry.file === 'skills/broken/half-written/SKILL.md')
    expect(problem?.message).toMatch(/^not imported: /)
    expect(core.skills.get('half-written')).toBeNull()
    expect(report.counts.skills).toMatchObject({ created: 6, proposed: 1, refused: 1 })
  })

  it('reports a state.db that is not a database, and still imports memory and skills', async () => {
    const { core, hermes } = await setUp({ stateDb: false })
    writeFileSync(join(hermes, 'state.db'), 'this is not a SQLite file, just text someone saved under that name\n'.repeat(100))
    const report = await importHermes(core, { path: hermes })
    expect(report.problems).toContainEqual(expect.objectContaining({ file: 'state.db', message: expect.stringMatching(/could not be opened as a SQLite database/) }))
    expect(report.counts.sessions.added).toBe(0)
    expect(report.counts.memory.added).toBeGreaterThan(0)
    expect(report.counts.skills.created).toBe(6)
    expect(new ImportBatches(core.db).get(report.importId!)!.problems).toEqual(report.problems)
  })

  it('reads an older state.db without titles: says what is missing and imports the conversations without them', async () => {
    const { core, hermes } = await setUp({ dropSessionColumns: ['title'] })
    const report = await importHermes(core, { path: hermes })
    expect(report.problems).toContainEqual({ file: 'state.db', message: 'its sessions table has no title: conversations came in without them.' })
    expect(report.counts.sessions.added).toBe(3)
    expect(core.sessions.list({ source: 'import:hermes' }).map((session) => session.title)).toEqual([null, null, null])
  })

  it('never overwrites a Cairn skill of the same name: the same text is skipped, a different one becomes a proposal', async () => {
    const { core, hermes } = await setUp()
    const hermesOpenhue = readFileSync(join(hermes, 'skills', 'smart-home', 'openhue', 'SKILL.md'), 'utf8')
    expect((await core.skills.create({ name: 'openhue', category: 'smart-home', content: hermesOpenhue }, { source: 'user' })).success).toBe(true)
    const mine = '---\nname: songsee\ndescription: My own spectrogram notes.\n---\n\n# songsee\n\nUse the mel view first.\n'
    expect((await core.skills.create({ name: 'songsee', content: mine }, { source: 'user' })).success).toBe(true)

    const report = await importHermes(core, { path: hermes })
    expect(report.counts.skills).toMatchObject({ created: 5, identical: 1, proposed: 1 })
    expect(readFileSync(core.skills.get('songsee')!.path, 'utf8')).toBe(mine)
    const [proposal] = new ProposalStore(core.db).list({ states: ['pending'] }).filter((entry) => entry.kind === 'skill.edit')
    expect(proposal).toMatchObject({ target: 'skills/songsee/SKILL.md', before: mine, cause: 'imported_skill', reviewId: `import:${report.importId}` })
    expect(proposal.after).toContain('Audio spectrograms/features')

    const again = await importHermes(core, { path: hermes })
    expect(again.counts.skills).toMatchObject({ created: 0, identical: 6, proposed: 0 })
  })

  it('undo reverts everything it can, reports the entry the user changed since and keeps a conversation they continued', async () => {
    const { core, hermes } = await setUp()
    const report = await importHermes(core, { path: hermes })
    const edited = await core.memory.replace('memory', 'Loki', 'Logs are in Loki; Grafana is at grafana.harbor.internal.', { write: { source: 'user' } })
    expect(edited.success).toBe(true)
    // The user went on with one imported conversation in Cairn after the import.
    const continued = core.sessions.list({ source: 'import:hermes' })[0]
    const finishedAt = new ImportBatches(core.db).get(report.importId!)!.finishedAt!
    core.sessions.append(continued.id, { role: 'user', content: 'One more question about this.', createdAt: finishedAt + 1 })

    const result = await undoImport(core, report.importId!)
    if (!result.ok) throw new Error(result.error)
    expect(result.complete).toBe(false)
    expect(result.conflicts).toEqual([expect.objectContaining({ target: 'memories/MEMORY.md' })])
    // The entries that went to the archive for lack of room are undone with the rest.
    expect(report.counts.memory.archived).toBeGreaterThan(0)
    expect(result.reverted).toBe(report.counts.memory.added + report.counts.memory.archived + report.counts.skills.created + report.counts.skills.files - 1)
    expect(core.archive.all().filter((entry) => entry.source === 'imported')).toEqual([])
    expect(core.memory.read('memory').entries).toContain('Logs are in Loki; Grafana is at grafana.harbor.internal.')
    expect(core.memory.read('memory').entries.some((entry) => entry.startsWith('The monorepo lives'))).toBe(false)
    expect(core.skills.list()).toEqual([])
    expect(result).toMatchObject({ sessionsRemoved: 2, sessionsKept: 1 })
    expect(core.sessions.list({ source: 'import:hermes' }).map((session) => session.id)).toEqual([continued.id])
    expect(new ImportBatches(core.db).get(report.importId!)!.revertedAt).toBeNull()
  })
})

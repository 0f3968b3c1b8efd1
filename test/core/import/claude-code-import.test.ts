import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { defaultClaudeCodeHome, importClaudeCode, ImportBatches, undoImport } from '../../../electron/core/import'
import { Inbox } from '../../../electron/core/learning/host/proposal-apply'
import { ProposalStore } from '../../../electron/core/ledger/proposals'
import { specIssues } from '../../../electron/core/skills/agent-skills-spec'
import { claudeCodeHome } from './agent-homes'
import { CAIRN_MEMORY, CAIRN_USER, cairnHome, filesOf } from './hermes-home'

const IMPORTED_SKILLS = ['codebase-inspection', 'songsee']
const BILLING = 'projects/-home-mira-src-billing'

const cores: CairnCore[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function open(home: string): Promise<CairnCore> {
  const core = await CairnCore.open({ home })
  cores.push(core)
  return core
}

async function setUp(): Promise<{ core: CairnCore; claude: string; home: string }> {
  const home = await cairnHome()
  const claude = claudeCodeHome()
  dirs.push(home, join(claude, '..'))
  return { core: await open(home), claude, home }
}

function pending(core: CairnCore) {
  return new ProposalStore(core.db).list({ states: ['pending'], oldestFirst: true })
}

function visibleState(core: CairnCore, home: string) {
  return {
    memory: readFileSync(join(home, 'memories', 'MEMORY.md')),
    user: readFileSync(join(home, 'memories', 'USER.md')),
    skills: new Map([...filesOf(join(home, 'skills'))].filter(([path]) => !path.startsWith('.archive/'))),
    pending: pending(core).map((proposal) => proposal.after)
  }
}

describe('cairn import claude-code: Claude Code memories are candidates, its skills come in', () => {
  it('proposes each memory and CLAUDE.md entry in the Inbox, writes no memory, and copies the skills', async () => {
    const { core, claude, home } = await setUp()
    const memoryBefore = readFileSync(join(home, 'memories', 'MEMORY.md'))
    const userBefore = readFileSync(join(home, 'memories', 'USER.md'))
    const report = await importClaudeCode(core, { path: claude })

    // Nothing learned silently: both memory files are untouched, every candidate waits for the user.
    expect(readFileSync(join(home, 'memories', 'MEMORY.md'))).toEqual(memoryBefore)
    expect(readFileSync(join(home, 'memories', 'USER.md'))).toEqual(userBefore)
    expect(core.memory.read('memory').entries).toEqual(CAIRN_MEMORY)
    expect(core.memory.read('user').entries).toEqual(CAIRN_USER)
    const waiting = pending(core)
    expect(report.counts.memory).toEqual({ added: 0, duplicates: 1, archived: 0, proposed: waiting.length, refused: 0 })
    expect(waiting.every((proposal) => proposal.kind === 'memory.add' && proposal.reviewId === `import:${report.importId}`)).toBe(true)
    expect(new Set(waiting.map((proposal) => proposal.cause))).toEqual(new Set(['imported_memory']))

    // A `user` memory goes to USER.md, the others to MEMORY.md; the body, blank lines dropped, is the entry.
    const byText = new Map(waiting.map((proposal) => [proposal.after, proposal]))
    expect(byText.get('Mira is a senior Go developer on the billing team and new to the React side of the codebase.\nFrame frontend explanations in terms of backend ideas she already knows.'))
      .toMatchObject({ target: 'memories/USER.md', meta: { store: 'user' } })
    expect(byText.get('Merge freeze on the invoice service from 2026-12-05 while the mobile team cuts the release branch.')).toMatchObject({
      target: 'memories/MEMORY.md',
      meta: { store: 'memory' },
      rationale: expect.stringContaining(`${BILLING}/memory/project_invoice_freeze.md`)
    })
    // CLAUDE.md files, split into entries with their headings as context.
    expect(byText.has('Personal preferences: Use pnpm, never npm, in JavaScript projects.')).toBe(true)
    expect(byText.has('Personal preferences > Go: Run `go vet ./...` before proposing a commit.')).toBe(true)
    expect(byText.has('Billing service: Money is always an integer number of cents; never use floats for amounts.')).toBe(true)
    // The MEMORY.md index only points at memories; what Cairn already knows is not proposed again.
    expect(waiting.some((proposal) => proposal.after?.includes('](user_role.md)'))).toBe(false)
    expect(waiting.some((proposal) => proposal.after?.includes('Deploys go out on Tuesdays'))).toBe(false)
    expect(waiting).toHaveLength(7)
    expect(report.problems).toEqual([
      { file: `${BILLING}/memory/reference_grafana.md`, line: 4, message: expect.stringMatching(/^not imported: YAML frontmatter parse error/) }
    ])

    // Approving one writes it, like any proposal.
    const freeze = byText.get('Merge freeze on the invoice service from 2026-12-05 while the mobile team cuts the release branch.')!
    expect(await new Inbox(core).approve(freeze.id)).toMatchObject({ ok: true })
    expect(core.memory.read('memory').entries).toContain(freeze.after)

    // Skills are copied into Cairn's own, as valid Agent Skills, on the batch's timeline.
    expect(report.counts.skills).toMatchObject({ created: 2, refused: 0 })
    for (const name of IMPORTED_SKILLS) {
      const skill = core.skills.get(name)!
      expect(skill.readOnly).toBe(false)
      expect(specIssues(readFileSync(skill.path, 'utf8'), name)).toEqual([])
    }
    const rows = core.ledger.list({ reviewId: `import:${report.importId}`, sources: ['import'] })
    expect(rows.map((row) => row.kind)).toEqual(['skill.create', 'skill.create'])
  })

  it('adds nothing when imported again, and undo withdraws the candidates and removes the skills', async () => {
    const { core, claude, home } = await setUp()
    const before = visibleState(core, home)
    const first = await importClaudeCode(core, { path: claude })
    const afterFirst = visibleState(core, home)
    const second = await importClaudeCode(core, { path: claude })
    expect(visibleState(core, home)).toEqual(afterFirst)
    expect(second.counts.memory).toMatchObject({ added: 0, proposed: 0 })
    expect(second.counts.skills).toMatchObject({ created: 0, identical: 2 })

    const undone = await undoImport(core, first.importId!)
    expect(undone).toMatchObject({ ok: true, conflicts: [], proposalsWithdrawn: 7, complete: true })
    core.skills.load()
    expect(visibleState(core, home)).toEqual(before)
    expect(new ProposalStore(core.db).list({ states: ['superseded'] })).toHaveLength(7)
  })

  it('a dry run reports the same and changes nothing', async () => {
    const { core, claude, home } = await setUp()
    const before = visibleState(core, home)
    const dry = await importClaudeCode(core, { path: claude, dryRun: true })
    expect(visibleState(core, home)).toEqual(before)
    expect(new ImportBatches(core.db).list()).toEqual([])
    const real = await importClaudeCode(core, { path: claude })
    expect(dry.counts).toEqual(real.counts)
    expect(dry.problems).toEqual(real.problems)
  })

  it('refuses a memory longer than the whole file may be, by name and line, and proposes the rest', async () => {
    const { core, claude } = await setUp()
    const long = `---\nname: huge\ndescription: too long\ntype: user\n---\n\n${'Mira keeps notes on every meeting. '.repeat(60)}\n`
    writeFileSync(join(claude, BILLING, 'memory', 'user_notes.md'), long)
    writeFileSync(join(claude, BILLING, 'memory', 'empty.md'), '---\nname: empty\ntype: project\n---\n\n')
    const report = await importClaudeCode(core, { path: claude })
    expect(report.problems).toContainEqual({
      file: `${BILLING}/memory/user_notes.md`,
      line: 7,
      message: expect.stringMatching(/^entry not imported: it is \d+ characters and Cairn's USER\.md holds 1375 in all\.$/)
    })
    expect(report.problems).toContainEqual({ file: `${BILLING}/memory/empty.md`, message: 'not imported: it holds no text to remember.' })
    expect(report.counts.memory).toMatchObject({ proposed: 7, refused: 1 })
    expect(core.memory.read('user').entries).toEqual(CAIRN_USER)
  })

  it('copies the skills Cairn already reads from ~/.claude/skills (skills.extraDirs) into its own, where they shadow the read-only ones', async () => {
    const { core, claude, home } = await setUp()
    await core.config.update({ skills: { extraDirs: [join(claude, 'skills')] } })
    await core.close()
    cores.splice(0)
    const reopened = await open(home)
    const readOnly = reopened.skills.get('songsee')!
    expect(readOnly.readOnly).toBe(true)
    const claudeFile = readFileSync(readOnly.path)

    const dry = await importClaudeCode(reopened, { path: claude, dryRun: true })
    const report = await importClaudeCode(reopened, { path: claude })
    expect(dry.counts.skills).toEqual(report.counts.skills)
    expect(report.counts.skills).toMatchObject({ created: 2, refused: 0 })
    expect(report.problems.filter((problem) => problem.file.startsWith('skills/'))).toEqual([])
    for (const name of IMPORTED_SKILLS) {
      const copy = reopened.skills.get(name)!
      expect(copy.readOnly, name).toBe(false)
      expect(copy.path.startsWith(join(home, 'skills')), name).toBe(true)
    }
    // Claude Code's own file is never touched, and importing again finds the copies the same.
    expect(readFileSync(readOnly.path)).toEqual(claudeFile)
    expect((await importClaudeCode(reopened, { path: claude })).counts.skills).toMatchObject({ created: 0, identical: 2 })

    // Undo takes the copies away and Cairn reads Claude Code's skills again.
    expect(await undoImport(reopened, report.importId!)).toMatchObject({ ok: true, complete: true })
    expect(reopened.skills.get('songsee')).toMatchObject({ path: readOnly.path, readOnly: true })
    expect(defaultClaudeCodeHome({ HOME: '/home/mira' })).toBe('/home/mira/.claude')
    expect(defaultClaudeCodeHome({ HOME: '/home/mira', CLAUDE_CONFIG_DIR: '/cfg/claude' })).toBe('/cfg/claude')
  })
})

import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { defaultOpenClawWorkspace, importOpenClaw, ImportBatches, ImportSourceError, undoImport } from '../../../electron/core/import'
import { ProposalStore } from '../../../electron/core/ledger/proposals'
import { searchSessions } from '../../../electron/core/sessions/session-search'
import { specIssues } from '../../../electron/core/skills/agent-skills-spec'
import { skillOrigin } from '../../../electron/core/skills/skill-items'
import { openClawWorkspace } from './agent-homes'
import { CAIRN_MEMORY, CAIRN_USER, cairnHome, filesOf, tempDir } from './hermes-home'

const IMPORTED_SKILLS = ['apple-reminders', 'gh-triage', 'obsidian', 'weather-brief']
/** Calls tenor.googleapis.com: a network destination, so it waits in the Inbox (ledger/learning-policy.ts). */
const RISKY_SKILL = 'gif-search'

const cores: CairnCore[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function setUp(): Promise<{ core: CairnCore; workspace: string; home: string }> {
  const home = await cairnHome()
  const workspace = openClawWorkspace()
  dirs.push(home, join(workspace, '..', '..'))
  const core = await CairnCore.open({ home })
  cores.push(core)
  return { core, workspace, home }
}

/** What a user can see of the data home: memory files byte for byte, skill files, conversations, the Inbox. */
function visibleState(core: CairnCore, home: string) {
  return {
    memory: readFileSync(join(home, 'memories', 'MEMORY.md')),
    user: readFileSync(join(home, 'memories', 'USER.md')),
    skills: new Map([...filesOf(join(home, 'skills'))].filter(([path]) => !path.startsWith('.archive/'))),
    sessions: core.sessions.list({ limit: 1000 }).map((session) => session.id),
    pending: new ProposalStore(core.db).list({ states: ['pending'] }).map((proposal) => proposal.after)
  }
}

describe('cairn import openclaw: an OpenClaw workspace comes in as one batch', () => {
  it('merges MEMORY.md and USER.md by entry, keeps daily logs as searchable notes and imports the skills OpenClaw uses', async () => {
    const { core, workspace } = await setUp()
    const report = await importOpenClaw(core, { path: workspace })
    expect(report).toMatchObject({ source: 'openclaw', path: workspace, dryRun: false })

    // Memory: each bullet or paragraph one entry, its heading as context; what Cairn knew is not repeated.
    const memory = core.memory.read('memory').entries
    expect(memory.slice(0, 2)).toEqual(CAIRN_MEMORY)
    expect(memory.filter((entry) => entry.includes('atlas'))).toHaveLength(1)
    expect(memory).toContain('Preferences: Prefers tabs over spaces in Go and Makefiles.')
    expect(memory).toContain('Work: Staging database:\n  - host: db-staging.internal\n  - it is reset every Sunday night, so nothing there lasts.')
    expect(memory).toContain('Important decisions: 2026-11-03: moved CI from Jenkins to GitHub Actions.')
    expect(memory.join('\n')).not.toMatch(/MEMORY\.md|Ignore all previous/)
    expect(report.problems).toContainEqual(expect.objectContaining({ file: 'MEMORY.md', line: 22, message: expect.stringMatching(/^entry not imported: /) }))
    const user = core.memory.read('user').entries
    expect(user[0]).toBe(CAIRN_USER[0])
    expect(user).toContain('**Timezone**: Europe/Lisbon')
    expect(report.counts.memory).toEqual({ added: 10, duplicates: 2, archived: 0, proposed: 0, refused: 1 })

    // Instructions are not memory: named, left out.
    for (const file of ['AGENTS.md', 'SOUL.md']) {
      expect(report.problems).toContainEqual({ file, message: expect.stringMatching(/^not imported: it is OpenClaw's .*, instructions rather than memory\.$/) })
    }

    // Skills from skills/, .agents/skills/ and ~/.openclaw/skills; the workspace's own copy wins a name.
    expect(report.counts.skills).toMatchObject({ created: IMPORTED_SKILLS.length, proposed: 1, refused: 1 })
    expect(core.skills.list().map((skill) => skill.name).sort()).toEqual(IMPORTED_SKILLS)
    const [risky] = new ProposalStore(core.db).list({ states: ['pending'] })
    expect(risky).toMatchObject({ kind: 'skill.create', before: null, cause: 'dangerous_content', meta: { skill: RISKY_SKILL, dangers: [{ code: 'network_destination', detail: 'tenor.googleapis.com' }] } })
    for (const name of IMPORTED_SKILLS) {
      const skill = core.skills.get(name)!
      expect(specIssues(readFileSync(skill.path, 'utf8'), name), name).toEqual([])
      expect(skillOrigin(core, skill)).toBe('import')
    }
    expect(readFileSync(core.skills.get('obsidian')!.path, 'utf8')).toContain('filesystem-first Obsidian vault work')
    expect(report.problems).toContainEqual({ file: '.agents/skills/obsidian', message: 'not imported: OpenClaw uses skills/obsidian of the same name instead.' })
    // The front matter opened on line 3 runs into its closing line 4 without closing its list.
    expect(report.problems).toContainEqual(expect.objectContaining({ file: 'skills/half-done/SKILL.md', line: 4, message: expect.stringMatching(/^not imported: YAML/) }))

    // Daily logs: one searchable note each, never memory; other files in memory/ are named and left out.
    expect(report.counts.sessions).toEqual({ added: 3, existing: 0, messages: 3 })
    const hit = searchSessions(core.db, 'invoice rounding wall clock').sessions[0]
    expect(hit.title).toBe('OpenClaw notes 2026-11-20')
    const session = core.sessions.get(hit.sessionId)!
    expect(session).toMatchObject({ source: 'import:openclaw', startedAt: Date.UTC(2026, 10, 20) })
    expect(core.sessions.messages(session.id)[0].content).toBe(readFileSync(join(workspace, 'memory', '2026-11-20.md'), 'utf8').trim())
    expect(searchSessions(core.db, 'pastelaria').sessions[0].title).toBe('OpenClaw notes 2026-11-23 (offsite-agenda)')
    expect(memory.join('\n')).not.toContain('Lisbon on the 28th')
    expect(report.problems).toContainEqual({ file: 'memory/context-digest.md', message: expect.stringMatching(/^left out: only the daily logs/) })

    // One batch on the timeline.
    const rows = core.ledger.list({ reviewId: `import:${report.importId}`, limit: 1000 })
    expect(rows.every((row) => row.source === 'import')).toBe(true)
    expect(rows).toHaveLength(report.counts.memory.added + report.counts.skills.created)
    expect(new ImportBatches(core.db).list()[0]).toMatchObject({ id: report.importId, source: 'openclaw', counts: report.counts })
  })

  it('adds nothing when the same workspace is imported again', async () => {
    const { core, workspace, home } = await setUp()
    await importOpenClaw(core, { path: workspace })
    const before = visibleState(core, home)
    const second = await importOpenClaw(core, { path: workspace })
    expect(visibleState(core, home)).toEqual(before)
    expect(second.counts.memory).toMatchObject({ added: 0, proposed: 0, duplicates: 12 })
    expect(second.counts.skills).toMatchObject({ created: 0, identical: IMPORTED_SKILLS.length, proposed: 0 })
    expect(second.counts.sessions).toEqual({ added: 0, existing: 3, messages: 0 })
    expect(core.ledger.list({ reviewId: `import:${second.importId}` })).toEqual([])
  })

  it('undoes the whole batch, and a dry run reports the same and changes nothing', async () => {
    const { core, workspace, home } = await setUp()
    const before = visibleState(core, home)
    const dry = await importOpenClaw(core, { path: workspace, dryRun: true })
    expect(dry.importId).toBeNull()
    expect(visibleState(core, home)).toEqual(before)
    expect(new ImportBatches(core.db).list()).toEqual([])

    const report = await importOpenClaw(core, { path: workspace })
    expect(dry.counts).toEqual(report.counts)
    expect(dry.problems).toEqual(report.problems)
    const undone = await undoImport(core, report.importId!)
    expect(undone).toMatchObject({ ok: true, conflicts: [], sessionsRemoved: 3, complete: true })
    core.skills.load()
    expect(visibleState(core, home)).toEqual(before)
  })

  it('reports a log that is not text and entries over the limit go to the archive, the rest still comes in', async () => {
    const { core, workspace } = await setUp()
    writeFileSync(join(workspace, 'memory', '2026-11-22.md'), Buffer.from([0x2d, 0x20, 0xff, 0xfe, 0x0a]))
    writeFileSync(join(workspace, 'memory', '2026-02-31.md'), '- a day that never was\n')
    await core.config.update({ memory: { memoryCharLimit: 300 } })
    const report = await importOpenClaw(core, { path: workspace })
    expect(report.problems).toContainEqual({ file: 'memory/2026-11-22.md', message: 'could not be read as UTF-8 text; nothing in it came in.' })
    expect(report.problems).toContainEqual(expect.objectContaining({ file: 'memory/2026-02-31.md', message: expect.stringMatching(/^left out/) }))
    expect(report.counts.sessions.added).toBe(3)

    const memory = core.memory.read('memory')
    expect(memory.usage.current).toBeLessThanOrEqual(300)
    expect(new ProposalStore(core.db).list({ states: ['pending'] }).filter((proposal) => proposal.kind.startsWith('memory.'))).toEqual([])
    const archived = core.archive.list({ target: 'memory', limit: 500 })
    expect(archived.length).toBe(report.counts.memory.archived)
    expect(archived.length).toBeGreaterThan(0)
    expect(new Set(archived.map((entry) => entry.source))).toEqual(new Set(['imported']))
    // Nothing was cut: every entry is either in the file or in the archive.
    for (const entry of ['Preferences: Prefers tabs over spaces in Go and Makefiles.', 'Important decisions: 2026-11-17: the mobile app stays on React Native until spring.']) {
      expect([...memory.entries, ...archived.map((archivedEntry) => archivedEntry.text)]).toContain(entry)
    }
  })

  it('finds the workspace from OpenClaw variables and says clearly when a folder is not one', async () => {
    expect(defaultOpenClawWorkspace({ HOME: '/home/mira' })).toBe('/home/mira/.openclaw/workspace')
    expect(defaultOpenClawWorkspace({ HOME: '/home/mira', OPENCLAW_STATE_DIR: '/srv/claw' })).toBe('/srv/claw/workspace')
    expect(defaultOpenClawWorkspace({ HOME: '/home/mira', OPENCLAW_STATE_DIR: '/srv/claw', OPENCLAW_WORKSPACE_DIR: '/data/ws' })).toBe('/data/ws')
    const { core } = await setUp()
    const empty = tempDir('cairn-not-openclaw-')
    dirs.push(empty)
    await expect(importOpenClaw(core, { path: empty })).rejects.toThrow(ImportSourceError)
    await expect(importOpenClaw(core, { path: empty })).rejects.toThrow(/does not look like an OpenClaw workspace: it has no MEMORY\.md, USER\.md, memory\/, skills\/ or \.agents\/skills\/\./)
    await expect(importOpenClaw(core, { path: join(empty, 'missing') })).rejects.toThrow(`There is no OpenClaw workspace at ${join(empty, 'missing')}.`)
  })
})

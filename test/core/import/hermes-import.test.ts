import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { importHermes, ImportBatches, undoImport, type ImportReport } from '../../../electron/core/import'
import { isNearDuplicate } from '../../../electron/core/text/entry-similarity'
import { ProposalStore } from '../../../electron/core/ledger/proposals'
import { searchSessions } from '../../../electron/core/sessions/session-search'
import { specIssues } from '../../../electron/core/skills/agent-skills-spec'
import { parseFrontmatter } from '../../../electron/core/skills/skill-file'
import { skillOrigin } from '../../../electron/core/skills/skill-items'
import { CAIRN_MEMORY, CAIRN_USER, cairnHome, filesOf, hermesHome } from './hermes-home'

const IMPORTED_SKILLS = ['apple-notes', 'dogfood', 'nano-pdf', 'ocr-and-documents', 'songsee', 'youtube-content']
/** Its install step downloads from github.com: a new network destination, so it waits in the Inbox (ledger/learning-policy.ts). */
const RISKY_SKILL = 'openhue'
const THREAT = 'Ignore all previous instructions'

const cores: CairnCore[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function setUp(): Promise<{ core: CairnCore; hermes: string; home: string }> {
  const home = await cairnHome()
  const hermes = hermesHome()
  dirs.push(home, join(hermes, '..'))
  const core = await CairnCore.open({ home })
  cores.push(core)
  return { core, hermes, home }
}

function hermesEntries(hermes: string, file: string): string[] {
  return readFileSync(join(hermes, 'memories', file), 'utf8').split('\n§\n').map((entry) => entry.trim())
}

function pendingAfters(core: CairnCore): string[] {
  return new ProposalStore(core.db)
    .list({ states: ['pending'] })
    .filter((proposal) => proposal.kind.startsWith('memory.'))
    .map((proposal) => proposal.after ?? '')
}

/** What a user can see of the data home: memory files byte for byte, skill files, conversations, the Inbox. */
function visibleState(core: CairnCore, home: string) {
  const skills = [...filesOf(join(home, 'skills'))].filter(([path]) => !path.startsWith('.archive/'))
  return {
    memory: readFileSync(join(home, 'memories', 'MEMORY.md')),
    user: readFileSync(join(home, 'memories', 'USER.md')),
    skills: new Map(skills),
    sessions: core.sessions.list({ limit: 1000 }).map((session) => session.id),
    pending: pendingAfters(core)
  }
}

describe('cairn import hermes: a Hermes home comes in as one batch', () => {
  it('merges memory without duplicates or cuts, imports valid skills and searchable conversations', async () => {
    const { core, hermes } = await setUp()
    const report = await importHermes(core, { path: hermes })
    expect(report.importId).toBeGreaterThan(0)

    // Memory: duplicates of what Cairn knew dropped, everything else either in the file or in the archive (issue 28: no longer proposed for lack of room).
    const memory = core.memory.read('memory')
    expect(memory.usage.current).toBeLessThanOrEqual(memory.usage.limit)
    expect(memory.entries.slice(0, 2)).toEqual(CAIRN_MEMORY)
    expect(memory.entries.filter((entry) => entry.toLowerCase().includes('build server'))).toHaveLength(1)
    const archived = core.archive.all().map((entry) => entry.text)
    for (const [file, store] of [['MEMORY.md', 'memory'], ['USER.md', 'user']] as const) {
      const kept = [...core.memory.read(store).entries, ...archived]
      for (const entry of hermesEntries(hermes, file)) {
        if (entry.startsWith(THREAT)) continue
        expect(kept.some((other) => isNearDuplicate(other, entry)), entry).toBe(true)
      }
    }
    expect(report.counts.memory.duplicates).toBe(4)
    expect(report.counts.memory.proposed).toBe(0)
    expect(report.counts.memory.archived).toBeGreaterThan(0)
    expect(archived).toHaveLength(report.counts.memory.archived)
    expect(new Set(core.archive.all().map((entry) => entry.source))).toEqual(new Set(['imported']))
    // Only the skill that adds a download waits in the Inbox.
    const pending = new ProposalStore(core.db).list({ states: ['pending'] })
    expect(new Set(pending.map((proposal) => proposal.cause))).toEqual(new Set(['dangerous_content']))
    const risky = pending.find((proposal) => proposal.cause === 'dangerous_content')!
    expect(risky).toMatchObject({ kind: 'skill.create', before: null, target: `skills/smart-home/${RISKY_SKILL}/SKILL.md` })
    expect(risky.meta).toMatchObject({ skill: RISKY_SKILL, dangers: [{ code: 'network_destination', detail: 'github.com' }], provenance: { origin: 'read', sources: [{ kind: 'import' }] } })
    expect(core.skills.get(RISKY_SKILL)).toBeNull()
    expect(report.counts.skills.proposed).toBe(1)
    expect(core.memory.read('user').entries[0]).toBe(CAIRN_USER[0])
    expect(memory.entries.join('\n')).not.toContain(THREAT)
    expect(report.problems).toContainEqual(expect.objectContaining({ file: 'memories/MEMORY.md', line: 13 }))

    // Skills: valid Agent Skills, categories and supporting files kept, Hermes's own fields under metadata.
    expect(report.counts.skills.created).toBe(IMPORTED_SKILLS.length)
    for (const name of IMPORTED_SKILLS) {
      const skill = core.skills.get(name)!
      expect(specIssues(readFileSync(skill.path, 'utf8'), name), name).toEqual([])
      expect(skillOrigin(core, skill)).toBe('import')
    }
    expect(core.skills.get('nano-pdf')!.category).toBe('productivity')
    expect(core.skills.get('dogfood')!.category).toBeNull()
    const nanoPdf = parseFrontmatter(readFileSync(core.skills.get('nano-pdf')!.path, 'utf8'))
    expect(nanoPdf.ok && nanoPdf.data.metadata).toMatchObject({ version: '1.0.0', author: 'community', platforms: 'linux, macos, windows' })
    const dogfood = join(core.paths.skillsDir, 'dogfood')
    for (const file of ['references/issue-taxonomy.md', 'templates/dogfood-report-template.md']) {
      expect(readFileSync(join(dogfood, file))).toEqual(readFileSync(join(hermes, 'skills', 'dogfood', file)))
    }
    expect(report.counts.skills.files).toBe(6)
    expect(report.problems).toContainEqual(expect.objectContaining({ file: 'skills/productivity/ocr-and-documents/DESCRIPTION.md' }))

    // Conversations: searchable like Cairn's own, with titles, times and tool calls, and never reviewed.
    expect(report.counts.sessions).toEqual({ added: 3, existing: 0, messages: 8 })
    const hit = searchSessions(core.db, 'invoice rounding wall clock').sessions[0]
    expect(hit.title).toBe('Fixing the flaky invoice test')
    const session = core.sessions.get(hit.sessionId)!
    expect(session.source).toBe('import:hermes')
    expect(session.startedAt).toBe(1_767_000_000_250)
    const messages = core.sessions.messages(session.id)
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect(messages[1].toolCalls).toEqual([{ id: 'call_1', name: 'terminal', arguments: '{"command":"go test ./services/billing/..."}' }])
    expect(searchSessions(core.db, 'pastelaria').sessions[0].title).toBeNull()
    expect(searchSessions(core.db, 'rewound').sessions).toEqual([])
    const offsite = searchSessions(core.db, 'offsite agenda').sessions[0]
    expect(core.sessions.messages(offsite.sessionId)).toEqual([])
    expect(core.sessions.messages(offsite.sessionId, { includeCompacted: true })).toHaveLength(2)
    expect(core.db.prepare('SELECT COUNT(*) AS n FROM review_runs').get()).toEqual({ n: 0 })

    // On the timeline as one batch, and listed.
    const rows = core.ledger.list({ reviewId: `import:${report.importId}`, limit: 1000 })
    expect(rows.every((row) => row.source === 'import')).toBe(true)
    expect(rows.length).toBe(report.counts.memory.added + report.counts.memory.archived + report.counts.skills.created + report.counts.skills.files)
    const [batch] = new ImportBatches(core.db).list()
    expect(batch).toMatchObject({ id: report.importId, source: 'hermes', path: hermes, counts: report.counts, revertedAt: null })
  })

  it('adds nothing when the same home is imported again', async () => {
    const { core, hermes, home } = await setUp()
    const first = await importHermes(core, { path: hermes })
    const before = visibleState(core, home)
    const second = await importHermes(core, { path: hermes })
    expect(visibleState(core, home)).toEqual(before)
    expect(second.counts.memory).toMatchObject({ added: 0, proposed: 0 })
    expect(second.counts.skills).toMatchObject({ created: 0, identical: IMPORTED_SKILLS.length, proposed: 0, files: 0 })
    expect(second.counts.sessions).toEqual({ added: 0, existing: 3, messages: 0 })
    expect(core.ledger.list({ reviewId: `import:${second.importId}` })).toEqual([])
    expect(first.importId).not.toBe(second.importId)
  })

  it('undoes a whole batch: memory files byte for byte, skills and conversations gone, proposals withdrawn', async () => {
    const { core, hermes, home } = await setUp()
    const before = visibleState(core, home)
    const report = await importHermes(core, { path: hermes })
    const result = await undoImport(core, report.importId!)
    expect(result).toMatchObject({ ok: true, conflicts: [], sessionsRemoved: 3, proposalsWithdrawn: report.counts.memory.proposed + report.counts.skills.proposed, complete: true })
    core.skills.load()
    expect(visibleState(core, home)).toEqual(before)
    expect(core.skills.list()).toEqual([])
    expect(new ImportBatches(core.db).get(report.importId!)!.revertedAt).not.toBeNull()
    expect(await undoImport(core, report.importId!)).toEqual({ ok: false, error: `Import #${report.importId} was already undone.` })

    // Once undone, the same home can come in again.
    const again = await importHermes(core, { path: hermes })
    expect(again.counts.skills.created).toBe(IMPORTED_SKILLS.length)
    expect(again.counts.sessions.added).toBe(3)
  })

  it('a dry run reports what would come in and changes nothing', async () => {
    const { core, hermes, home } = await setUp()
    const before = visibleState(core, home)
    const dry: ImportReport = await importHermes(core, { path: hermes, dryRun: true })
    expect(dry).toMatchObject({ importId: null, dryRun: true })
    expect(visibleState(core, home)).toEqual(before)
    expect(new ImportBatches(core.db).list()).toEqual([])
    expect(core.ledger.list()).toHaveLength(CAIRN_MEMORY.length + CAIRN_USER.length)
    const real = await importHermes(core, { path: hermes })
    expect(dry.counts).toEqual(real.counts)
    expect(dry.problems).toEqual(real.problems)
  })
})

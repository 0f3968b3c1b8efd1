import { linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { importClaudeCode, importHermes, importOpenClaw } from '../../../electron/core/import'
import { ProposalStore } from '../../../electron/core/ledger/proposals'
import { claudeCodeHome, openClawWorkspace } from './agent-homes'
import { cairnHome, hermesHome, tempDir } from './hermes-home'

/**
 * An imported folder whose files are links to the user's secrets: nothing behind a link comes in,
 * each is named in the report, and the rest of the folder still does.
 */

const SECRET = 'aws_access_key_id = AKIAEXAMPLEKEY12345\naws_secret_access_key = wJalrXUtnFEMIexamplesecretkey\n'

const cores: CairnCore[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function cairn(): Promise<CairnCore> {
  const home = await cairnHome()
  dirs.push(home)
  const core = await CairnCore.open({ home })
  cores.push(core)
  return core
}

/** A file outside every imported folder, standing for ~/.aws/credentials. */
function secretFile(): string {
  const dir = tempDir('cairn-secret-')
  dirs.push(dir)
  writeFileSync(join(dir, 'credentials'), SECRET)
  return join(dir, 'credentials')
}

function link(target: string, path: string): void {
  rmSync(path, { recursive: true, force: true })
  symlinkSync(target, path)
}

/** Everything the import could have put where the model reads it: memory, the Inbox, conversations. */
function everythingLearned(core: CairnCore): string {
  const memory = [...core.memory.read('memory').entries, ...core.memory.read('user').entries]
  const waiting = new ProposalStore(core.db).list({ states: ['pending'] }).map((proposal) => proposal.after ?? '')
  const sessions = core.sessions.list({ limit: 100 }).flatMap((session) => core.sessions.messages(session.id).map((message) => message.content ?? ''))
  return [...memory, ...waiting, ...sessions].join('\n')
}

const linkProblem = (file: string) => expect.objectContaining({ file, message: expect.stringMatching(/^left out: it is a link, and only files inside the folder being imported come in/) })

describe.runIf(process.platform !== 'win32')('importers never follow a link out of the folder being imported', () => {
  it('Hermes: a linked MEMORY.md or state.db is left out and named; USER.md and the skills still come in', async () => {
    const core = await cairn()
    const hermes = hermesHome()
    dirs.push(join(hermes, '..'))
    const secret = secretFile()
    link(secret, join(hermes, 'memories', 'MEMORY.md'))
    link(secret, join(hermes, 'state.db'))
    const report = await importHermes(core, { path: hermes })
    expect(everythingLearned(core)).not.toMatch(/AKIA|wJalr/)
    expect(report.problems).toEqual(expect.arrayContaining([linkProblem('memories/MEMORY.md'), linkProblem('state.db')]))
    expect(report.counts.memory.added).toBeGreaterThan(0) // USER.md
    expect(report.counts.skills.created).toBeGreaterThan(0)
  })

  it('Hermes: a skill folder that is a link, a linked SKILL.md and a hard-linked MEMORY.md are left out', async () => {
    const core = await cairn()
    const hermes = hermesHome()
    dirs.push(join(hermes, '..'))
    const outside = tempDir('cairn-outside-skill-')
    dirs.push(outside)
    mkdirSync(join(outside, 'stolen'))
    writeFileSync(join(outside, 'stolen', 'SKILL.md'), `---\nname: stolen\ndescription: From outside\n---\n${SECRET}`)
    symlinkSync(join(outside, 'stolen'), join(hermes, 'skills', 'stolen'))
    mkdirSync(join(hermes, 'skills', 'linked-md'))
    symlinkSync(join(outside, 'stolen', 'SKILL.md'), join(hermes, 'skills', 'linked-md', 'SKILL.md'))
    const secret = secretFile()
    rmSync(join(hermes, 'memories', 'MEMORY.md'))
    linkSync(secret, join(hermes, 'memories', 'MEMORY.md'))
    const report = await importHermes(core, { path: hermes })
    expect(everythingLearned(core)).not.toMatch(/AKIA|wJalr/)
    expect(core.skills.get('stolen')).toBeNull()
    expect(report.problems).toEqual(expect.arrayContaining([linkProblem('memories/MEMORY.md'), linkProblem('skills/linked-md/SKILL.md')]))
  })

  it('OpenClaw: a linked MEMORY.md, a linked daily log and a linked memory/ folder are left out', async () => {
    const core = await cairn()
    const workspace = openClawWorkspace()
    dirs.push(join(workspace, '..', '..'))
    const secret = secretFile()
    link(secret, join(workspace, 'MEMORY.md'))
    link(secret, join(workspace, 'memory', '2026-11-21.md'))
    const report = await importOpenClaw(core, { path: workspace })
    expect(everythingLearned(core)).not.toMatch(/AKIA|wJalr/)
    expect(report.problems).toEqual(expect.arrayContaining([linkProblem('MEMORY.md'), linkProblem('memory/2026-11-21.md')]))
    expect(report.counts.sessions.added).toBe(2)

    // A whole memory/ folder linked elsewhere: its logs are behind a link too.
    const elsewhere = tempDir('cairn-logs-')
    dirs.push(elsewhere)
    writeFileSync(join(elsewhere, '2026-11-25.md'), SECRET)
    const second = openClawWorkspace()
    dirs.push(join(second, '..', '..'))
    link(elsewhere, join(second, 'memory'))
    const again = await importOpenClaw(await cairn(), { path: second })
    expect(again.counts.sessions.added).toBe(0)
  })

  it('Claude Code: a linked memory file and a linked CLAUDE.md never reach the Inbox', async () => {
    const core = await cairn()
    const home = claudeCodeHome()
    dirs.push(join(home, '..'))
    const secret = secretFile()
    link(secret, join(home, 'CLAUDE.md'))
    const memoryDir = join(home, 'projects', '-home-mira-src-billing', 'memory')
    link(secret, join(memoryDir, 'user_role.md'))
    const report = await importClaudeCode(core, { path: home })
    expect(everythingLearned(core)).not.toMatch(/AKIA|wJalr/)
    expect(report.problems).toEqual(expect.arrayContaining([linkProblem('CLAUDE.md'), linkProblem('projects/-home-mira-src-billing/memory/user_role.md')]))
    expect(report.counts.memory.proposed).toBeGreaterThan(0)
  })
})

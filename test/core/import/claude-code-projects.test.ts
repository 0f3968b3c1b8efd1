import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { importClaudeCode, undoImport } from '../../../electron/core/import'
import { workspaceOfClaudeProject } from '../../../electron/core/import/claude-code-projects'
import { Inbox } from '../../../electron/core/learning/host/proposal-apply'
import { ProposalStore } from '../../../electron/core/ledger/proposals'
import { projectKeyFor } from '../../../electron/core/memory/project-key'
import { claudeCodeHome } from './agent-homes'
import { cairnHome, tempDir } from './hermes-home'

const cores: CairnCore[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** Claude Code's name for a project folder: the path with every character but letters and digits as `-`. */
function claudeProjectName(path: string): string {
  return path.replace(/[^a-zA-Z0-9]/g, '-')
}

/** A workspace on this machine whose path has the characters the encoding loses (`.`, `_`, `-`), beside a decoy that encodes alike up to a point. */
function workspaces(): { shop: string; root: string } {
  const root = realpathSync(tempDir('cairn-cc-ws-'))
  dirs.push(root)
  mkdirSync(join(root, 'my-shop.app', 'src'), { recursive: true })
  mkdirSync(join(root, 'my'), { recursive: true })
  return { shop: join(root, 'my-shop.app'), root }
}

describe("Claude Code's project memories go to that workspace's project memory when it exists here", () => {
  it('decodes a project folder name against the folders that exist, or answers null', () => {
    const { shop, root } = workspaces()
    expect(workspaceOfClaudeProject(claudeProjectName(shop))).toBe(shop)
    expect(workspaceOfClaudeProject(claudeProjectName(join(shop, 'src')))).toBe(join(shop, 'src'))
    expect(workspaceOfClaudeProject(claudeProjectName(join(root, 'gone')))).toBeNull()
    expect(workspaceOfClaudeProject('-home-mira-src-billing')).toBeNull()
    expect(workspaceOfClaudeProject('C--Users-mira')).toBeNull()
  })

  it('proposes them for the project (its PROJECT.md, named WORKSPACE.txt), user memories for USER.md; approving lands them in that project only', async () => {
    const { shop } = workspaces()
    const home = await cairnHome()
    const claude = claudeCodeHome()
    dirs.push(home, join(claude, '..'))
    const folder = join(claude, 'projects', claudeProjectName(shop))
    mkdirSync(join(folder, 'memory'), { recursive: true })
    writeFileSync(join(folder, 'CLAUDE.md'), '# Shop\n\n- Prices are stored in cents.\n')
    writeFileSync(join(folder, 'memory', 'feedback_tests.md'), '---\nname: tests\ndescription: how tests run\ntype: feedback\n---\n\nRun the shop tests with `pnpm vitest --run`.\n')
    writeFileSync(join(folder, 'memory', 'user_role.md'), '---\nname: role\ndescription: role\ntype: user\n---\n\nMira owns the checkout flow.\n')
    const core = await CairnCore.open({ home })
    cores.push(core)

    const report = await importClaudeCode(core, { path: claude })
    const project = `memories/projects/${projectKeyFor(shop)}/PROJECT.md`
    const waiting = new ProposalStore(core.db).list({ states: ['pending'] })
    const byText = new Map(waiting.map((proposal) => [proposal.after, proposal]))
    expect(byText.get('Shop: Prices are stored in cents.')).toMatchObject({ target: project, meta: { store: 'project' }, cause: 'imported_memory' })
    expect(byText.get('Run the shop tests with `pnpm vitest --run`.')).toMatchObject({ target: project, meta: { store: 'project' } })
    expect(byText.get('Mira owns the checkout flow.')).toMatchObject({ target: 'memories/USER.md', meta: { store: 'user' } })
    // A project folder naming no folder here goes where it always went.
    expect(byText.get('Merge freeze on the invoice service from 2026-12-05 while the mobile team cuts the release branch.')).toMatchObject({ target: 'memories/MEMORY.md' })
    expect(readFileSync(join(home, 'memories', 'projects', projectKeyFor(shop), 'WORKSPACE.txt'), 'utf8')).toBe(`${shop}\n`)

    const tests = byText.get('Run the shop tests with `pnpm vitest --run`.')!
    expect(await new Inbox(core).approve(tests.id)).toMatchObject({ ok: true })
    expect(core.memory.forWorkspace(shop).read('project').entries).toEqual([tests.after])
    expect(core.memory.read('memory').entries).not.toContain(tests.after)

    const again = await importClaudeCode(core, { path: claude })
    expect(again.counts.memory).toMatchObject({ proposed: 0 })
    expect((await undoImport(core, report.importId!)).ok).toBe(true)
  })
})

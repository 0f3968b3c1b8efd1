import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { projectKeyFor } from '../../../electron/core/memory/project-key'
import { runMemoryTool } from '../../../electron/core/memory'
import { NoProjectError } from '../../../electron/core/memory/project-scope'
import { setEntryPinned } from '../../../electron/core/memory/entry-pinning'
import { newTurnState } from '../../../electron/core/tools/types'

let home: string
let workspaceA: string
let workspaceB: string
let core: CairnCore

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-project-home-'))
  workspaceA = mkdtempSync(join(tmpdir(), 'cairn-project-a-'))
  workspaceB = mkdtempSync(join(tmpdir(), 'cairn-project-b-'))
  core = await CairnCore.open({ home })
})
afterEach(async () => {
  await core.close()
  for (const dir of [home, workspaceA, workspaceB]) rmSync(dir, { recursive: true, force: true })
})

const user = { write: { source: 'user' as const } }

describe('project memory', () => {
  it('is kept in the data home under the workspace key, beside a note naming the workspace, never in the repository', async () => {
    const result = await core.memory.forWorkspace(workspaceA).add('project', 'Tests run with make check', user)
    expect(result.success).toBe(true)
    const folder = join(home, 'memories', 'projects', projectKeyFor(workspaceA))
    expect(readFileSync(join(folder, 'PROJECT.md'), 'utf8')).toBe('Tests run with make check')
    expect(readFileSync(join(folder, 'WORKSPACE.txt'), 'utf8').trim()).toBe(core.memory.forWorkspace(workspaceA).project?.workspace)
    expect(existsSync(join(workspaceA, 'PROJECT.md'))).toBe(false)
    expect(core.ledger.list({}).at(0)).toMatchObject({ kind: 'memory.add', target: `memories/projects/${projectKeyFor(workspaceA)}/PROJECT.md`, meta: { store: 'project' } })
  })

  it("never shows one workspace's facts in another's snapshot", async () => {
    await core.memory.forWorkspace(workspaceA).add('project', 'The API lives in server/api', user)
    const a = core.memory.forWorkspace(workspaceA).loadSnapshot()
    const b = core.memory.forWorkspace(workspaceB).loadSnapshot()
    expect(a.project).toContain('PROJECT MEMORY')
    expect(a.project).toContain('The API lives in server/api')
    expect(b.project).toBeNull()
    // A store that knows no workspace has no project block at all.
    expect(core.memory.loadSnapshot().project).toBeUndefined()
  })

  it('finds the same memory through a symlinked path', async () => {
    const link = join(workspaceB, 'link-to-a')
    symlinkSync(workspaceA, link)
    await core.memory.forWorkspace(link).add('project', 'Deploys go through fly.io', user)
    expect(core.memory.forWorkspace(workspaceA).read('project').entries).toEqual(['Deploys go through fly.io'])
  })

  it('refuses the project target with a keyed error where no workspace is known', async () => {
    expect(() => core.memory.read('project')).toThrow(NoProjectError)
    const added = await core.memory.add('project', 'Anything', user)
    expect(added).toMatchObject({ success: false })
    const tool = await runMemoryTool(core.memory, { enabled: true, userProfileEnabled: true }, { action: 'add', target: 'project', content: 'x' }, { ...user, turn: newTurnState() })
    expect(tool).toMatchObject({ success: false, error: expect.stringMatching(/no workspace/) })
  })

  it('keeps its own limit (memory.projectCharLimit): an add past it is refused for the user and archived under the project for the model', async () => {
    await core.config.update({ memory: { projectCharLimit: 100 } })
    const store = core.memory.forWorkspace(workspaceA)
    expect((await store.add('project', 'a'.repeat(90), user)).success).toBe(true)
    const over = await store.add('project', 'The build uses bazel with remote caching', user, { overflow: false })
    expect(over).toMatchObject({ success: false, usage: '90/100' })
    const archived = await store.add('project', 'The build uses bazel with remote caching', { write: { source: 'agent' } })
    expect(archived).toMatchObject({ success: true, archived: true })
    expect(core.archive.search('bazel remote caching', { projectKey: projectKeyFor(workspaceA) })).toMatchObject([{ target: 'project', projectKey: projectKeyFor(workspaceA) }])
    expect(core.archive.search('bazel remote caching', { projectKey: null })).toEqual([])
    // MEMORY.md's limit is its own.
    expect((await store.add('memory', 'b'.repeat(150), user)).success).toBe(true)
  })

  it('reverts a project change from the timeline, whichever store reverts it', async () => {
    const store = core.memory.forWorkspace(workspaceA)
    await store.add('project', 'Uses pnpm workspaces', user)
    await store.replace('project', 'pnpm', 'Uses npm workspaces', user)
    const replaceRow = core.ledger.list({}).find((row) => row.kind === 'memory.replace')!
    const reverted = await core.revert(replaceRow.id) // the core's store knows no workspace
    expect(reverted.ok).toBe(true)
    expect(store.read('project').entries).toEqual(['Uses pnpm workspaces'])
  })

  it('pins a project entry, and the pin follows a replace', async () => {
    const store = core.memory.forWorkspace(workspaceA)
    await store.add('project', 'Release branch is main', user)
    setEntryPinned({ memory: store, memoryPins: core.memoryPins }, 'project', 'Release branch', true)
    expect(core.memoryPins.isPinned('project', 'Release branch is main')).toBe(true)
    await store.replace('project', 'Release branch', 'Release branch is trunk', user)
    expect(core.memoryPins.isPinned('project', 'Release branch is trunk')).toBe(true)
  })

  it('refuses an add beside a near-duplicate project entry, and guards drift like the other files', async () => {
    const store = core.memory.forWorkspace(workspaceA)
    await store.add('project', 'Run the tests with npm run test:unit', user)
    const similar = await store.add('project', 'Run tests with npm run test:unit', user)
    expect(similar).toMatchObject({ success: false, similarity: 'near_duplicate' })
    const path = join(home, 'memories', 'projects', projectKeyFor(workspaceA), 'PROJECT.md')
    writeFileSync(path, 'x'.repeat(5000))
    const drift = await store.replace('project', 'x', 'y', user)
    expect(drift).toMatchObject({ success: false, drift_backup: expect.stringContaining('PROJECT.md') })
  })
})

describe('memory_pins after migration 21', () => {
  it('takes project pins (the CHECK was widened)', () => {
    mkdirSync(join(home, 'x'), { recursive: true })
    expect(() => core.memoryPins.set('project', 'An entry', true)).not.toThrow()
    expect(core.db.pragma('user_version', { simple: true }) as number).toBeGreaterThanOrEqual(21)
  })
})

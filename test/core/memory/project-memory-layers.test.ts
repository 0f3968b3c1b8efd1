import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ReviewJob } from '../../../shared/review-protocol'
import { CairnCore } from '../../../electron/core/cairn'
import { LearningLoop } from '../../../electron/core/learning/host/learning-loop'
import type { ReviewHost } from '../../../electron/core/learning/host/review-host'
import { OutsideLearning } from '../../../electron/core/mcp-server/outside-learning'
import { Inbox } from '../../../electron/core/learning/host/proposal-apply'
import { ProposalStore } from '../../../electron/core/ledger/proposals'
import { listProjectMemories } from '../../../electron/core/memory/project-scope'
import { projectKeyFor } from '../../../electron/core/memory/project-key'
import { memoryPendingJudge } from '../../../electron/core/memory/memory-reconcile'
import { isSyncedPath } from '../../../electron/core/sync/synced-paths'

let home: string
let workspace: string
let core: CairnCore

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-layers-home-'))
  workspace = mkdtempSync(join(tmpdir(), 'cairn-layers-ws-'))
  core = await CairnCore.open({ home })
})
afterEach(async () => {
  await core.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(workspace, { recursive: true, force: true })
})

const user = { write: { source: 'user' as const } }

describe('project memory through the other layers', () => {
  it('a review job carries its conversation\'s workspace', () => {
    const jobs: Array<Omit<ReviewJob, 'reviewId'>> = []
    const host = { enqueue: (job: Omit<ReviewJob, 'reviewId'>) => (jobs.push(job), 'r-1'), events: { on: () => () => {} }, queuedFor: () => null }
    const loop = new LearningLoop(core, host as unknown as ReviewHost)
    const session = core.sessions.create({ source: 'cli', model: 'scripted', workspace })
    core.sessions.append(session.id, { role: 'user', content: 'Tests need TZ=UTC here.' })
    core.sessions.append(session.id, { role: 'assistant', content: 'Noted.' })
    loop.reviewNow(session.id)
    expect(jobs).toEqual([expect.objectContaining({ sessionId: session.id, workspace })])
  })

  it('sync carries each PROJECT.md (merged by entry), never the note naming its workspace', () => {
    expect(isSyncedPath(`memories/projects/${projectKeyFor(workspace)}/PROJECT.md`)).toBe(true)
    expect(isSyncedPath(`memories/projects/${projectKeyFor(workspace)}/WORKSPACE.txt`)).toBe(false)
    expect(isSyncedPath('memories/projects/../PROJECT.md')).toBe(false)
  })

  it("a crash's pending project row is judged against its own PROJECT.md", async () => {
    await core.memory.forWorkspace(workspace).add('project', 'Lint with ruff', user)
    const row = core.ledger.list({}).at(0)!
    const judge = memoryPendingJudge({ dataHome: home, dir: join(home, 'memories') })
    expect(judge.owns(row)).toBe(true)
    expect(judge.judge(row)).toBe('landed')
  })

  it('lists the projects the data home holds, with their workspaces', async () => {
    await core.memory.forWorkspace(workspace).add('project', 'Lint with ruff', user)
    expect(listProjectMemories(join(home, 'memories'))).toEqual([
      { key: projectKeyFor(workspace), workspace: core.memory.forWorkspace(workspace).project!.workspace, entries: 1, chars: 'Lint with ruff'.length }
    ])
  })

  it('another agent over MCP gets no project memory: asking for it is refused in words', async () => {
    const outside = new OutsideLearning(core)
    expect(outside.unavailable('project')).toMatch(/Project memory needs a workspace/)
    const result = await outside.memoryAdd('mcp:test-agent', 'project', 'Lint with ruff')
    expect(result).toMatchObject({ success: false })
  })

  it("an approved project proposal lands in its own project's PROJECT.md, whichever workspace the app shows", async () => {
    const target = `memories/projects/${projectKeyFor(workspace)}/PROJECT.md`
    const proposal = new ProposalStore(core.db).add({
      origin: 'review',
      reviewId: 'r-9',
      sessionId: null,
      kind: 'memory.add',
      target,
      before: null,
      after: 'Lint with ruff',
      meta: { store: 'project' },
      reasons: [],
      cause: 'untrusted_source',
      rationale: null
    })
    const inbox = new Inbox(core)
    expect(inbox.list({ states: ['pending'] })).toEqual([expect.objectContaining({ id: proposal.id, stale: false })])
    const decided = await inbox.approve(proposal.id)
    expect(decided.ok).toBe(true)
    expect(core.memory.forWorkspace(workspace).read('project').entries).toEqual(['Lint with ruff'])
    expect(core.ledger.list({}).at(0)).toMatchObject({ target, meta: { store: 'project', proposalId: proposal.id } })
  })
})

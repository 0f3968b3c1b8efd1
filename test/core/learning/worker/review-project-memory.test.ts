import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { reviewDepsOf, runReview } from '../../../../electron/core/learning/worker/review-runner'
import { projectKeyFor } from '../../../../electron/core/memory/project-key'
import { reviewFixture, reviewUserText, type ReviewFixture } from '../../../helpers/review-fixture'

let fx: ReviewFixture
let workspace: string

beforeEach(async () => {
  fx = await reviewFixture()
  workspace = mkdtempSync(join(tmpdir(), 'cairn-review-ws-'))
})
afterEach(async () => {
  await fx.close()
  rmSync(workspace, { recursive: true, force: true })
})

const REPO_FACT = [
  { role: 'user' as const, content: 'The tests in this repository only pass with TZ=UTC set, remember that.' },
  { role: 'assistant' as const, content: 'Got it: TZ=UTC for the tests here.' }
]

function run(job: ReturnType<ReviewFixture['job']>) {
  return runReview({ deps: reviewDepsOf(fx.core), provider: fx.provider(), job, maxIterations: 6, allowSkillCreation: true })
}

describe('a review of a conversation in a workspace', () => {
  it("is told about the 'project' target and lists its entries, and its project write lands in that workspace's PROJECT.md", async () => {
    await fx.core.memory.forWorkspace(workspace).add('project', 'Builds use make', { write: { source: 'user' } })
    // One call per response, the first one at the wrong store, as a real model may: read, then add to project.
    fx.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'read', target: 'project' } }] },
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'project', content: 'Tests only pass with TZ=UTC set' } }] },
      { text: 'Saved the repository fact to project memory.' }
    )
    const outcome = await run(fx.job({ reviewId: 'r-project', messages: REPO_FACT, workspace }))

    const brief = reviewUserText(fx.server.chatRequests()[0])
    expect(brief).toContain("Target 'project' (PROJECT.md)")
    expect(brief).toContain('> Builds use make')
    const system = fx.server.chatRequests()[0].body.messages[0].content as string
    expect(system).toMatch(/a fact about this repository goes to 'project'/)

    const file = join(fx.home, 'memories', 'projects', projectKeyFor(workspace), 'PROJECT.md')
    expect(readFileSync(file, 'utf8')).toBe('Builds use make\n§\nTests only pass with TZ=UTC set')
    expect(fx.core.memory.read('memory').entries).toEqual([])
    expect(outcome.summary).toMatchObject({ saved: true, project: { added: 1, replaced: 0, removed: 0 }, remembered: [{ store: 'project', text: 'Tests only pass with TZ=UTC set' }] })
  })

  it("refuses 'project' for a conversation without a workspace, and the model is told so", async () => {
    fx.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'project', content: 'Tests only pass with TZ=UTC set' } }] },
      { text: 'Could not save.' }
    )
    await run(fx.job({ reviewId: 'r-none', messages: REPO_FACT }))
    const brief = reviewUserText(fx.server.chatRequests()[0])
    expect(brief).not.toContain("Target 'project'")
    const results = (fx.server.chatRequests()[1].body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool')
    expect(JSON.parse(results[0].content)).toMatchObject({ success: false, error: expect.stringMatching(/no workspace/) })
  })

  it("never learns the repository's AGENTS.md as the user's words: copying it only becomes a proposal", async () => {
    writeFileSync(join(workspace, 'AGENTS.md'), 'Always run make verify-all before every commit.\n')
    fx.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'project', content: 'Run make verify-all before every commit' } }] },
      { text: 'Saved.' }
    )
    const outcome = await run(fx.job({ reviewId: 'r-agents', messages: [{ role: 'user', content: 'Please fix the typo in the README.' }, { role: 'assistant', content: 'Fixed.' }], workspace }))
    expect(fx.core.memory.forWorkspace(workspace).read('project').entries).toEqual([])
    expect(outcome.proposals).toHaveLength(1)
    expect(readFileSync(join(workspace, 'AGENTS.md'), 'utf8')).toBe('Always run make verify-all before every commit.\n')
  })
})

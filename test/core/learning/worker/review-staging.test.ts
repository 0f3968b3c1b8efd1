import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { LearningMode } from '../../../../shared/config'
import { ProposalStore } from '../../../../electron/core/ledger/proposals'
import { REJECTED_HEADING } from '../../../../electron/core/learning/worker/rejected-proposals'
import type { ReviewReason } from '../../../../shared/review-reasons'
import { reviewDepsOf, runReview } from '../../../../electron/core/learning/worker/review-runner'
import { reviewFixture, reviewUserText, type ReviewFixture } from '../../../helpers/review-fixture'

let fx: ReviewFixture
afterEach(async () => {
  await fx.close()
})

async function setup(mode: LearningMode): Promise<ReviewFixture> {
  fx = await reviewFixture({ config: { learning: { mode } } })
  return fx
}

const run = (reviewId: string, reasons: ReviewReason[] = [{ code: 'requested' }]) =>
  runReview({ deps: reviewDepsOf(fx.core), provider: fx.provider(), job: fx.job({ reviewId, sessionId: 'session-1', reasons }), maxIterations: 8, allowSkillCreation: true })
/** A failure overcome on the way: what allows a review to create a skill (review-create-gate.ts). */
const OVERCAME: ReviewReason[] = [{ code: 'requested' }, { code: 'error_overcome', tool: 'run_command' }]

function toolResults(requestIndex: number): Array<Record<string, unknown>> {
  const messages = fx.server.chatRequests()[requestIndex].body.messages as Array<{ role: string; content: string }>
  return messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content))
}

const proposals = () => new ProposalStore(fx.core.db)

const SKILL = (name: string, step = '2. Copy `dist/` to the server with rsync.') =>
  ['---', `name: ${name}`, 'description: Deploy the web app to the staging server.', '---', '# Deploy', '', '1. Run `npm run build`.', step, ''].join('\n')
const OLD_STEP = '2. Copy `dist/` to the server with rsync.'
const NEW_STEP = '2. Copy `dist/` with `rsync -a --delete` (plain rsync leaves stale files).'
const patchDeploy = (name = 'deploy') => ({ name: 'skill_manage', arguments: { action: 'patch', name, old_string: OLD_STEP, new_string: NEW_STEP } })
const view = (name = 'deploy') => ({ name: 'skill_view', arguments: { name } })

/** A skill the user wrote by hand into the data home's skills folder (no ledger row, no usage row). */
function handWrittenSkill(name = 'deploy'): string {
  const dir = join(fx.home, 'skills', 'devops', name)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'SKILL.md'), SKILL(name))
  fx.core.skills.load()
  return join(dir, 'SKILL.md')
}

describe('learning.mode ask: every change a review wants becomes a proposal', () => {
  it('leaves memory and skills as they were and stores each change, with its diff, as a pending proposal', async () => {
    await setup('ask')
    await fx.core.skills.create({ name: 'deploy', category: 'devops', content: SKILL('deploy') }, { source: 'agent' })
    const created = SKILL('ci-cache').replace('Deploy the web app to the staging server.', 'Cache CI dependencies.')
    fx.server.enqueue(
      { toolCalls: [view(), { name: 'skills_list', arguments: {} }] },
      {
        toolCalls: [
          patchDeploy(),
          { name: 'memory', arguments: { action: 'add', target: 'user', content: 'User prefers pnpm over npm' } },
          { name: 'skill_manage', arguments: { action: 'create', name: 'ci-cache', category: 'ci', content: created } }
        ]
      },
      { text: 'Proposed: the rsync fix, the pnpm preference and a CI cache skill.' }
    )
    const ledgerBefore = fx.core.ledger.list().length
    const outcome = await run('r-ask', OVERCAME)

    expect(readFileSync(join(fx.home, 'skills', 'devops', 'deploy', 'SKILL.md'), 'utf8')).toBe(SKILL('deploy'))
    expect(existsSync(join(fx.home, 'memories', 'USER.md')) ? readFileSync(join(fx.home, 'memories', 'USER.md'), 'utf8') : '').toBe('')
    expect(existsSync(join(fx.home, 'skills', 'ci', 'ci-cache'))).toBe(false)
    expect(fx.core.ledger.list()).toHaveLength(ledgerBefore)

    // The three writes of one response run side by side, so they are stored in whichever order they finished.
    const stored = proposals().list({ states: ['pending'], oldestFirst: true })
    const byTarget = [...stored].sort((a, b) => a.target.localeCompare(b.target))
    expect(byTarget.map((p) => [p.kind, p.target, p.cause])).toEqual([
      ['memory.add', 'memories/USER.md', 'ask_mode'],
      ['skill.create', 'skills/ci/ci-cache/SKILL.md', 'ask_mode'],
      ['skill.patch', 'skills/devops/deploy/SKILL.md', 'ask_mode']
    ])
    expect(byTarget[0]).toMatchObject({ before: null, after: 'User prefers pnpm over npm', meta: { store: 'user' } })
    expect(byTarget[1]).toMatchObject({ before: null, after: created, meta: { skill: 'ci-cache', category: 'ci' } })
    expect(byTarget[2]).toMatchObject({ before: SKILL('deploy'), after: SKILL('deploy', NEW_STEP), meta: { skill: 'deploy', category: 'devops' } })
    for (const proposal of stored) {
      expect(proposal).toMatchObject({
        origin: 'review',
        reviewId: 'r-ask',
        sessionId: 'session-1',
        reasons: OVERCAME,
        rationale: 'Proposed: the rsync fix, the pnpm preference and a CI cache skill.'
      })
    }

    expect(outcome.proposals).toEqual(stored.map((p) => p.id))
    expect(outcome.summary).toMatchObject({ saved: false, proposed: 3, skills: [] })
    expect(outcome.entries).toEqual([])
    // The model is told each change was proposed and is complete, so it does not retry.
    for (const result of toolResults(2).slice(2)) {
      expect(result).toMatchObject({ success: true, done: true, proposed: true })
      expect(String(result.message)).toMatch(/^Proposed to the user, not applied: .*do not repeat or retry it/)
    }
    // The scratch copy is gone once the review ends.
    expect(existsSync(join(fx.home, 'tmp')) ? readdirSync(join(fx.home, 'tmp')) : []).toEqual([])
  })

  it('refuses to propose a new skill whose name the real store already has', async () => {
    await setup('ask')
    await fx.core.skills.create({ name: 'deploy', category: 'devops', content: SKILL('deploy') }, { source: 'agent' })
    fx.server.enqueue(
      { toolCalls: [{ name: 'skills_list', arguments: {} }] },
      { toolCalls: [{ name: 'skill_manage', arguments: { action: 'create', name: 'deploy', content: SKILL('deploy') } }] },
      { text: 'Nothing to save.' }
    )
    const outcome = await run('r-dup')
    expect(toolResults(2)[1]).toMatchObject({ success: false, error: expect.stringMatching(/A skill named 'deploy' already exists/) })
    expect(outcome.proposals).toBeUndefined()
    expect(proposals().list()).toEqual([])
  })
})

describe('learning.mode auto: what the user made or pinned is only ever proposed', () => {
  it("turns a patch of a hand-written skill into a proposal (the file stays byte-identical) while an unprotected change applies", async () => {
    await setup('auto')
    const path = handWrittenSkill()
    const original = readFileSync(path)
    fx.server.enqueue(
      { toolCalls: [view()] },
      { toolCalls: [patchDeploy(), { name: 'memory', arguments: { action: 'add', target: 'user', content: 'User deploys with rsync' } }] },
      { toolCalls: [view()] },
      { text: 'Fixed the rsync step.' }
    )
    const outcome = await run('r-auto')

    expect(readFileSync(path).equals(original)).toBe(true)
    expect(readFileSync(join(fx.home, 'memories', 'USER.md'), 'utf8')).toBe('User deploys with rsync')
    expect(outcome.entries.map((e) => e.kind)).toEqual(['memory.add'])
    expect(outcome.summary).toMatchObject({ saved: true, proposed: 1 })
    const [proposal] = proposals().list({ states: ['pending'] })
    expect(proposal).toMatchObject({ kind: 'skill.patch', cause: 'user_skill', before: SKILL('deploy'), after: SKILL('deploy', NEW_STEP) })
    expect(outcome.proposals).toEqual([proposal.id])
    // The review sees its own staged change: the view after the patch shows the new step, at the real path.
    const seen = toolResults(3)[3]
    expect(seen).toMatchObject({ success: true, content: SKILL('deploy', NEW_STEP), path })
  })

  it('proposes changes to imported and pinned skills, and still patches a skill Cairn made', async () => {
    await setup('auto')
    await fx.core.skills.create({ name: 'imported', content: SKILL('imported') }, { source: 'import' })
    await fx.core.skills.create({ name: 'pinned', content: SKILL('pinned') }, { source: 'review' })
    await fx.core.skills.create({ name: 'learned', content: SKILL('learned') }, { source: 'review' })
    fx.core.skillFlags.set('pinned', { pinned: true })
    fx.server.enqueue(
      { toolCalls: [view('imported'), view('pinned'), view('learned')] },
      { toolCalls: [patchDeploy('imported'), patchDeploy('pinned'), patchDeploy('learned')] },
      { text: 'Fixed rsync everywhere.' }
    )
    const outcome = await run('r-mixed')

    expect(fx.core.skills.view('imported').content).toBe(SKILL('imported'))
    expect(fx.core.skills.view('pinned').content).toBe(SKILL('pinned'))
    expect(fx.core.skills.view('learned').content).toBe(SKILL('learned', NEW_STEP))
    expect(outcome.summary.skills).toMatchObject([{ name: 'learned', verb: 'updated' }])
    expect(proposals().list().map((p) => [(p.meta as { skill: string }).skill, p.cause]).sort()).toEqual([
      ['imported', 'imported_skill'],
      ['pinned', 'pinned_skill']
    ])
  })

  it("turns a replace of a pinned memory entry into a proposal; the file's later reads and writes see the staged state", async () => {
    await setup('auto')
    await fx.core.memory.add('user', 'User works at Acme', { write: { source: 'user' } })
    await fx.core.memory.add('user', 'User likes tea', { write: { source: 'user' } })
    fx.core.memoryPins.set('user', 'User works at Acme', true)
    fx.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'replace', target: 'user', old_text: 'Acme', content: 'User works at Globex' } }] },
      { toolCalls: [{ name: 'memory', arguments: { action: 'read', target: 'user' } }] },
      { toolCalls: [{ name: 'memory', arguments: { action: 'replace', target: 'user', old_text: 'Globex', content: 'User works at Globex as an SRE' } }] },
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: 'The staging host is stage-1' } }] },
      { text: 'The user changed jobs.' }
    )
    const outcome = await run('r-pin')

    expect(fx.core.memory.read('user').entries).toEqual(['User works at Acme', 'User likes tea'])
    expect(fx.core.memory.read('memory').entries).toEqual(['The staging host is stage-1'])
    expect(toolResults(2)[1]).toMatchObject({ success: true, entries: ['User works at Globex', 'User likes tea'] })
    // Two replaces of one entry are one proposal: the pinned text → the last text.
    expect(proposals().list()).toMatchObject([
      { kind: 'memory.replace', target: 'memories/USER.md', before: 'User works at Acme', after: 'User works at Globex as an SRE', cause: 'pinned_entry' }
    ])
    expect(outcome.entries.map((e) => e.kind)).toEqual(['memory.add'])
  })

  it('cleans up the scratch copy a killed review left behind', async () => {
    await setup('auto')
    const leftover = join(fx.home, 'tmp', 'review-killed', 'memories')
    mkdirSync(leftover, { recursive: true })
    writeFileSync(join(leftover, 'USER.md'), 'half a review')
    fx.server.enqueue({ text: 'Nothing to save.' })
    await run('r-clean')
    expect(readdirSync(join(fx.home, 'tmp'))).toEqual([])
  })
})

describe('learning.mode off', () => {
  it('a review that was already queued when learning was turned off asks the model nothing and changes nothing', async () => {
    await setup('off')
    const outcome = await run('r-off')
    expect(outcome).toMatchObject({ iterations: 0, toolCalls: 0, entries: [], summary: { saved: false } })
    expect(fx.server.chatRequests()).toHaveLength(0)
  })
})

describe('what the user already decided', () => {
  it('does not propose a change again that waits in the Inbox or that the user rejected, and tells the next review what was rejected', async () => {
    await setup('ask')
    const add = { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'User prefers tabs' } }] }
    fx.server.enqueue(add, { text: 'Proposed tabs.' })
    const first = await run('r-1')
    expect(first.proposals).toHaveLength(1)

    fx.server.enqueue(add, { text: 'Proposed tabs again.' })
    const second = await run('r-2')
    expect(second.proposals).toBeUndefined()
    expect(proposals().list()).toHaveLength(1)

    proposals().decide(first.proposals![0], { state: 'rejected' })
    fx.server.enqueue(add, { text: 'Proposed tabs once more.' })
    const third = await run('r-3')
    expect(third.proposals).toBeUndefined()
    expect(proposals().list({ states: ['pending'] })).toEqual([])
    const message = reviewUserText(fx.server.chatRequests().at(-2)!)
    expect(message).toContain(`${REJECTED_HEADING}\n- memories/USER.md (add): (nothing) → "User prefers tabs"`)
    expect(reviewUserText(fx.server.chatRequests()[0])).not.toContain(REJECTED_HEADING)
  })
})

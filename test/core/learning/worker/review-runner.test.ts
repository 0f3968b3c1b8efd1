import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LedgerEntry } from '../../../../shared/ledger'
import { LIST_BEFORE_CREATE_MESSAGE, NO_DELETE_MESSAGE, REFUSED_TOOL_MESSAGE } from '../../../../electron/core/learning/worker/review-policy'
import { WHOLE_LIBRARY_SKILLS } from '../../../../electron/core/learning/worker/review-skills-context'
import { ReviewCancelledError, reviewDepsOf, runReview, type RunReviewOptions } from '../../../../electron/core/learning/worker/review-runner'
import { reviewFixture, reviewUserText, type ReviewFixture } from '../../../helpers/review-fixture'

let fx: ReviewFixture

beforeEach(async () => {
  fx = await reviewFixture()
})
afterEach(async () => {
  await fx.close()
})

const unchanged = { added: 0, replaced: 0, removed: 0 }
/** What a review that saved nothing reports. */
const nothingSaved = { saved: false, memory: unchanged, user: unchanged, skills: [] }

function run(overrides: Partial<RunReviewOptions> = {}) {
  return runReview({ deps: reviewDepsOf(fx.core), provider: fx.provider(), job: fx.job(), maxIterations: 8, allowSkillCreation: true, ...overrides })
}

function toolResults(requestIndex: number): Array<{ success?: boolean; error?: string; message?: string }> {
  const messages = fx.server.chatRequests()[requestIndex].body.messages as Array<{ role: string; content: string }>
  return messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content))
}

const deploySkill = [
  '---',
  'name: deploy',
  'description: Deploy the web app to the staging server.',
  '---',
  '# Deploy',
  '',
  '1. Run `npm run build`.',
  '2. Copy `dist/` to the server with rsync.',
  ''
].join('\n')

describe('runReview in-process', () => {
  it('saves a user preference to memory after reading it, attributed to the review, without touching the session', async () => {
    const sessionId = fx.session()
    const before = fx.core.sessions.messages(sessionId).length
    fx.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'read', target: 'user' } }] },
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'User prefers pnpm over npm' } }] },
      { text: 'Saved: the user prefers pnpm.' }
    )
    const actions: LedgerEntry[] = []
    const outcome = await run({ job: fx.job({ reviewId: 'r-pref', sessionId }), onAction: (entry) => actions.push(entry) })

    expect(readFileSync(join(fx.home, 'memories', 'USER.md'), 'utf8')).toBe('User prefers pnpm over npm')
    expect(outcome.summary).toEqual({
      saved: true,
      memory: unchanged,
      user: { added: 1, replaced: 0, removed: 0 },
      skills: [],
      remembered: [{ store: 'user', text: 'User prefers pnpm over npm' }]
    })
    expect(outcome.entries).toHaveLength(1)
    expect(outcome.entries[0]).toMatchObject({ kind: 'memory.add', source: 'review', reviewId: 'r-pref', sessionId })
    expect(actions.map((a) => a.id)).toEqual(outcome.entries.map((e) => e.id))
    expect(fx.core.ledger.list({ reviewId: 'r-pref' })).toHaveLength(1)
    expect(outcome).toMatchObject({ iterations: 3, toolCalls: 2, refusedCalls: [], finalText: 'Saved: the user prefers pnpm.' })
    // Nothing was written into the user's conversation.
    expect(fx.core.sessions.messages(sessionId)).toHaveLength(before)

    const first = fx.server.chatRequests()[0]
    expect(first.body.messages).toHaveLength(2) // system + one user message holding the transcript
    expect(reviewUserText(first)).toMatch(/<transcript>[\s\S]*I always use pnpm, never npm\.[\s\S]*<\/transcript>/)
    expect((first.body.tools ?? []).map((t) => (t as { function: { name: string } }).function.name).sort()).toEqual([
      'memory',
      'propose_disable',
      'skill_manage',
      'skill_view',
      'skills_list'
    ])
    expect(first.headers.authorization).toBe(`Bearer ${fx.apiKey}`)
  })

  it('creates a skill only after looking at the existing ones with skills_list', async () => {
    // More skills than the review's user message shows whole (review-skills-context.ts), so it must list them.
    for (let i = 1; i <= WHOLE_LIBRARY_SKILLS + 1; i++) {
      const name = `recipe-${i}`
      await fx.core.skills.create({ name, category: 'kitchen', content: `---\nname: ${name}\ndescription: Cook dish number ${i}.\n---\n# Dish ${i}\n\n1. Cook it.\n` }, { source: 'agent' })
    }
    const content = [
      '---',
      'name: docker-compose-debugging',
      'description: Diagnose containers that fail to start under docker compose.',
      '---',
      '# Docker compose debugging',
      '',
      '1. `docker compose logs <service>` first.',
      '2. Stale volumes: `docker compose down -v` before recreating the database.',
      ''
    ].join('\n')
    const create = { name: 'skill_manage', arguments: { action: 'create', name: 'docker-compose-debugging', category: 'devops', content } }
    fx.server.enqueue(
      { toolCalls: [create] },
      { toolCalls: [{ name: 'skills_list', arguments: {} }] },
      { toolCalls: [create] },
      { text: 'Created docker-compose-debugging.' }
    )
    // A failure overcome on the way is what allows a create at all (review-create-gate.ts).
    const outcome = await run({ job: fx.job({ reasons: [{ code: 'error_overcome', tool: 'run_command' }] }) })

    expect(toolResults(1)[0]).toMatchObject({ success: false, error: LIST_BEFORE_CREATE_MESSAGE })
    expect(toolResults(3)[2]).toMatchObject({ success: true })
    expect(readFileSync(join(fx.home, 'skills', 'devops', 'docker-compose-debugging', 'SKILL.md'), 'utf8')).toBe(content)
    expect(outcome.summary).toMatchObject({ saved: true, skills: [{ name: 'docker-compose-debugging', verb: 'created' }] })
    expect(outcome.entries.map((e) => e.kind)).toEqual(['skill.create'])
  })

  it('patches an existing skill only after viewing it; the refusal tells it to view first', async () => {
    // Made by Cairn: a skill the user wrote would only get a proposal (see review-staging.test.ts).
    await fx.core.skills.create({ name: 'deploy', category: 'devops', content: deploySkill }, { source: 'agent' })
    const patch = {
      name: 'skill_manage',
      arguments: { action: 'patch', name: 'deploy', old_string: '2. Copy `dist/` to the server with rsync.', new_string: '2. Copy `dist/` with `rsync -a --delete` (plain rsync leaves stale files).' }
    }
    fx.server.enqueue(
      { toolCalls: [patch] },
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy' } }] },
      { toolCalls: [patch] },
      { text: 'Patched deploy.' }
    )
    const outcome = await run({ job: fx.job({ reviewId: 'r-patch' }) })

    const refusal = toolResults(1)[0]
    expect(refusal.success).toBe(false)
    expect(refusal.error).toMatch(/Read before you patch.*skill_view\(name='deploy'\)/)
    expect(readFileSync(join(fx.home, 'skills', 'devops', 'deploy', 'SKILL.md'), 'utf8')).toContain('rsync -a --delete')
    expect(outcome.entries).toHaveLength(1)
    expect(outcome.entries[0]).toMatchObject({ kind: 'skill.patch', source: 'review', reviewId: 'r-patch' })
    expect(outcome.summary).toMatchObject({ saved: true, skills: [{ name: 'deploy', verb: 'updated' }] })
  })

  it('refuses every tool outside memory and skills in code, and runs none of them', async () => {
    const marker = join(fx.home, 'ran.txt')
    fx.server.enqueue(
      {
        toolCalls: [
          { name: 'run_command', arguments: { command: `touch ${marker}` } },
          { name: 'read_file', arguments: { path: join(fx.home, 'config.json') } }
        ]
      },
      { text: 'Nothing to save.' }
    )
    const outcome = await run()

    expect(outcome.refusedCalls).toEqual(['run_command', 'read_file'])
    expect(toolResults(1)).toEqual([
      { success: false, error: REFUSED_TOOL_MESSAGE },
      { success: false, error: REFUSED_TOOL_MESSAGE }
    ])
    expect(existsSync(marker)).toBe(false)
    expect(outcome.summary).toEqual(nothingSaved)
  })

  it('never deletes: delete and remove_file are refused, and the skill stays', async () => {
    await fx.core.skills.create({ name: 'deploy', content: deploySkill }, { source: 'user' })
    fx.server.enqueue(
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy' } }] },
      {
        toolCalls: [
          { name: 'skill_manage', arguments: { action: 'delete', name: 'deploy' } },
          { name: 'skill_manage', arguments: { action: 'remove_file', name: 'deploy', file_path: 'references/a.md' } }
        ]
      },
      { text: 'Nothing to save.' }
    )
    const outcome = await run()
    expect(toolResults(2).slice(1).map((r) => r.error)).toEqual([NO_DELETE_MESSAGE, NO_DELETE_MESSAGE])
    expect(fx.core.skills.get('deploy')).not.toBeNull()
    expect(outcome.entries).toEqual([])
  })

  it('offers the tools without the chat descriptions that urge saving or asking the user', async () => {
    fx.server.enqueue({ text: 'Nothing to save.' })
    await run()
    const tools = (fx.server.chatRequests()[0].body.tools ?? []) as Array<{ function: { name: string; description: string } }>
    const description = (name: string) => tools.find((t) => t.function.name === name)!.function.description
    expect(description('memory')).not.toMatch(/save proactively/)
    expect(description('memory')).toMatch(/READ: call action='read'/)
    expect(description('memory')).toMatch(/HOW: make ALL your changes in ONE call/)
    expect(description('memory')).toMatch(/TARGETS: 'user' = who the user is/)
    expect(description('memory')).toMatch(/SKIP: trivial or easily re-discovered facts/)
    expect(description('skill_manage')).not.toMatch(/Confirm with the user|Create a skill when/)
    expect(description('skill_manage')).toMatch(/^Create, update or delete skills: your procedural memory/)
    expect(description('skill_manage')).toMatch(/Always skill_view a skill before patching it/)
    expect(description('skill_manage')).toMatch(/Actions: create \(name, content, optional category\)/)
    expect(description('skills_list')).toMatch(/List the skills you have/)
  })

  it("reading a skill to judge it is not a use: the review's skill_view leaves the skill's view count and staleness alone", async () => {
    await fx.core.skills.create({ name: 'deploy', content: deploySkill }, { source: 'user' })
    fx.server.enqueue({ toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy' } }] }, { text: 'Nothing to save.' })
    await run()

    expect(toolResults(1)[0]).toMatchObject({ success: true })
    expect(fx.core.skills.getUsage('deploy')).toMatchObject({ viewCount: 0, lastViewedAt: null, useCount: 0, lastUsedAt: null })
  })

  it('stops after maxIterations model calls', async () => {
    for (let i = 0; i < 5; i++) fx.server.enqueue({ toolCalls: [{ name: 'skills_list', arguments: {} }] })
    const outcome = await run({ maxIterations: 3 })
    expect(fx.server.chatRequests()).toHaveLength(3)
    expect(outcome.iterations).toBe(3)
    expect(outcome.toolCalls).toBe(3)
  })

  it('with skill creation off, create is refused and the prompt says only patching is allowed', async () => {
    const create = {
      name: 'skill_manage',
      arguments: { action: 'create', name: 'new-thing', content: '---\nname: new-thing\ndescription: A new thing.\n---\n# New\n' }
    }
    fx.server.enqueue({ toolCalls: [{ name: 'skills_list', arguments: {} }] }, { toolCalls: [create] }, { text: 'Nothing to save.' })
    const outcome = await run({ allowSkillCreation: false })

    expect(toolResults(2)[1].error).toMatch(/Creating new skills is turned off/)
    expect(existsSync(join(fx.home, 'skills', 'new-thing'))).toBe(false)
    expect(outcome.entries).toEqual([])
    const system = fx.server.chatRequests()[0].body.messages[0].content as string
    expect(system).toMatch(/Creating new skills is turned off/)
  })

  it('"Nothing to save." is a normal outcome: no ledger rows, summary says so', async () => {
    fx.server.enqueue({ text: 'Nothing to save.' })
    const outcome = await run({ job: fx.job({ reviewId: 'r-nothing' }) })
    expect(outcome).toMatchObject({ summary: nothingSaved, entries: [], finalText: 'Nothing to save.', iterations: 1 })
    expect(fx.core.ledger.list()).toEqual([])
    const system = fx.server.chatRequests()[0].body.messages[0].content as string
    expect(system).toContain('"Nothing to save." is a normal, good outcome')
    expect(system).not.toMatch(/be active/i)
  })

  it('records the verdicts on skills the conversation followed', async () => {
    await fx.core.skills.create({ name: 'deploy', content: deploySkill }, { source: 'user' })
    fx.server.enqueue({
      text: 'Nothing to save.\nSkill outcome: deploy: failure\nSkill outcome: `python-venv`: success\nSkill outcome: not-used: success'
    })
    const outcome = await run({ job: fx.job({ skillsUsed: ['deploy', 'python-venv'] }) })

    expect(outcome.skillOutcomes).toEqual([
      { name: 'deploy', outcome: 'failure' },
      { name: 'python-venv', outcome: 'success' }
    ])
    expect(fx.core.skills.getUsage('deploy')).toMatchObject({ useCount: 1, successCount: 0, failureCount: 1 })
    expect(fx.core.skills.getUsage('python-venv')).toMatchObject({ useCount: 1, successCount: 1, failureCount: 0 })
    expect(fx.core.skills.getUsage('not-used')).toBeNull()
    expect(reviewUserText(fx.server.chatRequests()[0])).toMatch(/followed these skills: `deploy`, `python-venv`/)
  })

  it('holds the review lock: a second review on the same home waits for the first to finish', async () => {
    fx.server.enqueue({ text: 'Nothing to save.', delayMs: 800 }, { text: 'Nothing to save.' })
    let firstDone = false
    const locked: string[] = []
    const first = run({ job: fx.job({ reviewId: 'r-a' }), onLocked: () => locked.push('r-a') })
    await fx.server.waitForChatRequests(1)
    const second = run({ job: fx.job({ reviewId: 'r-b' }), onLocked: () => locked.push(`r-b after r-a ended: ${firstDone}`) })
    // Without the lock the second review's request would arrive while the first reply is delayed.
    const requestsWhenFirstDone = await first.then(() => ((firstDone = true), fx.server.chatRequests().length))
    await second
    expect(requestsWhenFirstDone).toBe(1)
    expect(fx.server.chatRequests()).toHaveLength(2)
    // Each reports taking the lock (where its time budget starts): the second only once the first let go.
    expect(locked).toEqual(['r-a', 'r-b after r-a ended: true'])
  })

  it('stops when cancelled', async () => {
    fx.server.enqueue({ fault: { type: 'hang' } })
    const controller = new AbortController()
    const review = run({ signal: controller.signal })
    await fx.server.waitForChatRequests(1)
    controller.abort()
    await expect(review).rejects.toThrow(/cancel/i)
    fx.server.enqueue({ text: 'Nothing to save.' })
    const aborted = new AbortController()
    aborted.abort()
    await expect(run({ signal: aborted.signal })).rejects.toBeInstanceOf(ReviewCancelledError)
  })
})

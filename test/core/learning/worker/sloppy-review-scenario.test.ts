import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { learningConfigSchema } from '../../../../shared/config'
import { ProposalStore } from '../../../../electron/core/ledger/proposals'
import { reviewDepsOf, runReview } from '../../../../electron/core/learning/worker/review-runner'
import type { RecordedChatRequest, ScriptedReply } from '../../../scripted-provider'
import { reviewFixture, reviewUserText, type ReviewFixture } from '../../../helpers/review-fixture'

/**
 * One review by a model at its worst, every mechanism of issue 27 at once: one tool call per
 * response, never a `read` first, a reworded copy of an entry the user already has, a changed
 * preference written beside the old one, a whole-file rewrite that cuts a Cairn-made skill down, and a
 * skill for a one-off task. It acts on what the tools answer (a suggested replace), as real models do.
 */

const SAVED = 'User prefers pnpm over npm for Node projects'

/** A Cairn-made skill of 33 lines: steps, checks and pitfalls a review must not lose by a rewrite. */
const LONG_SKILL = [
  '---',
  'name: deploy-staging',
  'description: Use when deploying the web app to the staging server.',
  '---',
  '# Deploy to staging',
  '',
  '## Steps',
  ...Array.from({ length: 10 }, (_, index) => `${index + 1}. Step ${index + 1} of the deploy: run \`./step-${index + 1}.sh\` and check its output.`),
  '',
  '## Checks',
  ...Array.from({ length: 6 }, (_, index) => `- Check ${index + 1}: the version page shows the new build (${index + 1}).`),
  '',
  '## Pitfalls',
  ...Array.from({ length: 6 }, (_, index) => `- Pitfall ${index + 1}: stale files stay unless rsync runs with --delete (${index + 1}).`),
  ''
].join('\n')

const SHORT_SKILL = ['---', 'name: deploy-staging', 'description: Use when deploying to staging.', '---', '# Deploy to staging', '1. Build.', '2. Copy with rsync.', ''].join('\n')

interface Call {
  name: string
  arguments: Record<string, unknown>
}

const PLAN: Call[] = [
  // Blind and reworded: the user's saved preference in other words.
  { name: 'memory', arguments: { action: 'add', target: 'user', content: 'The user prefers using pnpm instead of npm for Node projects' } },
  // The preference changed in this conversation: a blind add beside the old one.
  { name: 'memory', arguments: { action: 'add', target: 'user', content: 'User prefers yarn over npm for Node projects' } },
  // A whole-file rewrite where a patch would do.
  { name: 'skill_manage', arguments: { action: 'edit', name: 'deploy-staging', content: SHORT_SKILL } },
  // A skill for a task that happened once.
  {
    name: 'skill_manage',
    arguments: {
      action: 'create',
      name: 'rename-quarterly-report',
      category: 'office',
      content: '---\nname: rename-quarterly-report\ndescription: Use when renaming the Q3 report.\n---\n# Rename\n1. Rename q3.xlsx to q3-final.xlsx.\n'
    }
  }
]

/**
 * One call per response, never reading first; it does what a refusal tells it: a suggested call next,
 * or the skill_view it skipped and then the same call again (once). Otherwise the plan goes on.
 */
function sloppyModel(): { respond: (request: RecordedChatRequest) => ScriptedReply; inputs: string[] } {
  const inputs: string[] = []
  let step = 0
  let retry: Call | null = null
  const retried = new Set<Call>()
  return {
    inputs,
    respond(request) {
      const messages = request.body.messages as Array<{ role: string; content?: unknown }>
      if (messages.length === 2) inputs.push(reviewUserText(request))
      const last = messages[messages.length - 1]
      if (last?.role === 'tool' && typeof last.content === 'string') {
        if (retry) {
          const again = retry
          retry = null
          return { toolCalls: [again] }
        }
        const result = JSON.parse(last.content) as { success?: boolean; error?: string; suggested_call?: Record<string, unknown> }
        if (result.suggested_call) return { toolCalls: [{ name: 'memory', arguments: { target: 'user', ...result.suggested_call } }] }
        const previous = PLAN[step - 1]
        if (result.success === false && /skill_view/.test(result.error ?? '') && previous?.name === 'skill_manage' && !retried.has(previous)) {
          retried.add(previous)
          retry = previous
          return { toolCalls: [{ name: 'skill_view', arguments: { name: previous.arguments.name } }] }
        }
      }
      const call = PLAN[step++]
      return call ? { toolCalls: [call] } : { text: 'Saved the preference change.' }
    }
  }
}

let fx: ReviewFixture
let model: ReturnType<typeof sloppyModel>

beforeEach(async () => {
  model = sloppyModel()
  fx = await reviewFixture({ server: { respond: (request) => model.respond(request) } })
  await fx.core.memory.add('user', SAVED, { write: { source: 'user' } })
  await fx.core.skills.create({ name: 'deploy-staging', category: 'devops', content: LONG_SKILL }, { source: 'agent' })
})
afterEach(async () => {
  await fx.close()
})

describe('a sloppy one-call-per-response reviewer', () => {
  it('saves one up-to-date preference, keeps the skill whole and makes no one-off skill, within the budget', async () => {
    const job = fx.job({
      reasons: [{ code: 'preference' }],
      messages: [
        { role: 'user', content: 'I moved all my Node projects to yarn; rename q3.xlsx to q3-final.xlsx please.' },
        { role: 'assistant', content: 'Renamed it.' }
      ]
    })
    const outcome = await runReview({
      deps: reviewDepsOf(fx.core),
      provider: fx.provider(),
      job,
      maxIterations: learningConfigSchema.parse({}).reviewMaxIterations,
      allowSkillCreation: true
    })

    // It saw the entry it was changing without calling read.
    expect(model.inputs[0]).toContain(SAVED)
    // No reworded duplicate, no stale value beside the new one: one entry, the new preference.
    expect(fx.core.memory.read('user').entries).toEqual(['User prefers yarn over npm for Node projects'])
    // The rewrite that cut 33 lines to 8 waits for the user with its reason; the skill is whole.
    expect(readFileSync(fx.core.skills.get('deploy-staging')!.path, 'utf8')).toBe(LONG_SKILL)
    const pending = new ProposalStore(fx.core.db).list({ states: ['pending'] })
    expect(pending.map((proposal) => [proposal.kind, proposal.cause])).toEqual([['skill.edit', 'skill_shrink']])
    // A skill for a task that came up once is not made.
    expect(fx.core.skills.get('rename-quarterly-report')).toBeNull()
    expect(outcome.summary.budgetExhausted).toBeUndefined()
    expect(outcome.finalText).toBe('Saved the preference change.')
  })
})

import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { learningConfigSchema } from '../../../../shared/config'
import type { ReviewJob } from '../../../../shared/review-protocol'
import { reviewDepsOf, runReview } from '../../../../electron/core/learning/worker/review-runner'
import { reviewFixture, reviewUserText, type ReviewFixture } from '../../../helpers/review-fixture'
import { DEPLOY_SKILL, deployReviewSteps, sloppyReviewer, type SloppyReviewer } from '../../../helpers/sloppy-reviewer'

/**
 * The review's budget against a reviewer that makes one tool call per response and gets things wrong
 * on the way (test/helpers/sloppy-reviewer.ts): the default fits a realistic read → view → patch →
 * memory write review with its refusals; the old 8 did not, and a run that reaches its budget keeps what
 * it wrote and says it ran out.
 */

let fx: ReviewFixture
let reviewer: SloppyReviewer

beforeEach(async () => {
  reviewer = sloppyReviewer(deployReviewSteps(), 'Patched deploy-staging with the rsync fix; saved the pnpm preference.')
  fx = await reviewFixture({ server: { respond: (request) => reviewer.respond(request) } })
  await fx.core.skills.create({ name: 'deploy-staging', category: 'devops', content: DEPLOY_SKILL }, { source: 'agent' })
})
afterEach(async () => {
  await fx.close()
})

function deployJob(): ReviewJob {
  return fx.job({
    reasons: [{ code: 'error_overcome', tool: 'run_command' }, { code: 'preference' }],
    messages: [
      { role: 'user', content: 'Deploy the web app to the staging server. I prefer pnpm over npm, by the way.' },
      { role: 'assistant', content: '', toolCalls: [{ name: 'run_command', arguments: '{"command":"rsync dist/ staging:/srv/app"}' }] },
      { role: 'tool', toolName: 'run_command', content: 'old bundle still served: stale files' },
      { role: 'assistant', content: '', toolCalls: [{ name: 'run_command', arguments: '{"command":"rsync -a --delete dist/ staging:/srv/app"}' }] },
      { role: 'tool', toolName: 'run_command', content: 'ok' },
      { role: 'assistant', content: 'Deployed; plain rsync left stale files, --delete fixed it.' }
    ]
  })
}

const review = (maxIterations: number) =>
  runReview({ deps: reviewDepsOf(fx.core), provider: fx.provider(), job: deployJob(), maxIterations, allowSkillCreation: true })

const DEFAULT_BUDGET = learningConfigSchema.parse({}).reviewMaxIterations
const skillText = () => readFileSync(fx.core.skills.get('deploy-staging')!.path, 'utf8')

describe('the review budget, against a one-call-per-response reviewer', () => {
  it('the default budget holds a realistic sloppy review to its end', async () => {
    const outcome = await review(DEFAULT_BUDGET)

    expect(outcome.finalText).toMatch(/^Patched deploy-staging/)
    expect(outcome.summary.budgetExhausted).toBeUndefined()
    expect(skillText()).toContain('rsync -a --delete')
    expect(fx.core.memory.read('memory').entries).toEqual(['Staging deploys need rsync --delete, or stale files stay on the server'])
    // The skills index was in its input, so it never called skills_list: one call per step it planned, then its reply.
    expect(reviewer.plan().map((step) => step.call.name)).not.toContain('skills_list')
    expect(outcome.iterations).toBe(reviewer.plan().length + 1)
    expect(outcome.iterations).toBeLessThanOrEqual(DEFAULT_BUDGET)
  })

  it('within the old budget of 8 it runs out: what it wrote is kept, and the run says it ran out', async () => {
    const outcome = await review(8)

    expect(outcome.iterations).toBe(8)
    expect(outcome.summary.budgetExhausted).toBe(true)
    expect(outcome.finalText).toBe('')
    // Its eighth call (the environment fact) ran, but no model call was left for its reply. What it wrote stays.
    expect(skillText()).toContain('rsync -a --delete')
    expect(outcome.entries.map((entry) => entry.kind)).toEqual(expect.arrayContaining(['skill.patch', 'memory.add']))
    expect(fx.core.memory.read('memory').entries).toEqual(['Staging deploys need rsync --delete, or stale files stay on the server'])
  })

  it('puts the skills this conversation touches in the review request, with their descriptions', async () => {
    await review(DEFAULT_BUDGET)
    const text = reviewUserText(fx.server.chatRequests()[0])
    expect(text).toMatch(/## Skills in the library \(all 1; no need to call skills_list\)\n- deploy-staging \[devops\]: Use when deploying the web app to the staging server/)
  })
})

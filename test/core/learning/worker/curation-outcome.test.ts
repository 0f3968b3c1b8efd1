import { afterEach, describe, expect, it } from 'vitest'
import type { ReviewEvent } from '../../../../shared/review-protocol'
import { curationJob, queueCuration } from '../../../../electron/core/learning/host/curation-schedule'
import { LearningState } from '../../../../electron/core/learning/host/learning-state'
import { reviewDepsOf, runReview } from '../../../../electron/core/learning/worker/review-runner'
import { ProposalStore } from '../../../../electron/core/ledger/proposals'
import { reviewFixture, type ReviewFixture } from '../../../helpers/review-fixture'
import { DEPLOY_SKILL } from '../../../helpers/sloppy-reviewer'

/** "Tidy the library now" reports how it ended, as data the app words: proposals made, or nothing to tidy. */

let fx: ReviewFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const curate = (f: ReviewFixture) =>
  runReview({ deps: reviewDepsOf(f.core), provider: f.provider(), job: { ...curationJob(), reviewId: 'curation-1' }, maxIterations: 16, allowSkillCreation: true })

describe("a curation pass's outcome", () => {
  it('says there was nothing to tidy when it proposed nothing', async () => {
    fx = await reviewFixture()
    fx.server.enqueue({ text: 'Nothing to tidy.' })
    expect((await curate(fx)).curation).toEqual({ result: 'nothing_to_tidy', proposals: 0 })
  })

  it('counts its proposals; a rewrite that cuts a skill down says so rather than just "curation"', async () => {
    fx = await reviewFixture()
    const withPitfalls = `${DEPLOY_SKILL}\n## Pitfalls\n\n- Plain rsync leaves stale files: use \`rsync -a --delete\`.\n`
    await fx.core.skills.create({ name: 'deploy-staging', category: 'devops', content: withPitfalls }, { source: 'agent' })
    const cut = DEPLOY_SKILL // the Pitfalls section dropped
    fx.server.enqueue(
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy-staging' } }] },
      { toolCalls: [{ name: 'skill_manage', arguments: { action: 'edit', name: 'deploy-staging', content: cut } }] },
      { text: 'Proposed a shorter deploy skill.' }
    )
    const outcome = await curate(fx)
    expect(outcome.curation).toEqual({ result: 'proposed', proposals: 1 })
    expect(new ProposalStore(fx.core.db).list({ reviewId: 'curation-1' }).map((p) => [p.origin, p.cause])).toEqual([['curation', 'skill_shrink']])
  })

  it('reaches the app on the review_finished event of the reviewId "learning.curate" returned', async () => {
    fx = await reviewFixture({ server: { respond: () => ({ text: 'Nothing to tidy.' }) } })
    const { host, events } = fx.host()
    const reviewId = queueCuration(host, new LearningState(fx.core.db))
    await host.wait(reviewId)
    const finished = events.find((e): e is Extract<ReviewEvent, { type: 'review_finished' }> => e.type === 'review_finished' && e.reviewId === reviewId)
    expect(finished?.outcome.curation).toEqual({ result: 'nothing_to_tidy', proposals: 0 })
  })
})

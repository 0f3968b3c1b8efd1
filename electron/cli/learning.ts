import { translator, type Translate } from '../../shared/i18n'
import { describeReviewFailure } from '../../shared/i18n/describe-review-failure'
import { describePauseReason, describeReviewReason, describeReviewSummary } from '../../shared/i18n/describe'
import { describeLearned } from '../../shared/i18n/describe-learning'
import type { ReviewEvent } from '../../shared/review-protocol'
import { environmentKeys, ProviderAccess } from '../core/provider/provider-access'
import type { CairnCore } from '../core/cairn'
import { LearningLoop } from '../core/learning/host/learning-loop'
import { ReviewHost, reviewHostDepsOf } from '../core/learning/host/review-host'
import { forkReviewWorker } from '../core/learning/host/spawn-worker'
import { inboxWaitingLine } from './commands/inbox-format'
import { reviewWorkerEntry } from './install-paths'
import type { CliIO } from './io'

export interface CliLearning {
  loop: LearningLoop
  host: ReviewHost
  /** Ids of reviews this command started. */
  started: string[]
  /** With --wait: waits for them and prints the summary; otherwise lets them finish in the background. */
  finish(): Promise<void>
}

/**
 * Background learning for one CLI invocation. Reviews run in a forked worker; without --wait the
 * CLI exits after the answer and the worker finishes the review on its own (see `cairn timeline`).
 */
export function cliLearning(core: CairnCore, env: NodeJS.ProcessEnv, io: CliIO, options: { wait: boolean; json: boolean }): CliLearning {
  // The CLI's keys are the environment's; reviews on `learning.baseURL` take their own, the chat key never goes to another server.
  const provider = new ProviderAccess(() => core.config.get(), environmentKeys(env), env)
  const host = new ReviewHost({
    ...reviewHostDepsOf(core),
    spawn: () => forkReviewWorker({ entry: reviewWorkerEntry() }),
    provider: () => provider.chat(),
    keys: provider.keys,
    detached: !options.wait
  })
  const started: string[] = []
  host.events.on((event) => {
    if (event.type === 'review_queued' && !started.includes(event.reviewId)) started.push(event.reviewId)
    if (options.json) io.out(JSON.stringify(event) + '\n')
    // Read per event: the language may change in Settings while the CLI waits.
    else if (options.wait) printReviewEvent(io, event, translator(core.config.get().ui.language))
  })
  return {
    loop: new LearningLoop(core, host),
    host,
    started,
    async finish() {
      if (started.length === 0) return host.close()
      if (options.wait) {
        await host.whenIdle()
        return host.close()
      }
      await host.release()
      if (!options.json) io.err(`💾 ${translator(core.config.get().ui.language)('review.background')}\n`)
    }
  }
}

/** Review progress on stderr, in the user's language (`ui.language`). */
export function printReviewEvent(io: CliIO, event: ReviewEvent, t: Translate): void {
  switch (event.type) {
    case 'review_started': {
      const reasons = event.reasons.map((reason) => describeReviewReason(reason, t)).join(t('review.reasonSeparator'))
      io.err(`${t('review.reviewing', { reasons })}\n`)
      break
    }
    case 'review_finished': {
      // The headline (which stores and skills changed), then what was learned, a line each.
      const headline = describeReviewSummary(event.outcome.summary, t)
      if (!headline) {
        // A review that only proposed is not "nothing": the Inbox line below says what waits.
        if (!event.outcome.proposals?.length) io.err(`💾 ${t('learned.nothing')}\n`)
        break
      }
      const details = describeLearned(event.outcome.summary, t).map((line) => `   ${line}\n`)
      io.err(`💾 ${headline}\n${details.join('')}`)
      break
    }
    case 'review_failed':
      io.err(`cairn: ${t('review.failed', { error: describeReviewFailure(event.failure, t) })}\n`)
      break
    case 'reviews_paused':
      io.err(`cairn: ${describePauseReason(event.reason, t)}\n`)
      break
  }
  // What the review only proposed waits for the user (worded in English, like `cairn inbox` itself).
  if (event.type === 'review_finished' && event.outcome.proposals?.length) io.err(`📥 ${inboxWaitingLine(event.outcome.proposals.length)}\n`)
}

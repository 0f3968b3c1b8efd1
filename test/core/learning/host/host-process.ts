/**
 * A review host in a process of its own, as `cairn serve` or the app runs one, for tests that signal
 * or kill the host. Input: one JSON argument ({@link HostProcessInput}). Prints every review event,
 * then `{ type: 'result', result }`, as JSON lines on stdout. SIGINT is logged and otherwise ignored,
 * so a test can check what Ctrl+C in the terminal does to the worker.
 */
import type { ReviewJob } from '../../../../shared/review-protocol'
import type { ProviderSettings } from '../../../../electron/core/provider/provider-settings'
import { CairnCore } from '../../../../electron/core/cairn'
import { ReviewHost, reviewHostDepsOf, type ReviewHostLimits } from '../../../../electron/core/learning/host/review-host'
import { forkReviewWorker } from '../../../../electron/core/learning/host/spawn-worker'

export interface HostProcessInput {
  home: string
  provider: ProviderSettings
  limits?: ReviewHostLimits
  job: Omit<ReviewJob, 'reviewId'>
}

const print = (line: unknown) => process.stdout.write(JSON.stringify(line) + '\n')

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2]) as HostProcessInput
  const core = await CairnCore.open({ home: input.home })
  const host = new ReviewHost({ ...reviewHostDepsOf(core), spawn: () => forkReviewWorker(), provider: () => input.provider, limits: input.limits })
  host.events.on(print)
  process.on('SIGINT', () => print({ type: 'sigint' }))
  const result = await host.wait(host.enqueue(input.job))
  print({ type: 'result', result })
  await host.close()
  await core.close()
}

void main()

import { parseCommandArgs } from '../args'
import { CliFailure, printJson } from '../io'
import { cliLearning } from '../learning'
import type { CliCommand } from './types'

export const reviewCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] review [--session ID] [--wait] [--json]

Reviews a conversation now (the latest by default) to learn from it: saves durable facts to memory,
creates or patches skills. Without --wait the review finishes in the background; with --wait it
prints what it learned.
`,
  async run(ctx, args) {
    const { values } = parseCommandArgs(args, { session: { type: 'string' }, wait: { type: 'boolean' }, json: { type: 'boolean' } })
    const core = await ctx.core()
    const session = values.session ? core.sessions.get(values.session) : core.sessions.latest()
    if (!session) {
      throw new CliFailure(values.session ? `There is no session ${values.session}. List them with: cairn sessions` : 'There are no conversations to review yet.')
    }
    const learning = cliLearning(core, ctx.env, ctx.io, { wait: Boolean(values.wait), json: Boolean(values.json) })
    const reviewId = learning.loop.reviewNow(session.id)
    if (!values.wait) {
      await learning.finish()
      if (values.json) printJson(ctx.io, { reviewId, sessionId: session.id, status: 'started' })
      return 0
    }
    const result = await learning.host.wait(reviewId)
    await learning.finish()
    if (result === 'skipped') ctx.io.err('cairn: learning is turned off (learning.enabled is false), so nothing was reviewed.\n')
    return result === 'done' || result === 'skipped' ? 0 : 1
  }
}

import { queueCuration } from '../../core/learning/host/curation-schedule'
import { LearningState } from '../../core/learning/host/learning-state'
import { ProposalStore } from '../../core/ledger/proposals'
import { archiveUnusedSkills } from '../../core/skills/skill-archive'
import { parseCommandArgs } from '../args'
import { printJson } from '../io'
import { cliLearning } from '../learning'
import type { CliCommand } from './types'

export const curateCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] curate [--wait] [--json]

Tends the library. First moves skills Cairn made that nobody used for skills.archiveAfterDays
into skills/.archive (each move is on the timeline and can be reverted). Then a curation pass reads
every skill and both memory files, looking for overlapping skills and repeated, contradictory or
stale memory, and proposes merges and fixes in the Inbox (cairn inbox). Nothing it proposes is
applied until you approve it. Without --wait the pass finishes in the background.
`,
  async run(ctx, args) {
    const { values } = parseCommandArgs(args, { wait: { type: 'boolean' }, json: { type: 'boolean' } })
    const core = await ctx.core()
    const archive = await archiveUnusedSkills(core)
    if (!values.json) {
      for (const skill of archive.archived) ctx.io.err(`🗄  Archived unused skill ${skill.name} (to ${skill.archivePath}; cairn revert brings it back)\n`)
      for (const failure of archive.failed) ctx.io.err(`cairn: could not archive ${failure.name}: ${failure.error}\n`)
    }
    const { enabled, mode } = core.config.get().learning
    if (!enabled || mode === 'off') {
      // Not queued, so the schedule's clock is not reset by a pass that never ran.
      if (values.json) printJson(ctx.io, { archived: archive.archived, failed: archive.failed, reviewId: null, status: 'skipped' })
      else ctx.io.err('cairn: learning is off (learning.mode is off or learning.enabled is false), so the library was not curated.\n')
      return 0
    }
    const learning = cliLearning(core, ctx.env, ctx.io, { wait: Boolean(values.wait), json: false })
    const reviewId = queueCuration(learning.host, new LearningState(core.db))
    if (!values.wait) {
      await learning.finish()
      if (values.json) printJson(ctx.io, { archived: archive.archived, failed: archive.failed, reviewId, status: 'started' })
      return 0
    }
    const result = await learning.host.wait(reviewId)
    await learning.finish()
    const proposals = new ProposalStore(core.db).list({ reviewId, oldestFirst: true })
    if (values.json) {
      printJson(ctx.io, { archived: archive.archived, failed: archive.failed, reviewId, status: result, proposals })
    } else if (result === 'done' && proposals.length === 0) {
      ctx.io.err('The library looks tidy: curation proposed nothing.\n')
    }
    return result === 'done' || result === 'skipped' ? 0 : 1
  }
}

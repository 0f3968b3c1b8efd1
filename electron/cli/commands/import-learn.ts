import type { LearnImportedInfo } from '../../../shared/ipc/contract-import'
import { ImportBatches } from '../../core/import'
import { ImportedLearning, LearningOffError } from '../../core/learning/host/learn-imported'
import { CliFailure, oneLine, UsageError, type CliIO } from '../io'
import { cliLearning } from '../learning'
import type { CliContext } from './types'

/** For `cairn import`'s usage text. */
export const IMPORT_LEARN_USAGE = `learn [ID]      learn from imported conversations (all, or import ID's): each one not learned from
                before is reviewed now, one after another, under the current learning mode; Ctrl-C
                stops after the conversation under review`

/**
 * `cairn import learn [ID]`: reviews imported conversations in the foreground, with a progress line
 * per conversation (and the review's own lines), and stops cleanly on Ctrl-C. Exits 1 when a review failed.
 */
export async function importLearn(ctx: CliContext, rest: string[], json: boolean): Promise<number> {
  if (rest.length > 1) throw new UsageError('import learn takes at most one import id, e.g. cairn import learn 3.')
  const importId = rest.length ? Number(rest[0]) : undefined
  if (importId !== undefined && (!Number.isInteger(importId) || importId < 1)) {
    throw new UsageError(`"${rest[0]}" is not an import id; cairn import list shows them.`)
  }
  const core = await ctx.core()
  if (importId !== undefined && !new ImportBatches(core.db).get(importId)) throw new CliFailure(`There is no import #${importId} (cairn import list shows them).`)
  const reviews = cliLearning(core, ctx.env, ctx.io, { wait: true, json })
  const learning = new ImportedLearning({
    db: core.db,
    sessions: core.sessions,
    loop: reviews.loop,
    host: reviews.host,
    learningOn: () => core.config.get().learning.enabled && core.config.get().learning.mode !== 'off',
    changed: json ? undefined : progressPrinter(ctx.io)
  })
  const stop = (): void => {
    learning.cancel()
    ctx.io.err('Stopping after the conversation under review…\n')
  }
  let ended: LearnImportedInfo
  try {
    learning.start(importId)
    process.once('SIGINT', stop)
    ended = await learning.finished()
  } catch (error) {
    if (error instanceof LearningOffError) throw new CliFailure(error.message)
    throw error
  } finally {
    process.off('SIGINT', stop)
    await reviews.finish()
  }
  // --json prints JSON Lines: the reviews' events as they happen, then this summary as the last line.
  if (json) ctx.io.out(JSON.stringify({ type: 'import_learn_finished', ...ended }) + '\n')
  else ctx.io.out(summaryLine(ended))
  return ended.failed > 0 ? 1 : 0
}

/** A line as each conversation's review starts. */
function progressPrinter(io: CliIO): (progress: LearnImportedInfo) => void {
  let shown: string | null = null
  return (progress) => {
    if (!progress.current || progress.current.sessionId === shown) return
    shown = progress.current.sessionId
    io.err(`[${progress.done + 1}/${progress.total}] reviewing "${oneLine(progress.current.title ?? 'untitled', 60)}"\n`)
  }
}

function summaryLine(ended: LearnImportedInfo): string {
  if (ended.total === 0) return 'There are no imported conversations left to learn from.\n'
  const figures = `${ended.done} of ${ended.total} reviewed: ${ended.changes} changes made, ${ended.proposed} proposed, ${ended.failed} failed`
  if (ended.stopped === 'cancelled') return `Stopped. ${figures}. Run it again to go on.\n`
  if (ended.stopped === 'learning_off') return `Stopped: learning was turned off. ${figures}.\n`
  return `Done. ${figures}.${ended.failed ? ` Latest failure: ${ended.lastError}` : ''}\n`
}

import type { CairnCore } from '../../core/cairn'
import { segmentBacklog } from '../../core/db/segment-backlog'
import type { CliContext } from './types'

/**
 * `cairn search --reindex-words`: segments the Chinese/Japanese messages written before Cairn kept
 * their words (migration 14), with progress on stderr. The app does this by itself when idle; this is
 * for the CLI alone, or to get it over with. Ctrl-C stops after the batch in flight; running it again
 * (or the app) resumes there.
 */
export async function reindexWords(ctx: CliContext, core: CairnCore): Promise<number> {
  const stop = new AbortController()
  const onSigint = (): void => stop.abort()
  process.once('SIGINT', onSigint)
  let shown = false
  try {
    const outcome = await segmentBacklog(core.db, {
      signal: stop.signal,
      onProgress: ({ done, total }) => {
        shown = true
        ctx.io.err(ctx.io.isTTY ? `\r${done} of ${total} messages` : `${done} of ${total} messages\n`)
      }
    })
    if (shown && ctx.io.isTTY) ctx.io.err('\n')
    const { done, total } = outcome.progress
    if (outcome.status === 'done') {
      ctx.io.out(total === 0 ? 'Every message is already indexed by word.\n' : `Done: ${total} older messages indexed by word (${outcome.segmented} held Chinese, Japanese or other words to add).\n`)
    } else {
      ctx.io.out(`Stopped after ${done} of ${total} older messages. Run it again to go on.\n`)
    }
    return 0
  } finally {
    process.off('SIGINT', onSigint)
  }
}

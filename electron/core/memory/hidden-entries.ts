import { previews } from './entry-ops'
import type { PlanOutcome } from './memory-files'
import type { HiddenEntrySource } from './memory-hidden'
import { messages } from './messages'
import { findHiddenSubject } from './similar-entries'
import type { PlannedFailure } from './store-outcomes'
import type { MemoryCallContext, MemoryMutationOptions, MemoryOperation, MemoryTarget } from './types'

/**
 * What the memory store does with entries the user hid (memory-hidden.ts): the model never reads them,
 * and never writes their subject back in other words. The store still counts them in its usage and
 * limit, since they are in the file.
 */
export class HiddenEntries {
  constructor(readonly source: HiddenEntrySource | undefined) {}

  /** `entries` without the hidden ones, for everything the model reads. */
  visible(target: MemoryTarget, entries: readonly string[]): string[] {
    const hidden = this.source?.list(target)
    return hidden?.size ? entries.filter((entry) => !hidden.has(entry)) : [...entries]
  }

  /** An ambiguous old_text's previews (see findEntry) without those of hidden entries, which would name them. */
  visiblePreviews(target: MemoryTarget, entries: readonly string[], shown: readonly string[]): string[] {
    const hidden = this.source?.list(target)
    if (!hidden?.size) return [...shown]
    const hiddenPreviews = new Set(previews(entries.filter((entry) => hidden.has(entry))))
    return shown.filter((preview) => !hiddenPreviews.has(preview))
  }

  /**
   * Refuses a write whose new texts (`contents`) bring up a hidden entry of `entries` again, without
   * naming it. The user's own writes and what they approved (`allowSimilar`) pass; so does a rewrite of
   * the hidden entry itself (`rewriting`), which stays hidden under its new words.
   */
  refusal(
    target: MemoryTarget,
    entries: readonly string[],
    contents: readonly string[],
    ctx: MemoryCallContext,
    options: MemoryMutationOptions,
    rewriting: string | null = null
  ): PlanOutcome<PlannedFailure> | null {
    if (!this.source || options.allowSimilar || ctx.write.source === 'user') return null
    if (!bringsUpHidden(this.source, target, entries, contents, rewriting)) return null
    return { kind: 'fail', failure: { result: { success: false, error: messages.hiddenSubject }, counts: true } }
  }
}

/** Whether any of `contents` says again, in any words, a hidden entry of `entries` (other than `rewriting`). */
export function bringsUpHidden(
  source: HiddenEntrySource,
  target: MemoryTarget,
  entries: readonly string[],
  contents: readonly string[],
  rewriting: string | null = null
): boolean {
  const marked = source.list(target)
  const hidden = entries.filter((entry) => marked.has(entry) && entry !== rewriting)
  return hidden.length > 0 && contents.some((content) => findHiddenSubject(hidden, content) !== null)
}

/** The new texts a batch writes: its adds' and replaces' contents. */
export function writtenContents(operations: readonly MemoryOperation[]): string[] {
  return operations.flatMap((op) => ((op?.action === 'add' || op?.action === 'replace') && typeof op.content === 'string' ? [op.content.trim()] : []))
}

import { findEntry, type EntryMatch } from './entry-ops'
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

  /**
   * The entry `needle` picks (see findEntry) among those the writer was shown: a model never changes or
   * removes a hidden entry it cannot see, and an ambiguous match never names one. The user sees them all.
   */
  find(target: MemoryTarget, entries: readonly string[], needle: string, ctx: MemoryCallContext, options: MemoryMutationOptions): EntryMatch {
    const hidden = decidedByUser(ctx, options) ? null : this.source?.list(target)
    if (!hidden?.size) return findEntry(entries, needle)
    const shown = entries.filter((entry) => !hidden.has(entry))
    const match = findEntry(shown, needle)
    return match.kind === 'found' ? { kind: 'found', index: entries.indexOf(shown[match.index]) } : match
  }

  /** The old_text of a batch's replace or remove that picks only an entry the writer was never shown, or null. */
  unseenTarget(target: MemoryTarget, entries: readonly string[], operations: readonly MemoryOperation[], ctx: MemoryCallContext, options: MemoryMutationOptions): string | null {
    for (const op of operations) {
      const needle = (op?.action === 'replace' || op?.action === 'remove') && typeof op.old_text === 'string' ? op.old_text.trim() : ''
      if (needle && this.find(target, entries, needle, ctx, options).kind === 'none' && findEntry(entries, needle).kind !== 'none') return needle
    }
    return null
  }

  /**
   * Refuses a write whose new texts (`contents`) bring up a hidden entry of `entries` again, without
   * naming it. The user's own writes and what they approved pass.
   */
  refusal(
    target: MemoryTarget,
    entries: readonly string[],
    contents: readonly string[],
    ctx: MemoryCallContext,
    options: MemoryMutationOptions
  ): PlanOutcome<PlannedFailure> | null {
    if (!this.source || decidedByUser(ctx, options)) return null
    if (!bringsUpHidden(this.source, target, entries, contents)) return null
    return { kind: 'fail', failure: { result: { success: false, error: messages.hiddenSubject }, counts: true } }
  }
}

/** The user's own write, or one they decided on: "Add anyway", a restore, an approved proposal. */
function decidedByUser(ctx: MemoryCallContext, options: MemoryMutationOptions): boolean {
  return ctx.write.source === 'user' || options.allowSimilar === true || ctx.ledgerMeta?.proposalId !== undefined
}

/** Whether any of `contents` says again, in any words, a hidden entry of `entries`. */
export function bringsUpHidden(source: HiddenEntrySource, target: MemoryTarget, entries: readonly string[], contents: readonly string[]): boolean {
  const marked = source.list(target)
  const hidden = entries.filter((entry) => marked.has(entry))
  return hidden.length > 0 && contents.some((content) => findHiddenSubject(hidden, content) !== null)
}

/** The new texts a batch writes: its adds' and replaces' contents. */
export function writtenContents(operations: readonly MemoryOperation[]): string[] {
  return operations.flatMap((op) => ((op?.action === 'add' || op?.action === 'replace') && typeof op.content === 'string' ? [op.content.trim()] : []))
}

import type { SimilarRefusal } from './entry-ops'
import type { HiddenEntries } from './hidden-entries'
import { usageOf } from './memory-file'
import type { MemoryFiles, PlanOutcome } from './memory-files'
import { messages, usageFraction } from './messages'
import { sanitizeEntries } from './snapshot'
import type { StoreDating } from './store-dating'
import type { PlannedFailure } from './store-outcomes'
import type { MemoryFailure, MemoryTarget } from './types'

/**
 * A store's entries as the model is shown them (hidden ones left out, poisoned ones as placeholders,
 * with their dates), and the refusals that carry them back to it.
 */
export class StoreFailures {
  constructor(
    private readonly files: Pick<MemoryFiles, 'fileNameOf' | 'limitOf'>,
    private readonly dates: StoreDating,
    private readonly hidden: HiddenEntries
  ) {}

  /** Entries as the model sees them: hidden ones left out, poisoned ones replaced by a placeholder. */
  shown(target: MemoryTarget, entries: readonly string[]): string[] {
    return sanitizeEntries(this.hidden.visible(target, entries), this.files.fileNameOf(target))
  }

  failWith(target: MemoryTarget, entries: readonly string[], error: string, counts: boolean): PlanOutcome<PlannedFailure> {
    const usage = usageOf(entries, this.files.limitOf(target))
    return {
      kind: 'fail',
      failure: {
        result: {
          success: false,
          error,
          current_entries: this.shown(target, entries),
          ...this.dates.field(target, this.hidden.visible(target, entries)),
          usage: usageFraction(usage)
        },
        counts
      }
    }
  }

  /**
   * An add refused beside a similar entry: the entry, the replace to make instead, and the entries with
   * their dates. A restatement confirms the entry first, so the dates shown already say so.
   */
  similarFailure(target: MemoryTarget, entries: readonly string[], error: string, similar: SimilarRefusal): PlanOutcome<PlannedFailure> {
    this.dates.confirmSimilar(target, similar)
    const failure = this.failWith(target, entries, error, true)
    if (failure.kind !== 'fail') return failure
    const [shown] = this.shown(target, [similar.entry])
    const result: MemoryFailure = {
      ...failure.failure.result,
      similar_entry: shown,
      similarity: similar.kind,
      suggested_call: { action: 'replace', old_text: shown, content: similar.content }
    }
    return { kind: 'fail', failure: { result, counts: true } }
  }

  noMatch(target: MemoryTarget, entries: readonly string[], needle: string, verb: 'replace' | 'remove'): PlanOutcome<PlannedFailure> {
    const result: MemoryFailure = {
      success: false,
      error: messages.noMatch(needle, verb),
      current_entries: this.shown(target, entries)
    }
    return { kind: 'fail', failure: { result, counts: true } }
  }
}

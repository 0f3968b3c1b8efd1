import type { LedgerEntry, RevertResult } from '../../../shared/ledger'
import { scanForThreats, threatMessage } from '../security/threats'
import { entryChangesBetween } from './entry-diff'
import type { EntryDates, EntryDating } from './entry-dating'
import { HiddenEntries, writtenContents } from './hidden-entries'
import { planBatch, separatorLineError, trimmedText, type SimilarRefusal } from './entry-ops'
import type { HiddenEntrySource } from './memory-hidden'
import { MemoryFiles, type PlanOutcome, type TransactionOutcome } from './memory-files'
import { charCount, textLength, usageOf } from './memory-file'
import { messages, usageFraction, usageLabel } from './messages'
import { revertMemoryChange } from './revert'
import { findSimilarEntry } from './similar-entries'
import { renderBlock, type MemorySnapshot } from './snapshot'
import { limitsGetter, type MemoryStoreOptions } from './memory-store-options'
import { StoreDating } from './store-dating'
import { StoreFailures } from './store-failures'
import { projectKeyOfLedgerTarget, projectScopeFor, type ProjectScope } from './project-scope'
import { archiveMessages, archiveRetired, fitBatch, overflowSuccess, type ArchiveScope, type ArchiveSink } from './store-archiving'
import { ambiguous, countFailure, shrinkRefusal, succeeded, warningFor, type PlannedFailure } from './store-outcomes'
import type { MemoryCallContext, MemoryFailure, MemoryMutationOptions, MemoryOperation, MemoryReadResult, MemoryResult, MemoryTarget, MemoryUsage } from './types'

export type { MemoryStoreOptions }

/**
 * Bounded memory in MEMORY.md (`memory`, the agent's notes), USER.md (`user`, the user's profile) and, for a
 * store scoped to a workspace, that workspace's `memories/projects/<key>/PROJECT.md` (`project`).
 * Every change is a locked read-modify-write of the file on disk, so several Cairn processes can share
 * one data home; the prompt uses a snapshot frozen by {@link loadSnapshot} that later writes never touch.
 */
export class MemoryStore {
  private readonly files: MemoryFiles
  private frozen: MemorySnapshot | null = null
  /** Entry dates for the model, and repeats recorded as confirmations. */
  private readonly dates: StoreDating
  private readonly hidden: HiddenEntries
  private readonly archive: ArchiveSink | undefined
  /** What the model is shown of the entries, and the refusals built from them. */
  private readonly failures: StoreFailures

  constructor(private readonly options: MemoryStoreOptions) {
    this.dates = new StoreDating(options.dating)
    this.hidden = new HiddenEntries(options.hidden)
    this.archive = options.archive
    this.files = new MemoryFiles({
      dataHome: options.dataHome,
      dir: options.dir,
      limits: limitsGetter(options),
      recorder: options.recorder,
      lockTimeoutMs: options.lockTimeoutMs,
      project: options.project
    })
    this.failures = new StoreFailures(this.files, this.dates, this.hidden)
  }

  /** The same store whose `project` target is this workspace's project memory (keyed by its real path, so a symlink finds the same). */
  forWorkspace(workspacePath: string): MemoryStore {
    return this.forProject(projectScopeFor(workspacePath))
  }

  /** The same store over the project memory of `scope` (a ledger row's project, a review's start frame). */
  forProject(scope: ProjectScope): MemoryStore {
    return new MemoryStore({ ...this.options, project: scope })
  }

  /** The store a ledger row or proposal on `ledgerTarget` is about: for a project's PROJECT.md, that project's. */
  forLedgerTarget(ledgerTarget: string): MemoryStore {
    const key = projectKeyOfLedgerTarget(ledgerTarget)
    return key && key !== this.project?.key ? this.forProject({ key, workspace: '' }) : this
  }

  /** The workspace this store's `project` target belongs to; null when it knows none. */
  get project(): ProjectScope | null {
    return this.files.project
  }

  /** The file a target is kept in (throws NoProjectError for `project` without a workspace). */
  pathOf(target: MemoryTarget): string {
    return this.files.pathOf(target)
  }

  /**
   * Reads both files now and renders the prompt blocks, with threat-matching entries replaced by a
   * `[BLOCKED: …]` placeholder. An unreadable file gives no block and a line in `problems`.
   */
  loadSnapshot(): MemorySnapshot {
    const problems: string[] = []
    const block = (target: MemoryTarget): string | null => {
      let entries: string[]
      try {
        entries = this.files.readEntries(target)
      } catch (error) {
        problems.push(messages.readFailed(this.files.fileNameOf(target), (error as Error).message))
        return null
      }
      // Hidden entries stay out of the block but count in its usage: they are in the file.
      const limit = this.files.limitOf(target)
      return renderBlock(target, this.failures.shown(target, entries), limit, usageOf(entries, limit))
    }
    const project = this.files.project ? { project: block('project') } : {}
    const snapshot: MemorySnapshot = { memory: block('memory'), user: block('user'), ...project }
    this.frozen = Object.freeze(problems.length > 0 ? { ...snapshot, problems } : snapshot)
    return this.frozen
  }

  /** The snapshot from the last {@link loadSnapshot}, or null before the first. */
  get snapshot(): MemorySnapshot | null {
    return this.frozen
  }

  /** The archive below this store (null for a scratch copy or a store opened without one). */
  get archived(): ArchiveSink | null {
    return this.archive ?? null
  }

  private projectKeyOf(target: MemoryTarget): string | null {
    return target === 'project' ? (this.files.project?.key ?? null) : null
  }

  private archiveScope(target: MemoryTarget): ArchiveScope {
    return { target, projectKey: this.projectKeyOf(target), hidden: this.archive ? this.hidden.source?.list(target) : undefined }
  }

  /** Where this store's entry dates come from (a review's scratch copy uses the real store's). */
  get dating(): EntryDating | undefined {
    return this.dates.source
  }

  /** Which entries the user hid (a review's scratch copy uses the real store's). */
  get hiddenEntries(): HiddenEntrySource | undefined {
    return this.hidden.source
  }

  /** When each entry was added and last confirmed; null without dating or when state.db cannot say now. */
  datesOf(target: MemoryTarget, entries: readonly string[]): EntryDates[] | null {
    return this.dates.datesOf(target, entries)
  }

  /** The live entries on disk and their usage (raw text, for the app and the CLI). */
  read(target: MemoryTarget): { entries: string[]; usage: MemoryUsage } {
    const entries = this.files.readEntries(target)
    return { entries, usage: usageOf(entries, this.files.limitOf(target)) }
  }

  /** The `read` action: live entries with poisoned ones shown as placeholders, plus usage. */
  readForModel(target: MemoryTarget): MemoryReadResult | MemoryFailure {
    let entries: string[]
    try {
      entries = this.files.readEntries(target)
    } catch (error) {
      return { success: false, error: messages.readFailed(this.files.fileNameOf(target), (error as Error).message) }
    }
    const usage = usageOf(entries, this.files.limitOf(target))
    const shown = this.hidden.visible(target, entries)
    const result: MemoryReadResult = {
      success: true,
      target,
      entries: this.failures.shown(target, entries),
      ...this.dates.field(target, shown),
      usage: usageLabel(usage),
      entry_count: shown.length
    }
    const warning = warningFor(usage)
    return warning ? { ...result, warning } : result
  }

  /** Entries as shown to the model in error payloads: live, with poisoned ones replaced. */
  displayEntries(target: MemoryTarget): { entries: string[]; usage: string } {
    const { entries, usage } = this.read(target)
    return { entries: this.failures.shown(target, entries), usage: usageFraction(usage) }
  }

  /**
   * Adds one entry. A word-for-word repeat writes nothing and says so (`duplicate`); an entry that says
   * nearly the same as one already there, or contradicts it, is refused with that entry and a suggested
   * replace, unless `allowSimilar`. Either repeat confirms the existing entry.
   */
  async add(target: MemoryTarget, content: string, ctx: MemoryCallContext, options: MemoryMutationOptions = {}): Promise<MemoryResult> {
    const text = trimmedText(content)
    if (!text) return { success: false, error: messages.emptyContent }
    const refused = this.entryProblem(target, text)
    if (refused) return { success: false, error: refused }
    const limit = this.files.limitOf(target)
    const overflow = this.archive && options.overflow !== false ? this.archive : null
    let overflowed = false
    const outcome = await this.files.transact(target, { guardDrift: false, write: ctx.write, meta: ctx.ledgerMeta }, (entries) => {
      const hidden = this.hidden.refusal(target, entries, [text], ctx, options)
      if (hidden) return hidden
      if (entries.includes(text)) return { kind: 'noop' }
      const found = options.allowSimilar ? null : findSimilarEntry(entries, text)
      if (found) return this.failures.similarFailure(target, entries, messages.similarEntry(found.kind, found.entry), { ...found, content: text })
      const next = [...entries, text]
      if (charCount(next) > limit) {
        if (overflow) return (overflowed = true), { kind: 'noop' }
        return this.failures.failWith(target, entries, messages.addOverLimit(usageOf(entries, limit), textLength(text)), true)
      }
      return { kind: 'apply', entries: next, changes: [{ kind: 'memory.add', before: null, after: text }] }
    })
    if (overflow && overflowed && outcome.kind === 'noop') {
      const archived = overflow.add({ target, projectKey: this.projectKeyOf(target), text, source: 'overflow', provenance: ctx.write.provenance, write: ctx.write })
      if (archived.kind === 'refused') return { success: false, error: archiveMessages.refused(archived.reason) }
      const usage = usageOf(outcome.entries, limit)
      return overflowSuccess(succeeded(target, ctx, usage, outcome.entries.length, ''), archived, usageFraction(usage))
    }
    if (outcome.kind === 'noop') this.dates.confirm(target, [text])
    const result = this.finish(target, ctx, outcome, messages.added, messages.alreadyExists)
    return outcome.kind === 'noop' && result.success ? { ...result, duplicate: true } : result
  }

  /**
   * Replaces the entry containing `oldText`. Refused when it would remove more than half of a store
   * that is under 80% full (a model that wrongly believes memory is full, Hermes #76035) unless `force`.
   */
  async replace(target: MemoryTarget, oldText: string, content: string, ctx: MemoryCallContext, options: MemoryMutationOptions = {}): Promise<MemoryResult> {
    const scope = this.archiveScope(target)
    const needle = trimmedText(oldText)
    const text = trimmedText(content)
    if (!needle) return { success: false, error: messages.emptyOldText }
    if (!text) return { success: false, error: messages.emptyNewContent }
    const refused = this.entryProblem(target, text)
    if (refused) return { success: false, error: refused }
    const limit = this.files.limitOf(target)
    const outcome = await this.files.transact(target, { guardDrift: true, write: ctx.write, meta: ctx.ledgerMeta }, (entries) => {
      const match = this.hidden.find(target, entries, needle, ctx, options)
      if (match.kind === 'none') return this.failures.noMatch(target, entries, needle, 'replace')
      if (match.kind === 'ambiguous') return ambiguous(needle, match.previews)
      const before = entries[match.index]
      if (before === text) return { kind: 'noop' }
      const hidden = this.hidden.refusal(target, entries, [text], ctx, options)
      if (hidden) return hidden
      const next = entries.map((entry, index) => (index === match.index ? text : entry))
      const total = charCount(next)
      if (total > limit) return this.failures.failWith(target, entries, messages.replaceOverLimit(total, limit), true)
      const refusal = options.force ? null : shrinkRefusal(entries, next, limit)
      if (refusal) return refusal
      return { kind: 'apply', entries: next, changes: [{ kind: 'memory.replace', before, after: text }] }
    })
    if (outcome.kind === 'applied') archiveRetired(this.archive, scope, outcome.recorded, ctx.write)
    return this.finish(target, ctx, outcome, messages.replaced, messages.replaced)
  }

  /**
   * Removes the entry containing `oldText`. A single targeted removal is how "forget X" works, so it
   * is not shrink-guarded; the guard catches rewrites and batches that condense the store.
   */
  async remove(target: MemoryTarget, oldText: string, ctx: MemoryCallContext, options: MemoryMutationOptions = {}): Promise<MemoryResult> {
    const scope = this.archiveScope(target)
    const needle = trimmedText(oldText)
    if (!needle) return { success: false, error: messages.emptyOldText }
    const limit = this.files.limitOf(target)
    const outcome = await this.files.transact(target, { guardDrift: true, write: ctx.write, meta: ctx.ledgerMeta }, (entries) => {
      const match = this.hidden.find(target, entries, needle, ctx, options)
      if (match.kind === 'none') return this.failures.noMatch(target, entries, needle, 'remove')
      if (match.kind === 'ambiguous') return ambiguous(needle, match.previews)
      const before = entries[match.index]
      const next = entries.filter((_, index) => index !== match.index)
      return { kind: 'apply', entries: next, changes: [{ kind: 'memory.remove', before, after: null }] }
    })
    if (outcome.kind === 'applied') archiveRetired(this.archive, scope, outcome.recorded, ctx.write)
    return this.finish(target, ctx, outcome, messages.removed, messages.removed)
  }

  /**
   * Applies add/replace/remove operations all-or-nothing, checking the limit only on the final result,
   * so one call can free room and add. One ledger row per applied operation.
   */
  async applyBatch(target: MemoryTarget, operations: readonly MemoryOperation[], ctx: MemoryCallContext, options: MemoryMutationOptions = {}): Promise<MemoryResult> {
    const scope = this.archiveScope(target)
    if (!Array.isArray(operations) || operations.length === 0) {
      return { success: false, error: messages.emptyOperations }
    }
    for (const [i, op] of operations.entries()) {
      if ((op?.action === 'add' || op?.action === 'replace') && typeof op.content === 'string' && op.content.trim()) {
        const refused = this.entryProblem(target, op.content.trim())
        if (refused) {
          return { success: false, error: `${messages.batchPrefix(i + 1, op.action)}: ${refused}${messages.batchNothingApplied}` }
        }
      }
    }
    const limit = this.files.limitOf(target)
    const shrinks = operations.some((op) => op?.action === 'replace' || op?.action === 'remove')
    let repeated: string[] = []
    let restated: SimilarRefusal[] = []
    let left: string[] = []
    const overflow = this.archive && options.overflow !== false ? this.archive : null
    const outcome = await this.files.transact(target, { guardDrift: true, write: ctx.write, meta: ctx.ledgerMeta }, (entries) => {
      const hidden = this.hidden.refusal(target, entries, writtenContents(operations), ctx, options)
      if (hidden) return hidden
      const unseen = this.hidden.unseenTarget(target, entries, operations, ctx, options)
      if (unseen !== null) return this.failures.failWith(target, entries, messages.batchNoMatch(unseen) + messages.batchNothingApplied, true)
      const plan = planBatch(entries, operations, this.files.fileNameOf(target), { allowSimilar: options.allowSimilar })
      if (!plan.ok && plan.similar) return this.failures.similarFailure(target, entries, plan.error + messages.batchNothingApplied, plan.similar)
      if (!plan.ok) return this.failures.failWith(target, entries, plan.error + messages.batchNothingApplied, true)
      repeated = plan.repeated
      restated = plan.restated
      const total = charCount(plan.entries)
      const fitted = total > limit && overflow ? fitBatch(plan.entries, plan.changes, limit) : null
      if (fitted) [plan.entries, plan.changes, left] = [fitted.entries, fitted.changes, fitted.left]
      else if (total > limit) return this.failures.failWith(target, entries, messages.batchOverLimit(operations.length, total, limit), true)
      const refusal = shrinks && !options.force ? shrinkRefusal(entries, plan.entries, limit) : null
      if (refusal) return refusal
      if (plan.changes.length === 0) return { kind: 'noop' }
      return { kind: 'apply', entries: plan.entries, changes: plan.changes }
    })
    if (outcome.kind === 'applied' || outcome.kind === 'noop') {
      this.dates.confirm(target, repeated)
      for (const add of restated) this.dates.confirmSimilar(target, add)
    }
    if (outcome.kind === 'applied') archiveRetired(this.archive, scope, outcome.recorded, ctx.write)
    const archivedIds = (outcome.kind === 'applied' || outcome.kind === 'noop') && overflow ? left.flatMap((text) => {
      const archived = overflow.add({ target, projectKey: this.projectKeyOf(target), text, source: 'overflow', provenance: ctx.write.provenance, write: ctx.write })
      return archived.kind === 'refused' ? [] : [archived.entry.id]
    }) : []
    const applied = operations.length - restated.length - left.length
    const message =
      messages.applied(applied) +
      (restated.length ? messages.restatedSkipped(this.failures.shown(target, restated.map((add) => add.entry))) : '') +
      (left.length ? archiveMessages.batchOverflow(left.length, archivedIds) : '')
    const result = this.finish(target, ctx, outcome, message, message)
    if (left.length && result.success) return { ...result, archived: true, archive_ids: archivedIds }
    // Every add repeated an entry word for word: say so, as a lone add does.
    const allRepeats = outcome.kind === 'noop' && repeated.length > 0 && operations.every((op) => op?.action === 'add')
    return allRepeats && result.success ? { ...result, message: messages.alreadyExists, duplicate: true } : result
  }

  /**
   * Writes the entries `next` makes of the ones read under the lock (a sync's merge), in its order; each
   * entry that differs is a ledger row. New entries are checked as any are, and must fit under the limit.
   * Not refused for near-duplicates or contradictions: the merge already settled entry by entry what both
   * devices hold (sync/merge-memory.ts), and refusing part of it would keep the devices from converging.
   */
  async rewrite(target: MemoryTarget, next: (entries: readonly string[]) => string[], ctx: MemoryCallContext): Promise<MemoryResult> {
    const outcome = await this.files.transact(target, { guardDrift: false, write: ctx.write, meta: ctx.ledgerMeta }, (entries) => {
      const wanted = next(entries).map((entry) => entry.trim()).filter(Boolean)
      const refused = wanted.filter((entry) => !entries.includes(entry)).map((entry) => this.entryProblem(target, entry)).find(Boolean)
      if (refused) return this.failures.failWith(target, entries, refused, false)
      const limit = this.files.limitOf(target)
      if (charCount(wanted) > limit) return this.failures.failWith(target, entries, messages.batchOverLimit(wanted.length, charCount(wanted), limit), false)
      if (wanted.length === entries.length && wanted.every((entry, index) => entry === entries[index])) return { kind: 'noop' }
      return { kind: 'apply', entries: wanted, changes: entryChangesBetween(entries, wanted) }
    })
    return this.finish(target, ctx, outcome, messages.applied(1), messages.applied(0))
  }

  /** Undoes one memory ledger row at entry level (the caller marks the row reverted). */
  revertChange(entry: LedgerEntry): Promise<RevertResult> {
    // A project row is reverted in its own project's file, whichever workspace this store knows.
    return revertMemoryChange(this.forLedgerTarget(entry.target).files, entry)
  }

  /**
   * Why `text` (trimmed) cannot be saved as an entry: it holds a separator line, or the threat scan
   * blocks it (injection, invisible characters). Checked before the lock, so a refusal writes nothing.
   */
  private entryProblem(target: MemoryTarget, text: string): string | null {
    return separatorLineError(text, this.files.fileNameOf(target)) ?? threatMessage(scanForThreats(text, 'strict'))
  }

  private finish(
    target: MemoryTarget,
    ctx: MemoryCallContext,
    outcome: TransactionOutcome<PlannedFailure>,
    appliedMessage: string,
    noopMessage: string
  ): MemoryResult {
    switch (outcome.kind) {
      case 'applied':
        return succeeded(target, ctx, usageOf(outcome.entries, this.files.limitOf(target)), outcome.entries.length, appliedMessage)
      case 'noop':
        return succeeded(target, ctx, usageOf(outcome.entries, this.files.limitOf(target)), outcome.entries.length, noopMessage)
      case 'fail':
        return outcome.failure.counts ? countFailure(ctx, outcome.failure.result) : outcome.failure.result
      case 'drift':
        return {
          success: false,
          error: messages.drift(this.files.fileNameOf(target), outcome.backup),
          drift_backup: outcome.backup,
          remediation: messages.driftRemediation
        }
      case 'error':
        return { success: false, error: outcome.message }
    }
  }
}

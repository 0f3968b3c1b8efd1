import type { SimilarityKind } from './similar-entries'
import type { MemoryUsage } from './types'

/**
 * Every text the memory tool shows the model. Where Hermes has a message for the same case the
 * wording is kept (models and prompts were tuned against it); the Cairn-only cases follow its style.
 */

export function formatCount(value: number): string {
  return value.toLocaleString('en-US')
}

/** `"2,147/2,200"` (error payloads). */
export function usageFraction(usage: MemoryUsage): string {
  return `${formatCount(usage.current)}/${formatCount(usage.limit)}`
}

/** `"97% — 2,147/2,200 chars"` (success and read results). */
export function usageLabel(usage: MemoryUsage): string {
  return `${usage.percent}% — ${usageFraction(usage)} chars`
}

/** Points an eviction at the entries' ages, so early core preferences are not traded for fresh trivia. */
const DATES_HINT =
  '; entry_dates says when each was added and last confirmed: remove stale, never-confirmed trivia before long-standing preferences'

export const SUCCESS_NOTE = 'Write saved. This update is complete — do not repeat it.'
export const MAX_FAILURES_PER_TURN = 3
/** Above this share of the limit every successful result carries a warning. */
export const WARN_ABOVE = 0.9
/** Below this share, a change that removes more than half of the store needs `force`. */
export const SHRINK_GUARD_BELOW = 0.8

export const messages = {
  notAvailable: 'Memory is not available. It may be disabled in config.',
  userProfileDisabled:
    "The user profile (target 'user') is turned off in settings (memory.userProfileEnabled), so nothing can be read from or saved to it. Do not retry with target 'user'; continue without saving this.",
  invalidTarget: (target: unknown) => `Invalid target '${String(target)}'. Use 'memory', 'user' or 'project'.`,
  noProject:
    "This conversation has no workspace, so there is no project memory (target 'project') to read or save. Do not retry with target 'project'; save a fact that holds everywhere to 'memory', or continue without saving it.",
  operationsNotList: 'operations must be a list of {action, content?, old_text?} objects.',
  contentRequiredForAdd: "Content is required for 'add' action.",
  contentRequiredForReplace: "content is required for 'replace' action.",
  missingOldText: (action: string) =>
    `'${action}' needs old_text -- a short unique substring of the entry to ${action}. None was provided. Reissue the ${action} with old_text set to part of one of the current_entries below.`,
  unknownAction: (action: unknown) =>
    action === undefined || action === null || action === ''
      ? "No action given. Set action to 'add', 'replace', 'remove', 'read' or 'search', or send an operations list."
      : `Unknown action '${String(action)}'. Use: add, replace, remove, read, search`,

  emptyContent: 'Content cannot be empty.',
  emptyOldText: 'old_text cannot be empty.',
  emptyNewContent: "new_content cannot be empty. Use 'remove' to delete entries.",
  emptyOperations: 'operations list is empty.',

  added: 'Entry added.',
  alreadyExists: 'Entry already exists, word for word (no duplicate added; it now counts as confirmed). Do not add it again.',
  replaced: 'Entry replaced.',
  removed: 'Entry removed.',
  applied: (count: number) => `Applied ${count} operation(s).`,
  restatedSkipped: (entries: readonly string[]) =>
    ` Skipped ${entries.length} add(s) that an existing entry already says in other words (now confirmed): ${entries.map((entry) => `'${entry}'`).join(', ')}. If yours adds something, replace that entry instead.`,

  addOverLimit: (usage: MemoryUsage, entryLength: number) =>
    `Memory at ${usageFraction(usage)} chars. Adding this entry (${entryLength} chars) would exceed the limit. Consolidate now: use 'replace' to merge overlapping entries into shorter ones or 'remove' stale or less important entries (see current_entries below${DATES_HINT}), then retry this add — all in this turn.`,
  replaceOverLimit: (newTotal: number, limit: number) =>
    `Replacement would put memory at ${formatCount(newTotal)}/${formatCount(limit)} chars. Shorten the new content, or 'remove' other stale or less important entries to make room (see current_entries below${DATES_HINT}), then retry — all in this turn.`,
  batchOverLimit: (count: number, newTotal: number, limit: number) =>
    `After applying all ${count} operations, memory would be at ${formatCount(newTotal)}/${formatCount(limit)} chars -- over the limit. Remove or shorten more entries in the same batch (see current_entries below${DATES_HINT}), then retry.`,

  similarEntry: (kind: SimilarityKind, entry: string) =>
    kind === 'near_duplicate'
      ? `Not added: an existing entry already says this in other words: '${entry}'. Nothing was saved; that entry now counts as confirmed. If your text adds something it lacks, replace it instead (suggested_call: old_text = that entry), with one entry holding both.`
      : `Not added: it contradicts an existing entry: '${entry}'. Nothing was saved. If the user changed their mind or corrected it, replace that entry instead (suggested_call: old_text = that entry). If both hold, replace it with one entry that states both.`,

  hiddenSubject:
    'Not saved: the user asked Cairn not to bring this subject up (they hid a memory entry about it). Nothing was saved. Do not save it again in any words, and do not mention it unless the user raises it.',
  noMatch: (oldText: string, verb: 'replace' | 'remove') =>
    `No entry matched '${oldText}'. Check current_entries below and retry with the exact text of the entry you want to ${verb}.`,
  multipleMatches: (oldText: string) => `Multiple entries matched '${oldText}'. Be more specific.`,

  batchPrefix: (index: number, action: unknown) => `Operation ${index} (${action ? String(action) : 'unknown'})`,
  batchContentRequired: 'content is required.',
  batchReplaceContentRequired: "content is required (use action='remove' to delete).",
  batchOldTextRequired: 'old_text is required.',
  batchNoMatch: (oldText: string) => `no entry matched '${oldText}'.`,
  batchMultiple: (oldText: string) => `'${oldText}' matched multiple distinct entries -- be more specific.`,
  batchUnknownAction: 'unknown action. Use add, replace, or remove.',
  batchNothingApplied: ' No operations were applied (batch is all-or-nothing).',

  breaker: (failures: number) =>
    `Memory consolidation failed ${failures} times this turn. Stop retrying memory calls — leave memory unchanged for now and continue with your reply to the user. The fact can be saved in a later turn.`,

  drift: (fileName: string, backup: string) =>
    `Refusing to write ${fileName}: file on disk has content that wouldn't round-trip through the memory tool (likely added by another tool, a shell append, a manual edit, or a concurrent session). A snapshot was saved to ${backup}. Resolve the drift first — either rewrite the file as a clean §-delimited list of entries, or move the extra content out — then retry. This guard exists to prevent silent data loss.`,
  driftRemediation:
    'Open the .bak file, integrate the missing entries into the memory tool one at a time via memory(action=add, content=...), then remove or rewrite the original file to a clean state.',

  shrinkRefused: (before: MemoryUsage, after: number) =>
    `Refusing this change: it would shrink memory from ${formatCount(before.current)} to ${formatCount(after)} chars (more than half of it) while memory is only ${before.percent}% full, so there is no need to make room. Nothing was changed. If you were consolidating because you thought memory was full, stop: use action='read' to see the real usage. If the user asked to delete or rewrite these entries, or they are wrong, resend the same call with force: true.`,

  nearlyFull: (usage: MemoryUsage) =>
    `Memory is ${usage.percent}% full (${usageFraction(usage)} chars). Consolidate soon: in ONE call with an operations list, merge overlapping entries into shorter ones and remove stale ones, so the next add fits.`,

  lockTimeout: (fileName: string) =>
    `Could not save to ${fileName}: another Cairn process kept it locked too long. Nothing was changed; try the same call again in a moment.`,
  readFailed: (fileName: string, reason: string) =>
    `Could not read ${fileName} (${reason}). Nothing was changed; check the file's permissions, then retry.`,
  recordFailed: (fileName: string, reason: string) =>
    `Nothing was changed: ${fileName} was put back as it was because the change could not be recorded in the learning ledger (${reason}). Try the same call again in a moment; if it keeps failing, check that state.db is writable and the disk is not full.`,
  restoreFailed: (fileName: string, reason: string, restoreReason: string) =>
    `The change to ${fileName} could not be recorded in the learning ledger (${reason}), and putting the file back failed too (${restoreReason}). ${fileName} holds the change but the timeline does not show it, so it cannot be reverted there; check the file by hand.`,
  writeFailed: (fileName: string, reason: string) =>
    `Could not save ${fileName} (${reason}). Nothing was changed; check free disk space and the folder's permissions, then retry.`
}

/** Placeholder that replaces a poisoned entry wherever entries are shown to the model. */
export function blockedEntryText(fileName: string, ids: readonly string[]): string {
  return `[BLOCKED: ${fileName} entry contained threat pattern(s): ${ids.join(', ')}. Removed from system prompt; use memory(action=remove) to delete the original.]`
}

import { scanForThreats } from '../security/threats'
import { blockedEntryText, formatCount } from './messages'
import { joinEntries, usageOf } from './memory-file'
import type { MemoryTarget, MemoryUsage } from './types'

/** The prompt blocks, rendered once when a session starts; `null` when that store is empty. */
export interface MemorySnapshot {
  readonly memory: string | null
  readonly user: string | null
  /** The workspace's project memory; absent when the store knows no workspace. */
  readonly project?: string | null
  /** Files that could not be read (they get no block); absent when both were fine. */
  readonly problems?: readonly string[]
}

export const BLOCK_RULE = '═'.repeat(46)

const headers: Record<MemoryTarget, string> = {
  memory: 'MEMORY (your personal notes)',
  user: 'USER PROFILE (who the user is)',
  project: 'PROJECT MEMORY (facts about this workspace and its repository)'
}

/**
 * Replaces every entry that matches a threat pattern with a `[BLOCKED: …]` placeholder. Used for
 * everything shown to the model (the prompt snapshot and echoed entries); the file keeps the raw
 * text so the user can still see and remove it. Existing placeholders are left as they are.
 */
export function sanitizeEntries(entries: readonly string[], fileName: string): string[] {
  return entries.map((entry) => {
    if (isPlaceholder(entry)) return entry
    const findings = scanForThreats(entry, 'strict')
    if (findings.length === 0) return entry
    // One id for all invisible characters: hidden tag text alone would otherwise list dozens.
    const ids = findings.map((finding) => (finding.category === 'invisible' ? 'invisible_unicode' : finding.id))
    return blockedEntryText(fileName, [...new Set(ids)])
  })
}

/**
 * Exactly a placeholder (this one or Hermes's shorter form) and nothing else. Hermes passes any entry
 * that merely starts with `[BLOCKED:` unscanned, so `[BLOCKED: x] <payload>` reached the prompt.
 */
const placeholderPattern =
  /^\[BLOCKED: (?:MEMORY|USER|PROJECT)\.md entry contained threat pattern\(s\): [\w+, ]+\. Removed from system prompt(?:; use memory\(action=remove\) to delete the original)?\.\]$/

function isPlaceholder(entry: string): boolean {
  return placeholderPattern.test(entry)
}

/**
 * One prompt block: a rule, the header with usage, a rule, then the entries. A file grown far past its
 * limit by an outside writer is cut (head and tail kept) so it cannot flood the context window. `usage`
 * is the whole file's (entries the user hid count, though they are not shown).
 */
export function renderBlock(target: MemoryTarget, entries: readonly string[], limit: number, usage: MemoryUsage = usageOf(entries, limit)): string | null {
  if (entries.length === 0) return null
  let content = joinEntries(entries)
  const renderCap = Math.max(limit * 2, 4000)
  if (content.length > renderCap) {
    const head = Math.floor(renderCap * 0.7)
    const tail = Math.floor(renderCap * 0.2)
    const omitted = content.length - head - tail
    content =
      content.slice(0, head) +
      `\n\n[... ${formatCount(omitted)} chars truncated — memory over budget (${formatCount(usage.current)}/${formatCount(limit)}); consolidate via memory(action=remove/replace) ...]\n\n` +
      content.slice(-tail)
  }
  const over = usage.current > limit ? ' ⚠ OVER BUDGET' : ''
  const header = `${headers[target]} [${usage.percent}% — ${formatCount(usage.current)}/${formatCount(limit)} chars${over}]`
  return [BLOCK_RULE, header, BLOCK_RULE, content].join('\n')
}

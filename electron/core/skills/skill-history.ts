import { skillNameOf, type LedgerEntry, type RevertResult, type WriteContext } from '../../../shared/ledger'
import type { Ledger } from '../ledger/ledger'
import { SKILL_FILE, isSupportDir } from './skill-paths'
import type { SkillStore } from './skill-store'
import type { SkillResult } from './skill-write-support'
import { refusal } from '../ledger/refusal'

/** What restoring a version goes through: the locked store, the ledger, and the timeline's revert. */
export interface SkillHistorySource {
  skills: Pick<SkillStore, 'get' | 'create' | 'edit' | 'writeFile' | 'removeFile'>
  ledger: Pick<Ledger, 'get' | 'onRecord'>
  revert(id: number): Promise<RevertResult>
}

export type SkillRowLookup = { ok: true; entry: LedgerEntry } | (ReturnType<typeof refusal> & { code?: 'not_found' })

/** Ledger row `id` when it is a change to skill `name`; a clear refusal when it is missing or another skill's. */
export function skillRow(ledger: Pick<Ledger, 'get'>, name: string, id: number): SkillRowLookup {
  const entry = ledger.get(id)
  if (!entry) return { ...refusal('revert.not_found', { id }), code: 'not_found' }
  const owner = skillNameOf(entry)
  if (owner !== name) {
    return owner === null ? refusal('skill_restore.other_target', { id, target: entry.target, name }) : refusal('skill_restore.other_skill', { id, owner, name })
  }
  return { ok: true, entry }
}

/**
 * The file of the skill a ledger target names, below the skill's folder: null for its SKILL.md,
 * `references/x.md` for a supporting file, undefined when the target is not inside skill `name`.
 */
export function skillFileOf(target: string, name: string): string | null | undefined {
  const parts = target.split('/')
  for (let i = 0; i < parts.length - 1; i++) {
    if (parts[i] !== name) continue
    if (parts[i + 1] === SKILL_FILE && i + 2 === parts.length) return null
    if (isSupportDir(parts[i + 1]) && i + 2 < parts.length) return parts.slice(i + 1).join('/')
  }
  return undefined
}

/** The text a skill's file held right after `entry`: null when the row left it absent (removed, or the skill archived). */
export function versionAfter(entry: LedgerEntry): string | null {
  return entry.kind === 'skill.delete' || entry.kind === 'skill.file_remove' ? null : entry.after
}

/**
 * Makes skill `name`'s file read as it did right after ledger row `ledgerId`, as a new change with
 * source `user` (kind `skill.edit`, `skill.file_write`, `skill.file_remove`, or `skill.create` when
 * the skill is gone), written through the locked store like any other. A `skill.delete` row's "after"
 * is the archived copy: that is brought back by the timeline's revert of the row. Refused, with
 * nothing written, when the row is not this skill's or the file already reads that way.
 */
export async function restoreSkillVersion(source: SkillHistorySource, name: string, ledgerId: number): Promise<RevertResult> {
  const found = skillRow(source.ledger, name, ledgerId)
  if (!found.ok) return found
  const entry = found.entry
  if (entry.kind === 'skill.delete') return source.revert(entry.id)
  const file = skillFileOf(entry.target, name)
  if (file === undefined) return refusal('skill_restore.not_a_file', { id: ledgerId, target: entry.target, name })
  if (entry.kind === 'skill.file_remove' && file === null) {
    return refusal('skill_restore.removed_skill_md', { id: ledgerId, target: entry.target })
  }
  if ('encoding' in entry.meta && entry.meta.encoding === 'base64' && entry.kind !== 'skill.file_remove') {
    return refusal('skill_restore.binary', { id: ledgerId })
  }
  const write: WriteContext = { source: 'user', sessionId: null }
  const text = entry.after
  const category = 'category' in entry.meta ? entry.meta.category : null
  const { result, rows } = await capturingRows(source.ledger, name, () => {
    if (file !== null && entry.kind === 'skill.file_remove') return source.skills.removeFile({ name, file_path: file }, write)
    if (text === null) return Promise.resolve<SkillResult>({ success: false, error: `Timeline entry #${ledgerId} holds no text to restore.` })
    if (file !== null) return source.skills.writeFile({ name, file_path: file, file_content: text }, write)
    // The skill is gone (archived or deleted): it comes back with this SKILL.md, where it lived then.
    if (!source.skills.get(name)) return source.skills.create({ name, category, content: text }, write)
    return source.skills.edit({ name, content: text }, write)
  })
  if (!result.success) return { ok: false, error: result.error }
  const row = rows[rows.length - 1]
  if (!row) return refusal('skill_restore.unchanged', { id: ledgerId, target: entry.target })
  return { ok: true, revertEntry: row }
}

/** Runs a store write and collects the ledger rows this process recorded for the skill meanwhile (the write's own). */
async function capturingRows(ledger: Pick<Ledger, 'onRecord'>, name: string, write: () => Promise<SkillResult>): Promise<{ result: SkillResult; rows: LedgerEntry[] }> {
  const rows: LedgerEntry[] = []
  const stop = ledger.onRecord((row) => {
    if (row.source === 'user' && skillNameOf(row) === name) rows.push(row)
  })
  try {
    return { result: await write(), rows }
  } finally {
    stop()
  }
}

import type { LedgerEntry, LedgerSource } from '../../../shared/ledger'
import { SKILL_FILE } from './skill-paths'

/**
 * Who made a skill, which decides whether learning may change it without asking: only a skill Cairn
 * made itself (`cairn`: written by the agent or a review, and not edited by hand or by the user since)
 * is tended freely; one the user wrote or edited (`user`), one that came from an import (`import`) and
 * one from a read-only root (`external`) only ever get proposals.
 */
export type SkillMadeBy = 'cairn' | 'user' | 'import' | 'external'

const CAIRN_SOURCES: ReadonlySet<LedgerSource> = new Set(['agent', 'review'])

export interface SkillOriginInput {
  /** The skill lives in a read-only root. */
  readOnly: boolean
  /** Its ledger rows, newest first (Ledger.forSkill). */
  history: readonly LedgerEntry[]
  /** `skill_usage.created_by`, for a skill whose create row is gone. */
  createdBy: string | null
  /** Its SKILL.md as it reads now; null when it could not be read. */
  currentText: string | null
}

export function skillMadeBy(input: SkillOriginInput): SkillMadeBy {
  if (input.readOnly) return 'external'
  const rows = input.history.filter((row) => row.revertedBy === null && row.source !== 'revert')
  const created = rows.find((row) => row.kind === 'skill.create')
  const creator: string | null = created?.source ?? input.createdBy
  if (creator === 'import') return 'import'
  if (creator === null || !CAIRN_SOURCES.has(creator as LedgerSource)) return 'user'
  if (rows.some((row) => row.source === 'user' || row.source === 'import')) return 'user'
  // Changed on disk since Cairn last wrote it: someone edited it by hand.
  const lastWrite = input.history.find((row) => row.target.endsWith(`/${SKILL_FILE}`) && row.kind !== 'skill.delete')
  if (lastWrite && input.currentText !== null && lastWrite.after !== null && lastWrite.after !== input.currentText) return 'user'
  return 'cairn'
}

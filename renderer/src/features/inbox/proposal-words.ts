import type { MessageKey, Translate } from '../../../../shared/i18n'
import { isMemoryKind, normalizeLedgerMeta, type MemoryStoreName } from '../../../../shared/ledger-names'
import { ledgerKindOf, type ProposalCause, type ProposalKind } from '../../../../shared/proposals'
import type { DecisionFailure, ProposalItem } from '../../stores/inbox'
import { skillFileOf } from '../timeline/labels'

/** What a proposal is about: one memory file's entry, or one file of a skill. */
export type ProposalSubject = { family: 'memory'; store: MemoryStoreName } | { family: 'skill'; skill: string; file: string; binary: boolean; absorbedInto: string | null }

export function subjectOf(proposal: Pick<ProposalItem, 'kind' | 'target' | 'meta'>): ProposalSubject {
  const kind = ledgerKindOf(proposal.kind)
  const meta = normalizeLedgerMeta(kind, proposal.target, proposal.meta) as unknown as Record<string, unknown>
  if (isMemoryKind(kind)) return { family: 'memory', store: meta.store === 'user' || meta.store === 'project' ? meta.store : 'memory' }
  const skill = String(meta.skill)
  return {
    family: 'skill',
    skill,
    file: skillFileOf(proposal, skill),
    binary: meta.encoding === 'base64',
    absorbedInto: typeof meta.absorbedInto === 'string' ? meta.absorbedInto : null
  }
}

const actionKeys: Record<ProposalKind, MessageKey> = {
  'memory.add': 'inbox.action.memory.add',
  'memory.replace': 'inbox.action.memory.replace',
  'memory.remove': 'inbox.action.memory.remove',
  'skill.create': 'inbox.action.skill.create',
  'skill.patch': 'inbox.action.skill.patch',
  'skill.edit': 'inbox.action.skill.edit',
  // Cairn never deletes a skill: removing one moves it to the archive, from where it can be restored.
  'skill.delete': 'inbox.action.skill.archive',
  'skill.file_write': 'inbox.action.skill.file_write',
  'skill.file_remove': 'inbox.action.skill.file_remove',
  'skill.disable': 'inbox.action.skill.disable',
  // Nothing files archive proposals (what the archive keeps is never lost); named for completeness.
  'archive.add': 'kind.archive.add',
  'archive.remove': 'kind.archive.remove'
}

/** What approving it would do, in words: "Remember in About you", "Patch the skill “deploy”". */
export function describeProposal(proposal: Pick<ProposalItem, 'kind' | 'target' | 'meta'>, t: Translate): string {
  const subject = subjectOf(proposal)
  if (subject.family === 'memory') return t(actionKeys[proposal.kind], { store: t(`memory.${subject.store}.title`) })
  if (proposal.kind === 'skill.delete' && subject.absorbedInto) return t('inbox.action.skill.merge', { name: subject.skill, into: subject.absorbedInto })
  return t(actionKeys[proposal.kind], { name: subject.skill, file: subject.file })
}

const causeKeys: Record<ProposalCause, { badge: MessageKey; text: MessageKey }> = {
  ask_mode: { badge: 'inbox.cause.ask_mode.badge', text: 'inbox.cause.ask_mode' },
  user_skill: { badge: 'inbox.cause.user_skill.badge', text: 'inbox.cause.user_skill' },
  imported_skill: { badge: 'inbox.cause.imported_skill.badge', text: 'inbox.cause.imported_skill' },
  pinned_skill: { badge: 'inbox.cause.pinned_skill.badge', text: 'inbox.cause.pinned_skill' },
  pinned_entry: { badge: 'inbox.cause.pinned_entry.badge', text: 'inbox.cause.pinned_entry' },
  curation: { badge: 'inbox.cause.curation.badge', text: 'inbox.cause.curation' },
  disable: { badge: 'inbox.cause.disable.badge', text: 'inbox.cause.disable' },
  suggested: { badge: 'inbox.cause.suggested.badge', text: 'inbox.cause.suggested' },
  import_overflow: { badge: 'inbox.cause.import_overflow.badge', text: 'inbox.cause.import_overflow' },
  imported_memory: { badge: 'inbox.cause.imported_memory.badge', text: 'inbox.cause.imported_memory' },
  sync_conflict: { badge: 'inbox.cause.sync_conflict.badge', text: 'inbox.cause.sync_conflict' },
  sync_overflow: { badge: 'inbox.cause.sync_overflow.badge', text: 'inbox.cause.sync_overflow' },
  untrusted_source: { badge: 'inbox.cause.untrusted_source.badge', text: 'inbox.cause.untrusted_source' },
  dangerous_content: { badge: 'inbox.cause.dangerous_content.badge', text: 'inbox.cause.dangerous_content' },
  learning_off: { badge: 'inbox.cause.learning_off.badge', text: 'inbox.cause.learning_off' },
  skill_shrink: { badge: 'inbox.cause.skill_shrink.badge', text: 'inbox.cause.skill_shrink' }
}

/** Why it waits instead of being applied: a short badge and the sentence under it. */
export function describeCause(cause: ProposalCause, t: Translate): { badge: string; text: string } {
  const keys = causeKeys[cause]
  return { badge: t(keys.badge), text: t(keys.text) }
}

const failureKeys: Record<DecisionFailure['code'], MessageKey> = {
  not_found: 'inbox.error.not_found',
  decided: 'inbox.error.decided',
  stale: 'inbox.error.stale',
  refused: 'inbox.error.refused',
  request: 'inbox.error.request',
  busy: 'inbox.error.busy'
}

/** A decision that did not go through, in the user's language, with main's own words when they add specifics. */
export function describeDecisionFailure(failure: DecisionFailure, t: Translate): { text: string; detail: string | null } {
  const specific = failure.code === 'refused' || failure.code === 'request'
  return { text: t(failureKeys[failure.code]), detail: specific && failure.error.trim() ? failure.error : null }
}

/** Text the editor starts from: what the proposal would write (nothing to edit for a removal). */
export function editableText(proposal: Pick<ProposalItem, 'after' | 'kind' | 'meta' | 'target'>): string | null {
  if (proposal.after === null) return null
  const subject = subjectOf(proposal)
  return subject.family === 'skill' && subject.binary ? null : proposal.after
}

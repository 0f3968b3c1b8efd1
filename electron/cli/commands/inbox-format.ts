import { createTwoFilesPatch } from 'diff'
import { describeRationale } from '../../../shared/i18n/describe-rationale'
import { isMemoryKind } from '../../../shared/ledger'
import type { Proposal, ProposalCause } from '../../../shared/proposals'
import { formatAge } from '../../core/doctor/locks'
import { translator } from '../../../shared/i18n'
import { describeDangers, describeProvenance, describeProvenanceEvidence } from '../../../shared/i18n/describe-provenance'
import { oneLine } from '../io'

/** The English words `cairn inbox` uses for why a change waits. */
export const CAUSE_WORDS: Record<ProposalCause, string> = {
  ask_mode: 'ask mode',
  user_skill: 'your skill',
  imported_skill: 'imported skill',
  pinned_skill: 'pinned skill',
  pinned_entry: 'pinned entry',
  curation: 'curation',
  disable: 'disable',
  suggested: 'suggested over MCP',
  import_overflow: 'imported, over the limit',
  imported_memory: 'imported memory',
  sync_conflict: 'synced, changed on both devices',
  sync_overflow: 'synced, over the limit',
  untrusted_source: 'read, not said by you',
  dangerous_content: 'risky change',
  learning_off: 'learning is off',
  skill_shrink: 'cuts a skill down'
}

/** One line saying what a proposal would change, e.g. `Profile: add "Prefers pnpm"`, `Skill "deploy": patch SKILL.md`. */
export function describeTarget(proposal: Proposal, width = 60): string {
  if (proposal.kind === 'skill.disable') return `Skill "${(proposal.meta as { skill?: string }).skill ?? proposal.target}": disable`
  if (isMemoryKind(proposal.kind)) {
    const store = (proposal.meta as { store?: string }).store === 'memory' ? 'Memory' : 'Profile'
    const verb = proposal.kind.slice('memory.'.length)
    if (proposal.kind === 'memory.replace') return `${store}: replace "${oneLine(proposal.before, width / 2)}" → "${oneLine(proposal.after, width / 2)}"`
    return `${store}: ${verb} "${oneLine(proposal.kind === 'memory.remove' ? proposal.before : proposal.after, width)}"`
  }
  const meta = proposal.meta as { skill?: string; absorbedInto?: string; archivePath?: string | null }
  const name = meta.skill ?? proposal.target
  const file = proposal.target.split('/').at(-1) ?? proposal.target
  switch (proposal.kind) {
    case 'skill.create':
      return `Skill "${name}": create`
    case 'skill.delete':
      return meta.absorbedInto ? `Skill "${name}": merge into "${meta.absorbedInto}"` : `Skill "${name}": archive`
    case 'skill.file_write':
      return `Skill "${name}": write ${file}`
    case 'skill.file_remove':
      return `Skill "${name}": remove ${file}`
    default:
      return `Skill "${name}": ${proposal.kind.slice('skill.'.length)} ${file}`
  }
}

/** `3 h ago`, `just now`: how long a proposal has waited. */
export function ageOf(createdAt: number, now = Date.now()): string {
  const ms = Math.max(0, now - createdAt)
  return ms < 60_000 ? 'just now' : `${formatAge(ms)} ago`
}

/** A table line for `cairn inbox`. */
export function proposalLine(proposal: Proposal, now = Date.now()): string {
  const stale = proposal.stale ? '  STALE (changed since)' : ''
  return `#${String(proposal.id).padEnd(5)} ${ageOf(proposal.createdAt, now).padEnd(14)} ${describeTarget(proposal).padEnd(64)} ${CAUSE_WORDS[proposal.cause]}${stale}`
}

const COLOURS = { add: '\u001b[32m', remove: '\u001b[31m', hunk: '\u001b[36m', reset: '\u001b[0m' }

/**
 * The proposal's change as a unified diff of `before` → `after` (an entry's text for memory, the whole
 * file for skills), coloured only when `colour` (stdout is a terminal).
 */
export function proposalDiff(proposal: Proposal, colour: boolean): string {
  const path = proposal.target
  const patch = createTwoFilesPatch(
    proposal.before === null ? '/dev/null' : `a/${path}`,
    proposal.after === null ? '/dev/null' : `b/${path}`,
    withNewline(proposal.before),
    withNewline(proposal.after),
    '',
    '',
    { context: 3 }
  )
  // The first line is a row of '=' the diff library adds; git's format starts at '---'.
  const lines = patch.split('\n').filter((line, index) => !(index === 0 && /^=+$/.test(line)))
  if (!colour) return lines.join('\n')
  return lines
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return line
      if (line.startsWith('+')) return `${COLOURS.add}${line}${COLOURS.reset}`
      if (line.startsWith('-')) return `${COLOURS.remove}${line}${COLOURS.reset}`
      if (line.startsWith('@@')) return `${COLOURS.hunk}${line}${COLOURS.reset}`
      return line
    })
    .join('\n')
}

/** Who proposed it: the chat itself (held back there), another agent, or a review of a conversation. */
function proposedBy(proposal: Proposal): string {
  const conversation = proposal.sessionId ? ` of conversation ${proposal.sessionId}` : ''
  if (proposal.reviewId?.startsWith('chat:')) return ` by the chat, in conversation ${proposal.sessionId ?? proposal.reviewId.slice(5)}`
  return `${proposal.reviewId ? ` by review ${proposal.reviewId}` : ''}${conversation}`
}

/** `cairn inbox show`: what, why, from which review, the reviewer's words, then the diff. */
export function proposalDetail(proposal: Proposal, colour: boolean, now = Date.now()): string {
  const state = proposal.state === 'pending' ? (proposal.stale ? 'pending, STALE: its target changed since it was proposed' : 'pending') : proposal.state
  const lines = [
    `Proposal #${proposal.id} (${state})`,
    `What:     ${describeTarget(proposal, 100)}`,
    `Target:   ${proposal.target}`,
    `Why:      ${CAUSE_WORDS[proposal.cause]}`,
    `Proposed: ${ageOf(proposal.createdAt, now)}${proposedBy(proposal)}`
  ]
  // Where the content came from and what it adds that could hurt, in the words the app uses.
  const t = translator('en')
  const origin = describeProvenance(proposal.meta.provenance, t)
  if (origin) lines.push(`Source:   ${oneLine(origin, 200)}`)
  const evidence = describeProvenanceEvidence(proposal.meta.provenance, t)
  if (evidence) lines.push(`          ${oneLine(evidence, 200)}`)
  for (const danger of describeDangers(proposal.meta.dangers, t)) lines.push(`Risk:     ${oneLine(danger, 200)}`)
  const rationale = describeRationale(proposal.rationale, t)
  if (rationale) lines.push(`Reviewer: ${oneLine(rationale, 200)}`)
  if (proposal.editedAfter !== null) lines.push('Approved with your own text (shown as the after side).')
  const shown = proposal.editedAfter !== null ? { ...proposal, after: proposal.editedAfter } : proposal
  return `${lines.join('\n')}\n\n${proposalDiff(shown, colour)}`
}

function withNewline(text: string | null): string {
  if (text === null || text === '') return ''
  return text.endsWith('\n') ? text : `${text}\n`
}

/** What a CLI review that proposed changes says after its summary. */
export function inboxWaitingLine(count: number): string {
  return `${count} ${count === 1 ? 'change waits' : 'changes wait'} in the Inbox (cairn inbox)`
}

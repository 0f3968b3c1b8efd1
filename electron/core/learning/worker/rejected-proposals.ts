import { diffLines } from 'diff'
import { isMemoryKind } from '../../../../shared/ledger'
import type { Proposal } from '../../../../shared/proposals'
import type { ProposalStore } from '../../ledger/proposals'
import { cutEnd } from '../../text/cut'

/** How many of the user's most recent rejections a review is told about. */
export const REJECTED_IN_PROMPT = 20
const SIDE_CHARS = 160

export const REJECTED_HEADING = 'The user rejected these changes; do not propose them again:'

/**
 * The part of the review's user message that lists the changes the user said no to (most recent
 * first, at most {@link REJECTED_IN_PROMPT}), each as its target and a short before → after; empty
 * when there are none.
 */
export function rejectedProposalsText(proposals: Pick<ProposalStore, 'list'>, limit = REJECTED_IN_PROMPT): string {
  const rejected = proposals.list({ states: ['rejected'], limit })
  if (rejected.length === 0) return ''
  return [REJECTED_HEADING, ...rejected.map((proposal) => `- ${describeRejected(proposal)}`)].join('\n')
}

function describeRejected(proposal: Proposal): string {
  if (proposal.kind === 'skill.disable') return `${proposal.target} (disable the skill)`
  if (isMemoryKind(proposal.kind)) {
    const verb = proposal.kind.slice('memory.'.length)
    return `${proposal.target} (${verb}): ${side(proposal.before)} → ${side(proposal.after)}`
  }
  if (proposal.before === null) return `${proposal.target} (new file): ${side(firstLines(proposal.after ?? ''))}`
  if (proposal.after === null) return `${proposal.target} (removed)`
  const { removed, added } = changedLines(proposal.before, proposal.after)
  return `${proposal.target} (${proposal.kind}): ${side(removed)} → ${side(added)}`
}

/** The lines a file change removed and added, each side joined on one line. */
function changedLines(before: string, after: string): { removed: string; added: string } {
  const removed: string[] = []
  const added: string[] = []
  for (const part of diffLines(before, after)) {
    if (part.added) added.push(part.value.trim())
    else if (part.removed) removed.push(part.value.trim())
  }
  return { removed: removed.join(' / '), added: added.join(' / ') }
}

function firstLines(text: string): string {
  return text.split('\n').slice(0, 6).join(' / ')
}

function side(text: string | null): string {
  if (text === null || text === '') return '(nothing)'
  return JSON.stringify(cutEnd(text.replace(/\s+/g, ' '), SIDE_CHARS))
}

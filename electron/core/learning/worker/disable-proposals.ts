import { readFileSync } from 'node:fs'
import { relative, sep } from 'node:path'
import { z } from 'zod'
import type { ProposalOrigin } from '../../../../shared/proposals'
import type { ReviewJob } from '../../../../shared/review-protocol'
import type { NewProposal, ProposalStore } from '../../ledger/proposals'
import type { SkillStore } from '../../skills'
import type { SkillFlags } from '../../skills/skill-flags'
import { defineTool, type ToolDef } from '../../tools/types'

export const PROPOSE_DISABLE = 'propose_disable'

const schema = z.object({
  name: z.string().min(1).describe('The skill to take out of use, exactly as skills_list names it.'),
  reason: z.string().min(1).max(1000).describe('Why, in one or two sentences the user will read: what is wrong with it and why it cannot simply be patched.')
})

export interface DisableProposalDeps {
  skills: Pick<SkillStore, 'get'>
  skillFlags: Pick<SkillFlags, 'get'>
  dataHome: string
}

/**
 * A review's way to say a skill should stop being used (harmful, obsolete, a duplicate it cannot
 * merge): never applied by the review, always a proposal (`skill.disable`) the user decides on.
 * Disabling only takes the skill out of the index and the hints; its files and history stay.
 */
export class DisableProposals {
  private readonly wanted = new Map<string, string>()

  constructor(private readonly deps: DisableProposalDeps) {}

  tool(): ToolDef {
    return defineTool({
      name: PROPOSE_DISABLE,
      description:
        "Propose taking a skill out of use when it is wrong in a way a patch cannot fix, obsolete, or harmful. The user decides; nothing changes until they approve. Prefer patching a skill that can be fixed.",
      schema,
      run: (args) => {
        const skill = this.deps.skills.get(args.name)
        if (!skill) return { success: false, error: `Skill '${args.name}' not found. Call skills_list and use the exact name it shows.` }
        if (skill.readOnly) return { success: false, error: `Skill '${args.name}' belongs to another app's folder; Cairn does not disable those.` }
        if (this.deps.skillFlags.get(skill.name).disabled) return { success: false, error: `Skill '${args.name}' is already disabled.` }
        this.wanted.set(skill.name, args.reason.trim())
        return {
          success: true,
          done: true,
          proposed: true,
          message: `Proposed to the user, not applied: disable skill '${skill.name}'. It waits in their Inbox for their approval. This call is complete: do not repeat it.`
        }
      }
    })
  }

  /** Stores each disable the review asked for as a pending proposal (not one already waiting or rejected). */
  record(input: { job: Pick<ReviewJob, 'reviewId' | 'sessionId' | 'reasons'>; origin: ProposalOrigin; proposals: Pick<ProposalStore, 'add' | 'findIdentical'> }): number[] {
    const ids: number[] = []
    for (const [name, reason] of this.wanted) {
      const skill = this.deps.skills.get(name)
      if (!skill) continue
      let text: string
      try {
        text = readFileSync(skill.path, 'utf8')
      } catch {
        continue // gone or unreadable since: nothing to disable as proposed
      }
      const target = relative(this.deps.dataHome, skill.path).split(sep).join('/')
      const change = { target, before: text, after: text }
      if (input.proposals.findIdentical(change, ['pending', 'rejected'])) continue
      const proposal: NewProposal = {
        origin: input.origin,
        reviewId: input.job.reviewId,
        sessionId: input.job.sessionId,
        kind: 'skill.disable',
        ...change,
        meta: { skill: skill.name, category: skill.category },
        reasons: input.job.reasons,
        cause: input.origin === 'curation' ? 'curation' : 'disable',
        rationale: reason
      }
      ids.push(input.proposals.add(proposal).id)
    }
    return ids
  }
}

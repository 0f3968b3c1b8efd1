import type { ReviewJob } from '../../../../shared/review-protocol'
import { stopWords } from '../../sessions/stop-words'
import type { SkillStore } from '../../skills'
import { entryWords } from '../../text/entry-similarity'

/**
 * When a review may create a skill: only for a procedure worth repeating, decided in code whatever the
 * model believes. A create is allowed when the user asked to keep how to do something, when an error was
 * overcome on the way (a hard-won fix is what makes the next run of the task shorter), or when the task
 * family came up in another conversation before; a skill of the same family already in the library
 * means patching it instead. Anything else is a one-off: refused, telling the model to patch or save nothing.
 */

/** Why a create may go ahead; `name_taken`: a skill already has that name, and the tool refuses it in its own words. */
export type CreateGround = 'requested' | 'error_overcome' | 'repeated_task' | 'name_taken'

/** The user asks to keep a procedure ("remember how to…", "save these steps", "make a skill"). */
export const SAVE_PROCEDURE_PATTERNS: readonly RegExp[] = [
  /\b(remember|save|keep|note|write down|record)\b[^.?!\n]{0,40}\b(how (to|you|we|i)|steps?|procedure|process|workflow|recipe|playbook|for next time)\b/i,
  /\b(make|create|write|turn (this|that|it) into|save (this|that|it) as) (a |an |this |that )?(new )?skill\b/i,
  /\bnext time,? (do|follow|use) (it|this|the same)\b/i,
  /记住(怎么|如何|这个步骤|这些步骤|流程)|保存(这个|这些)?(步骤|流程|方法)|(做|写|创建)成?(一个)?技能/
]

/** Share of name and description words two skills hold in common to be one family (Jaccard). */
const SAME_FAMILY_OVERLAP = 0.5

/** Content words another conversation must share with the skill's name and description to count as the same family. */
const FAMILY_WORDS = 2
const MIN_WORD_LENGTH = 3

export const ONE_OFF_CREATE_MESSAGE =
  'Not created: a new skill is only for a procedure worth repeating. Nothing shows that here: the user did not ask to keep it, ' +
  'no error was overcome on the way, and no other conversation had a similar request. ' +
  "If an existing skill covers this class of task, skill_view it and patch it; otherwise save nothing (reply 'Nothing to save.')."

export function sameFamilyMessage(existing: string): string {
  return (
    `Not created: the library already has a skill of the same family, '${existing}'. ` +
    `Call skill_view(name='${existing}') and patch it with what this conversation adds instead of creating a near-duplicate.`
  )
}

export interface CreateGateSources {
  skills: Pick<SkillStore, 'list'>
  /** The user turns of other conversations that match `query` (by session search), leaving out `excludeSessionId`. */
  similarRequests?: (query: string, excludeSessionId: string | null) => string[]
}

export type CreateJudgement = { ground: CreateGround } | { refusal: string }

/** Judges a review's `skill_manage create` against the reviewed conversation. */
export class CreateGate {
  constructor(
    private readonly job: Pick<ReviewJob, 'sessionId' | 'reasons' | 'messages'>,
    private readonly sources: CreateGateSources
  ) {}

  judge(args: Record<string, unknown>): CreateJudgement {
    const name = typeof args.name === 'string' ? args.name.trim() : ''
    if (name && this.sources.skills.list().some((skill) => skill.name === name)) return { ground: 'name_taken' }
    const family = `${name.replace(/[-_.]/g, ' ')} ${descriptionOf(args.content)}`
    const existing = this.sameFamily(name, family)
    if (existing) return { refusal: sameFamilyMessage(existing) }
    if (this.userAskedToKeep()) return { ground: 'requested' }
    if (this.job.reasons.some((reason) => reason.code === 'error_overcome')) return { ground: 'error_overcome' }
    if (this.seenBefore(family)) return { ground: 'repeated_task' }
    return { refusal: ONE_OFF_CREATE_MESSAGE }
  }

  /**
   * A skill of the library the new one would near-duplicate: the same name words in another order, or
   * most of its words (name and description) shared. Stricter than a hint (one shared word naming a
   * skill is enough there): a refusal here costs the library a skill, so "new-node-project" is not of
   * "node-checkout-setup"'s family for sharing "node".
   */
  private sameFamily(name: string, family: string): string | null {
    const mine = familyWords(family)
    const myName = familyWords(name.replace(/[-_.]/g, ' '))
    let best: { name: string; overlap: number } | null = null
    for (const skill of this.sources.skills.list()) {
      if (skill.name === name || skill.readOnly) continue
      const theirName = familyWords(skill.name.replace(/[-_.]/g, ' '))
      const sameName = myName.size > 0 && myName.size === theirName.size && [...myName].every((word) => theirName.has(word))
      const overlap = jaccard(mine, familyWords(`${skill.name.replace(/[-_.]/g, ' ')} ${skill.description}`))
      if ((sameName || overlap >= SAME_FAMILY_OVERLAP) && (!best || overlap > best.overlap)) best = { name: skill.name, overlap }
    }
    return best?.name ?? null
  }

  private userAskedToKeep(): boolean {
    return this.job.messages.some((message) => message.role === 'user' && SAVE_PROCEDURE_PATTERNS.some((pattern) => pattern.test(message.content)))
  }

  private seenBefore(family: string): boolean {
    if (!this.sources.similarRequests) return false
    const wanted = familyWords(family)
    if (wanted.size === 0) return false
    let others: string[]
    try {
      others = this.sources.similarRequests(family, this.job.sessionId)
    } catch {
      return false // search unavailable: no evidence either way
    }
    const needed = Math.min(FAMILY_WORDS, wanted.size)
    return others.some((text) => [...familyWords(text)].filter((word) => wanted.has(word)).length >= needed)
  }
}

/** The description in a SKILL.md's front matter (a create's `content`), or ''. */
function descriptionOf(content: unknown): string {
  if (typeof content !== 'string') return ''
  const match = /^---\r?\n[\s\S]*?^description:\s*(.+)$/m.exec(content)
  return match ? match[1].replace(/^["']|["']$/g, '') : ''
}

/** Words every skill description and many requests hold ("Use when the user asks to…"): no sign of a family. */
const GENERIC_WORDS = new Set(['use', 'used', 'using', 'user', 'users', 'when', 'ask', 'asks', 'asked', 'want', 'wants', 'need', 'needs', 'help', 'make', 'new', 'get', 'file', 'files', 'work', 'can', 'you', 'please'])

/** Content words, crudely stemmed so "deploying" and "deploy" meet. */
function familyWords(text: string): Set<string> {
  const words = entryWords(text).filter((word) => word.length >= MIN_WORD_LENGTH && !stopWords.has(word) && !GENERIC_WORDS.has(word) && !/^\d+$/.test(word))
  return new Set(words.map((word) => (word.length > 4 ? word.replace(/(ing|ed|s)$/, '') : word)))
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0
  for (const word of a) if (b.has(word)) shared++
  const union = a.size + b.size - shared
  return union === 0 ? 0 : shared / union
}

import type { RecallMeta } from '../../../shared/recall'
import { projectKeyFor } from '../memory/project-key'
import type { RecallQuery, SyncedTurn } from '../recall/types'
import type { IndexSkill } from './skills-index'
import { skillHintFor, type SkillHinter } from './skill-hints'

/**
 * The memory provider as a conversation sees it (`MemoryRecall` is one): asked at turn start, told
 * each finished turn. A session opened without one (an incognito chat) never reaches a provider.
 */
export interface TurnRecall {
  forTurn(message: string, query: RecallQuery): Promise<RecallMeta | null>
  afterTurn(turn: SyncedTurn, query?: Pick<RecallQuery, 'projectKey'>): void
}

/**
 * A conversation's recall that asks `current` at every turn, so an open conversation follows the
 * provider active now (switched, its key changed, the memory switches turned off: `current` null).
 */
export function recallResolvedPerTurn(current: () => TurnRecall | null): TurnRecall {
  return {
    forTurn: async (message, query) => (await current()?.forTurn(message, query)) ?? null,
    afterTurn: (turn, query) => current()?.afterTurn(turn, query)
  }
}

/** What Cairn adds to a user message for the model, stored on its meta: the skill hint and the recalled memory. */
export interface TurnNotes {
  hint: string
  recall: RecallMeta | null
}

export interface TurnNotesContext {
  sessionId: string
  workspace: string
  catalogue: IndexSkill[]
  hinter?: SkillHinter
  recall?: TurnRecall
  signal: AbortSignal
}

/** The notes for a message, the skill hint and the recall asked at once (each bounded in time by its own). */
export async function turnNotes(message: string, context: TurnNotesContext): Promise<TurnNotes> {
  const { recall, signal } = context
  const [hint, recalled] = await Promise.all([
    skillHintFor(message, context.catalogue, context.hinter, signal),
    recall ? recall.forTurn(message, { sessionId: context.sessionId, projectKey: projectKeyFor(context.workspace), signal }) : null
  ])
  return { hint, recall: recalled }
}

/** Tells the provider a finished turn: the user's own words (no hint, no recall) and the final answer. */
export function syncFinishedTurn(recall: TurnRecall | undefined, workspace: string, turn: SyncedTurn): void {
  if (!recall || !turn.answer) return
  try {
    recall.afterTurn(turn, { projectKey: projectKeyFor(workspace) })
  } catch (error) {
    console.error('cairn: could not queue the turn for the memory provider:', error)
  }
}

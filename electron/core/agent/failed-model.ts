import { isUnanswered, storedTurnFailure } from '../sessions/turn-failure'
import type { SessionPatch, SessionRecord } from '../sessions/types'

interface ModelStore {
  get(sessionId: string): Pick<SessionRecord, 'model' | 'state' | 'messageCount'> | null
  update(sessionId: string, patch: Pick<SessionPatch, 'model'>): unknown
}

/**
 * After a failed turn: a conversation whose model the provider lacks, or one never answered that was on
 * the default model, follows the default model from now on (its stored model is dropped). So the fix the
 * failure names (a model chosen in Settings, `CAIRN_MODEL` in the CLI) reaches its Retry, or the same
 * words sent again; a model picked in the switcher afterwards is stored again and wins.
 */
export function releaseFailedModel(sessions: ModelStore, sessionId: string, defaultModel: () => string): void {
  try {
    const session = sessions.get(sessionId)
    const failure = session ? storedTurnFailure(session) : null
    if (!session?.model || !failure) return
    if (failure.code === 'model_not_found' || (isUnanswered(session) && session.model.trim() === defaultModel().trim())) sessions.update(sessionId, { model: null })
  } catch (error) {
    // The conversation may be gone (deleted mid-turn); it keeps its model otherwise, as before.
    console.error('cairn: could not let the failed conversation follow the default model:', error)
  }
}

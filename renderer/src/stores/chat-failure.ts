import type { SessionSummary } from '../../../shared/ipc/domain'
import type { ChatItem } from './chat-items'
import type { ChatError } from './chat-events'

/**
 * The failure kept with a conversation (its last turn failed), as the chat shows it again after the
 * conversation is reopened or the window reloaded: with Retry (answer that message again). Null when
 * there is none, a turn runs, or the message it answered is not among the rows shown (another version,
 * an older page).
 */
export function keptFailure(session: Pick<SessionSummary, 'failedTurn'>, items: ChatItem[], running: boolean): ChatError | null {
  const failed = session.failedTurn
  if (!failed || running) return null
  if (!items.some((item) => item.kind === 'user' && item.id === failed.messageId)) return null
  return { code: failed.code, message: failed.message, params: failed.params ?? null, retryable: failed.retryable, plan: { kind: 'regenerate' }, keptAt: failed.at }
}

interface FailureView {
  items: ChatItem[]
  running: boolean
  error: ChatError | null
}

/**
 * A conversation's kept failure as the state to set when it is loaded (opened, refreshed): none while
 * another error is on screen or once the user dismissed this one (remembered by when it was recorded,
 * so a later refresh does not bring it back).
 */
export function keptFailures(get: () => FailureView, set: (partial: Partial<FailureView>) => void): { shown(session: Pick<SessionSummary, 'failedTurn'>, running: boolean): Partial<FailureView>; dismiss(): void } {
  let dismissedAt: number | null = null
  return {
    shown(session, running) {
      const kept = keptFailure(session, get().items, running)
      return kept && !get().error && kept.keptAt !== dismissedAt ? { error: kept } : {}
    },
    dismiss() {
      dismissedAt = get().error?.keptAt ?? dismissedAt
      set({ error: null })
    }
  }
}

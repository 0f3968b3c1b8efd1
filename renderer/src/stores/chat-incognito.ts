import type { CairnClient } from '../ipc/client'

/** Incognito chats (issue 28, part C): a conversation main keeps in memory only, never listed or learned from. */
export interface IncognitoSlice {
  /** The open conversation is incognito, or (none open yet) the next one will start incognito. */
  incognito: boolean
  /** Starts the conversation about to begin incognito or not; one already started stays as it began. */
  setIncognito(on: boolean): void
  /**
   * Leaving the open conversation for `next` (null: a new chat). An incognito one is discarded, after the
   * user confirms when it has messages; false when they chose to stay.
   */
  leaveIncognito(next: string | null): boolean
}

interface IncognitoState {
  sessionId: string | null
  incognito: boolean
  items: readonly unknown[]
}

export interface IncognitoDeps {
  client: Pick<CairnClient, 'request'>
  get(): IncognitoState
  set(partial: { incognito: boolean }): void
  /** Asks whether to close an incognito conversation that has messages (they cannot come back); default: yes. */
  confirmDiscard?: () => boolean
}

export function incognitoActions({ client, get, set, confirmDiscard }: IncognitoDeps): IncognitoSlice {
  return {
    incognito: false,
    setIncognito(on) {
      if (get().sessionId === null) set({ incognito: on })
    },
    leaveIncognito(next) {
      const { sessionId, incognito, items } = get()
      if (!incognito) return true
      if (sessionId === null) {
        set({ incognito: false })
        return true
      }
      if (sessionId === next) return true
      if (items.length > 0 && confirmDiscard && !confirmDiscard()) return false
      set({ incognito: false })
      // Main drops it; if this fails (the connection is down) quitting drops it all the same.
      void client.request('chat.discard', { sessionId }).catch(() => {})
      return true
    }
  }
}

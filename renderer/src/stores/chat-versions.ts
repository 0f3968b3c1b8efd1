import type { CairnClient } from '../ipc/client'
import { lastIndexWhere, type ChatItem } from './chat-items'
import type { ChatError } from './chat-events'

/** Editing a sent message and moving between versions of the conversation. */
export interface VersionActions {
  /** The user message being edited in place (null: none). */
  editingMessageId: number | null
  startEdit(messageId: number | null): void
  /** Opens the last message the user sent for editing (↑ in an empty composer); false when there is none to edit. */
  editLast(): boolean
  /** Sends new words in place of a sent message; what followed it stays as another version. */
  editAndResend(messageId: number, text: string): Promise<void>
  /** Shows another version of the conversation from where it forked. */
  showVersion(branchId: number): Promise<void>
}

/** What of the chat store the version actions read and write. */
interface ChatView extends VersionActions {
  sessionId: string | null
  items: ChatItem[]
  running: boolean
  sending: boolean
  streaming: string
  error: ChatError | null
  refresh(options?: { keepOlder?: boolean }): Promise<void>
}

interface VersionContext {
  client: CairnClient
  get(): ChatView
  set(partial: Partial<ChatView>): void
  startTurn(request: () => Promise<{ sessionId: string }>, onFail: (error: ChatError) => void): Promise<void>
  nextLocalKey(): string
  requestFailure(error: unknown): ChatError
  /** Forgets loaded messages from `messageId` on: they become another version. */
  keepBefore(messageId: number): void
  /** After a version was swapped in: reloads from where the versions fork, keeping what is before (false: could not, reload from the end). */
  showFromFork(branchId: number): Promise<boolean>
}

export function versionActions({ client, get, set, startTurn, requestFailure, nextLocalKey, keepBefore, showFromFork }: VersionContext): VersionActions {
  const busy = () => get().running || get().sending
  return {
    editingMessageId: null,

    startEdit(messageId) {
      if (messageId !== null && busy()) return
      set({ editingMessageId: messageId })
    },

    editLast() {
      const { items } = get()
      if (busy()) return false
      const last = items[lastIndexWhere(items, (item) => item.kind === 'user')]
      if (last?.kind !== 'user' || last.id === null || last.compacted) return false
      set({ editingMessageId: last.id })
      return true
    },

    async editAndResend(messageId, raw) {
      const text = raw.trim()
      const { items, sessionId } = get()
      if (!text || !sessionId || busy()) return
      const at = items.findIndex((item) => item.kind === 'user' && item.id === messageId)
      if (at < 0) return
      // What followed goes away at once (main keeps it as another version); the new words wait for their id.
      const original = items[at]
      const files = original.kind === 'user' && original.attachments ? { attachments: original.attachments } : {}
      const edited: ChatItem = { kind: 'user', key: nextLocalKey(), id: null, text, pending: true, ...files }
      keepBefore(messageId)
      set({ items: [...items.slice(0, at), edited], editingMessageId: null, streaming: '' })
      await startTurn(
        () => client.request('chat.edit', { sessionId, messageId, text }),
        (error) => {
          set({ error: { ...error, plan: null } })
          void get().refresh()
        }
      )
    },

    async showVersion(branchId) {
      const { sessionId } = get()
      if (!sessionId || busy()) return
      try {
        await client.request('chat.showVersion', { sessionId, branchId })
        // Reloaded from the fork on, so the view stays there; the fork not loaded, the pages are read again from the end.
        if (!(await showFromFork(branchId))) await get().refresh({ keepOlder: false })
      } catch (error) {
        set({ error: requestFailure(error) })
      }
    }
  }
}

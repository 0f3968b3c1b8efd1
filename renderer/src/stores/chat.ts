import { createStore, type StoreApi } from 'zustand/vanilla'
import type { AgentEvent, ApprovalScope } from '../../../shared/agent-events'
import type { ReviewEvent } from '../../../shared/review-protocol'
import type { AttachmentView, LearnedReview, OutgoingAttachment } from '../../../shared/ipc/domain'
import type { ReviewSummary } from '../../../shared/review-outcome'
import type { CairnClient } from '../ipc/client'
import { describeError } from '../ipc/error-words'
import { lastIndexWhere, type ChatItem } from './chat-items'
import { applyAgentEvent, dropReplayed, requestFailure, type ChatError, type TurnSlice } from './chat-events'
import { incognitoActions, type IncognitoSlice } from './chat-incognito'
import { createPager, type PagingState } from './chat-pages'
import { keptFailures } from './chat-failure'
import { versionActions, type VersionActions } from './chat-versions'
import { animationFrames, createDeltaBuffer, type FrameScheduler } from './stream-buffer'

/** Files sent with a message: as the contract carries them, and as the message shows them until stored. */
export interface SentAttachments {
  outgoing: OutgoingAttachment[]
  shown: AttachmentView[]
}

export interface LearnedNote {
  reviewId: string
  /** What the review saved; the chip words it in the UI language. */
  summary: ReviewSummary
}

export interface ChatState extends TurnSlice, VersionActions, PagingState, IncognitoSlice {
  sessionId: string | null
  title: string | null
  status: 'idle' | 'loading' | 'ready' | 'error'
  loadError: string | null
  /** A send or regenerate request is on its way (the turn has not started yet). */
  sending: boolean
  draft: string
  learned: LearnedNote | null
  /** What each review of the open conversation learned, oldest first (kept with the conversation), among the loaded pages. */
  learnedNotes: LearnedReview[]
  /** Message to scroll to once shown (a search hit). */
  focusMessageId: number | null
  /** The folder the open conversation works in; for a new one, the folder chosen for it (null: the default). */
  workspace: string | null

  openSession(sessionId: string | null, options?: { focusMessageId?: number }): Promise<void>
  newChat(): void
  setDraft(text: string): void
  /** Resolves true once the turn has started; false when nothing was sent (the text goes back to the draft). */
  send(text: string, attachments?: SentAttachments): Promise<boolean>
  cancel(): Promise<void>
  regenerate(): Promise<void>
  retry(): Promise<void>
  approve(requestId: string, decision: { allow: boolean; remember?: ApprovalScope; prefix?: string }): Promise<void>
  dismissError(): void
  /**
   * Changes the folder Cairn works in: stored with the open conversation (from its next turn), or kept
   * for the conversation about to start. Main checks (and makes) the folder; a refusal throws.
   */
  setWorkspace(path: string): Promise<void>
  handleEvent(event: AgentEvent): void
  handleReview(event: ReviewEvent): void
  /**
   * Reloads the newest page of the open conversation from main, keeping unchanged rows and the older
   * pages loaded (after a turn, a reconnect); `keepOlder: false` keeps only the newest page.
   */
  refresh(options?: { keepOlder?: boolean }): Promise<void>
  /** A proposal was decided or a learned change reverted: the notes re-read what became of theirs. */
  learnedChanged(): void
}

export type ChatStore = StoreApi<ChatState>

export interface ChatStoreOptions {
  client: CairnClient
  frames?: FrameScheduler
  /** A new conversation got its id (the sessions list should show it). */
  onSessionStarted?: (sessionId: string) => void
  /** The model chosen for the conversation about to start (null: the default). */
  newChatModel?: () => string | null
  /** False: only the newest page is shown (the quick window; the rest is read in the main window). */
  olderPages?: boolean
  /** Asks before an incognito conversation with messages is left (leaving discards it). */
  confirmDiscard?: () => boolean
}

const emptyTurn = (): TurnSlice => ({ items: [], streaming: '', running: false, turnId: null, approvals: [], error: null, retrying: null })

const turnOf = (state: ChatState): TurnSlice => ({
  items: state.items,
  streaming: state.streaming,
  running: state.running,
  turnId: state.turnId,
  approvals: state.approvals,
  error: state.error,
  retrying: state.retrying
})

export function createChatStore(options: ChatStoreOptions): ChatStore {
  const { client } = options
  // Events for a conversation this window is creating arrive before `chat.send` answers with its id.
  let awaitingNewSession = false
  let orphans: AgentEvent[] = []
  // Live events queued while `chat.attach` runs, so the replay and the live stream do not double up.
  let attachQueue: AgentEvent[] | null = null
  let localIds = 0

  const store = createStore<ChatState>()((set, get) => {
    const pager = createPager({ client, get, set, attach: (sessionId) => attach(sessionId), olderPages: options.olderPages ?? true })
    const buffer = createDeltaBuffer((text) => set({ streaming: get().streaming + text, retrying: null }), options.frames ?? animationFrames)
    const failures = keptFailures(get, set)

    const apply = (event: AgentEvent): void => {
      if (event.type === 'text_delta') {
        buffer.push(event.text)
        return
      }
      buffer.flush()
      if (event.type === 'compressed') pager.markStale()
      set(applyAgentEvent(turnOf(get()), event))
      if (event.type === 'turn_finished') void get().refresh()
    }

    const reset = (sessionId: string | null, status: ChatState['status']): void => {
      buffer.clear()
      attachQueue = null
      awaitingNewSession = false
      orphans = []
      pager.reset()
      set({
        ...emptyTurn(),
        hasOlder: false,
        hasNewer: false,
        loadingOlder: false,
        sessionId,
        title: null,
        status,
        loadError: null,
        sending: false,
        learned: null,
        learnedNotes: [],
        focusMessageId: null,
        workspace: null,
        editingMessageId: null
      })
    }

    const attach = async (sessionId: string): Promise<void> => {
      attachQueue = []
      try {
        const { running, events } = await client.request('chat.attach', { sessionId })
        if (get().sessionId !== sessionId) return
        const queued = attachQueue ?? []
        attachQueue = null
        let slice: TurnSlice = { ...turnOf(get()), streaming: '' }
        if (running) for (const event of events) slice = applyAgentEvent(slice, event)
        else slice = { ...slice, running: false }
        set(slice)
        for (const event of dropReplayed(running ? events : [], queued)) apply(event)
        if (!running) void get().refresh()
      } catch {
        attachQueue = null
      }
    }

    const startTurn = async (request: () => Promise<{ sessionId: string }>, onFail: (error: ChatError) => void): Promise<void> => {
      const wasNew = get().sessionId === null
      awaitingNewSession = wasNew
      set({ sending: true, error: null, learned: null })
      try {
        const { sessionId } = await request()
        if (wasNew && awaitingNewSession) {
          awaitingNewSession = false
          const early = orphans.filter((event) => event.sessionId === sessionId)
          orphans = []
          set({ sessionId, status: 'ready' })
          for (const event of early) apply(event)
          options.onSessionStarted?.(sessionId)
        }
      } catch (error) {
        awaitingNewSession = false
        orphans = []
        onFail({ ...requestFailure(error), retryable: true })
      } finally {
        set({ sending: false })
      }
    }

    /** Sending or answering again while an older page is shown: the newest page first (false: it could not be loaded, nothing is sent). */
    const newestFirst = async (): Promise<boolean> => {
      const { sessionId } = get()
      if (!sessionId) return true
      try {
        return await pager.jumpToNewest(sessionId)
      } catch (error) {
        set({ error: requestFailure(error) })
        return false
      }
    }

    return {
      ...emptyTurn(),
      sessionId: null,
      title: null,
      status: 'idle',
      loadError: null,
      sending: false,
      draft: '',
      learned: null,
      learnedNotes: [],
      focusMessageId: null,
      workspace: null,
      ...pager.paging,
      ...incognitoActions({ client, get, set, confirmDiscard: options.confirmDiscard }),

      async openSession(sessionId, openOptions) {
        if (sessionId === null) return get().newChat()
        if (!get().leaveIncognito(sessionId)) return
        reset(sessionId, 'loading')
        set({ focusMessageId: openOptions?.focusMessageId ?? null })
        try {
          const opened = await pager.open(sessionId, openOptions?.focusMessageId)
          if (!opened) return
          set({ title: opened.session.title, workspace: opened.session.workspace, running: opened.running, status: 'ready', incognito: opened.session.incognito === true, ...failures.shown(opened.session, opened.running) })
          if (opened.attachNow) await attach(sessionId)
        } catch (error) {
          if (get().sessionId === sessionId) set({ status: 'error', loadError: describeError(error) })
        }
      },

      newChat() {
        if (get().leaveIncognito(null)) reset(null, 'idle')
      },

      setDraft: (draft) => set({ draft }),

      async send(raw, attachments) {
        const text = raw.trim()
        if (!text || get().running || get().sending) return false
        if (get().hasNewer && !(await newestFirst())) return false
        const state = get()
        const shown = attachments?.shown.length ? { attachments: attachments.shown } : {}
        const pending: ChatItem = { kind: 'user', key: `local:${++localIds}`, id: null, text, pending: true, ...shown }
        set({ items: [...state.items, pending], draft: '' })
        const sessionId = state.sessionId
        const workspace = sessionId === null && state.workspace ? { workspace: state.workspace } : {}
        const chosenModel = sessionId === null ? options.newChatModel?.() : null
        const model = chosenModel ? { model: chosenModel } : {}
        const files = { ...(attachments?.outgoing.length ? { attachments: attachments.outgoing } : {}), ...(sessionId === null && state.incognito ? { incognito: true } : {}) }
        let started = true
        await startTurn(
          () => client.request('chat.send', { sessionId, text, ...workspace, ...model, ...files }),
          (error) => {
            started = false
            // Nothing is lost: the text goes back into the composer and Retry sends it again. With files,
            // the composer takes them back too and sending again is the way (Retry knows only the text).
            const items = get().items.filter((item) => item !== pending)
            set({ items, draft: get().draft || text, error: { ...error, plan: attachments?.outgoing.length ? null : { kind: 'send', text } } })
          }
        )
        return started
      },

      async cancel() {
        const { sessionId } = get()
        if (!sessionId) return
        try {
          await client.request('chat.cancel', { sessionId })
        } catch (error) {
          set({ error: requestFailure(error) })
        }
      },

      async regenerate() {
        if (!get().sessionId || get().running || get().sending) return
        // The last answer of the conversation: answered again from its newest page.
        if (get().hasNewer && !(await newestFirst())) return
        const { items: shown, sessionId } = get()
        const lastUser = lastIndexWhere(shown, (item) => item.kind === 'user')
        const asked = shown[lastUser]
        if (!sessionId || asked?.kind !== 'user') return
        // The old answer goes away at once; the user message waits for its new id.
        const items = shown.slice(0, lastUser + 1)
        items[lastUser] = { ...asked, pending: true }
        if (asked.id !== null) pager.keepThrough(asked.id)
        set({ items, streaming: '' })
        await startTurn(
          () => client.request('chat.regenerate', { sessionId }),
          (error) => {
            set({ error: { ...error, plan: { kind: 'regenerate' } } })
            void get().refresh()
          }
        )
      },

      ...versionActions({ client, get, set, startTurn, requestFailure, nextLocalKey: () => `local:${++localIds}`, keepBefore: (id) => pager.keepThrough(id - 1), showFromFork: (branchId) => pager.showFromFork(get().sessionId!, branchId) }),

      async retry() {
        const plan = get().error?.plan
        if (!plan) return
        set({ error: null })
        if (plan.kind === 'send') {
          if (get().draft.trim() === plan.text) set({ draft: '' })
          await get().send(plan.text)
        } else await get().regenerate()
      },

      async approve(requestId, decision) {
        const { sessionId } = get()
        if (!sessionId) return
        set({ approvals: get().approvals.map((a) => (a.requestId === requestId ? { ...a, submitting: true } : a)) })
        try {
          const { accepted } = await client.request('chat.approve', { sessionId, requestId, ...decision })
          // Not accepted: the request is gone already (the turn ended or another window answered).
          if (!accepted) set({ approvals: get().approvals.filter((a) => a.requestId !== requestId) })
        } catch (error) {
          set({
            approvals: get().approvals.map((a) => (a.requestId === requestId ? { ...a, submitting: false } : a)),
            error: requestFailure(error)
          })
        }
      },

      dismissError: () => failures.dismiss(),

      async setWorkspace(folder) {
        const { sessionId } = get()
        const { path } = await client.request('sessions.setWorkspace', { sessionId, path: folder })
        if (get().sessionId === sessionId) set({ workspace: path })
      },

      handleEvent(event) {
        const state = get()
        if (state.sessionId === null) {
          if (awaitingNewSession) orphans.push(event)
          return
        }
        if (event.sessionId !== state.sessionId) return
        if (attachQueue) {
          attachQueue.push(event)
          return
        }
        if (pager.offscreen(event)) {
          if (event.type === 'turn_finished') void get().refresh()
          return
        }
        apply(event)
      },

      handleReview(event) {
        if (event.type !== 'review_finished' || !event.sessionId || event.sessionId !== get().sessionId) return
        // The conversation's own list (with a requested review that found nothing) comes from main.
        void get().refresh()
        const { summary } = event.outcome
        if (!summary.saved && !summary.proposed) return
        if (summary.saved) set({ learned: { reviewId: event.reviewId, summary } })
        pager.addNote({ reviewId: event.reviewId, at: Date.now(), summary, requested: false })
      },

      learnedChanged: () => pager.refreshFates(),

      async refresh(refreshOptions) {
        const { sessionId } = get()
        if (!sessionId) return
        const keepOlder = refreshOptions?.keepOlder ?? true
        try {
          // Reading older pages: the loaded rows stay as they are; only the conversation's facts are fetched.
          const away = get().hasNewer && keepOlder
          const { session, messages, running, learned, page } = await client.request('sessions.get', away ? { sessionId, limit: 1 } : { sessionId })
          const state = get()
          if (state.sessionId !== sessionId) return
          // A review announced live may not be stored with the conversation yet: keep it until it is.
          if (learned) pager.setNotes(learned)
          if (away) {
            // Back at the end meanwhile: that one message is not the newest page.
            if (!state.hasNewer) return get().refresh(refreshOptions)
            pager.runningOffscreen(running)
            set({ title: session.title, workspace: session.workspace })
            return
          }
          // A turn that started meanwhile owns the rows; its own end refreshes again.
          if (state.running && !running) return
          if (running && !state.running) {
            pager.takeNewest(messages, page.hasOlder, keepOlder)
            set({ title: session.title })
            return attach(sessionId)
          }
          if (running) {
            set({ title: session.title })
            return
          }
          pager.takeNewest(messages, page.hasOlder, keepOlder)
          set({ title: session.title, workspace: session.workspace, status: 'ready', ...failures.shown(session, running) })
        } catch {
          // Keep what is on screen; the next event or reconnect tries again.
        }
      }
    }
  })
  return store
}

import type { AgentEvent, ApprovalDecision } from '../../../shared/agent-events'
import { IpcError } from '../../../shared/ipc/define'
import type { AgentHooks, AgentSession, TurnHandle, TurnSummary } from '../agent/agent-session'
import type { FirstExchange } from '../agent/conversation-title'
import { createAgentSession } from '../agent/create-agent'
import { createIncognitoSession, type IncognitoChat } from '../agent/incognito-session'
import { recallResolvedPerTurn, type TurnRecall } from '../agent/turn-notes'
import { readAttachmentsForIpc, type AttachmentInput } from '../attachments'
import { findProviderProblem, providerProblemText } from '../provider/provider-settings'
import type { IpcEventName, IpcEvents } from '../../../shared/ipc/contract'
import type { SessionEndCause } from '../../../shared/review-reasons'
import { ProposalStore } from '../ledger/proposals'
import type { ProviderAccess } from '../provider/provider-access'
import type { ToolDef } from '../tools/types'
import type { McpManager } from '../mcp/mcp-manager'
import type { SessionStore } from '../sessions'
import type { ChatHome } from './app-home'
import type { AppWorkspaces } from './workspaces'
import { IDLE_TICK_MS, systemClock, type ChatClock } from './chat-clock'
import { appChatSource, unansweredToAnswer } from './unanswered-chat'

interface LiveChat {
  session: AgentSession
  /** The folder its workspace tools were built for. */
  workspace: string
  /** Events of the turn in progress, replayed to a window that attaches mid-turn. */
  buffer: AgentEvent[]
  running: boolean
  /** Settles when the running turn has ended (and its hooks ran). */
  done: Promise<void>
  /** When its last turn ended (0: none yet in this process). */
  lastActiveAt: number
  /** Already ended for learning since that turn (went idle): the next idle tick leaves it alone. */
  idleEnded: boolean
  /** `reloadTools` asked: its next turn opens it again with a fresh MCP tool snapshot. */
  toolsStale: boolean
  /** An incognito conversation: its stores live in memory only, it is never reviewed, listed or titled. */
  incognito?: IncognitoChat
}

export { IDLE_TICK_MS, systemClock, type ChatClock } from './chat-clock'

/** What the chats need from the app around them. */
export interface ChatManagerDeps {
  core: ChatHome
  hooks: AgentHooks
  mode: 'desktop' | 'browser'
  workspaces: AppWorkspaces
  env?: NodeJS.ProcessEnv
  /** How conversations reach the model: the chat provider (checked before a turn) and the keys each conversation resolves its providers with. */
  provider: Pick<ProviderAccess, 'chat' | 'keys'>
  emit<K extends IpcEventName>(name: K, payload: IpcEvents[K]): void
  /**
   * A conversation ended for learning: it went idle, the user started another, or the app is
   * quitting. Returns the review queued for its unreviewed turns, or null (the learning loop's
   * endConversation). Without it, conversations are never reviewed for ending.
   */
  endConversation?(sessionId: string, cause: SessionEndCause): string | null
  clock?: ChatClock
  /**
   * A short title for a conversation from its first exchange (`agent.autoTitle`); null when the model
   * gave nothing usable. Without it, conversations keep their first words as title.
   */
  suggestTitle?(exchange: FirstExchange): Promise<string | null>
  /** The user's MCP servers: each conversation gets a snapshot of their tools when it opens. */
  mcp?: Pick<McpManager, 'start' | 'whenSettled' | 'conversationTools'>
  /** The active memory provider, asked at every turn (none: conversations recall nothing and send nothing). */
  recall?: () => TurnRecall | null
}

/**
 * The conversations open in this process. A turn runs in the background; its events go to every
 * window and into a buffer, so a window opened or reloaded mid-turn can catch up.
 *
 * Each conversation works in the folder stored with it. When that folder changes (the header's
 * picker, or a CLI `--workspace` on the same session) the live conversation is closed and opened
 * again on its next turn, after a running turn ends: the tools, the system prompt's folder and the
 * "allow for this conversation" answers (given for the old folder) all start afresh.
 */
export class ChatManager {
  private readonly chats = new Map<string, LiveChat>()
  private readonly clock: ChatClock
  private stopIdleWatch: (() => void) | null = null

  constructor(private readonly app: ChatManagerDeps) {
    this.clock = app.clock ?? systemClock
    if (app.endConversation) this.stopIdleWatch = this.clock.every(IDLE_TICK_MS, () => this.idleTick())
  }

  /**
   * Ends, for learning, every open conversation that has gone quiet for `learning.idleReviewMinutes`
   * (0: never) since its last turn, once per quiet spell. Runs on the clock's tick.
   */
  idleTick(): void {
    const minutes = this.app.core.config.get().learning.idleReviewMinutes
    if (minutes <= 0 || !this.app.endConversation) return
    const now = this.clock.now()
    for (const chat of this.chats.values()) {
      if (chat.running || chat.idleEnded || chat.lastActiveAt === 0 || now - chat.lastActiveAt < minutes * 60_000) continue
      chat.idleEnded = true
      this.endForLearning(chat.session.id, 'idle')
    }
  }

  /** Ends every open conversation not answering now (the app is quitting); returns the reviews queued for them. */
  endAll(cause: SessionEndCause): string[] {
    if (cause === 'quit') this.stopWatching()
    return [...this.chats.values()].filter((chat) => !chat.running).flatMap((chat) => this.endForLearning(chat.session.id, cause) ?? [])
  }

  /** No more idle ticks (the app is closing). */
  stopWatching(): void {
    this.stopIdleWatch?.()
    this.stopIdleWatch = null
  }

  private endForLearning(sessionId: string, cause: SessionEndCause): string | null {
    if (this.chats.get(sessionId)?.incognito) return null
    try {
      return this.app.endConversation?.(sessionId, cause) ?? null
    } catch (error) {
      // Learning must never break the chat: a busy database now only means this one goes unreviewed.
      console.error('cairn: could not queue an end-of-conversation review:', error)
      return null
    }
  }

  /**
   * Starts a turn and returns at once; the answer streams as `chat.event` events. A new conversation
   * works in `workspace` when given, else in the default folder.
   */
  async send(
    sessionId: string | null,
    text: string,
    source: 'main' | 'quick' = 'main',
    workspace?: string,
    model?: string,
    attachments: AttachmentInput[] = [],
    incognito = false
  ): Promise<{ sessionId: string; turnId: string }> {
    this.checkProvider()
    // Every file is checked and read (a PDF's text extracted) before anything is stored: a bad one loses nothing.
    const prepared = await readAttachmentsForIpc(attachments)
    await this.mcpSettled(sessionId)
    // Files or incognito: always a new conversation.
    const unanswered = sessionId === null && !prepared.length && !incognito ? unansweredToAnswer({ sessions: this.app.core.sessions, workspaces: this.app.workspaces, mode: this.app.mode }, text, source, workspace, model) : null
    if (unanswered && !this.chats.get(unanswered)?.running) return this.regenerate(unanswered)
    const chat = this.open(sessionId, source, workspace, model, incognito && sessionId === null)
    if (chat.running) throw IpcError.of('BUSY', 'conversation.busy_wait', {})
    const saved = (chat.incognito?.attachments ?? this.app.core.attachments).save(chat.session.id, prepared)
    const started = this.start(chat, (session) => session.runTurn(text, { attachments: saved }))
    // A new conversation ends the ones before it: what they taught is reviewed now, not at some idle tick.
    // Not a quick-prompt question: the user asked one thing aside and may be mid-way in the main window.
    if (sessionId === null && source !== 'quick') {
      for (const other of this.chats.values()) if (other !== chat && !other.running) this.endForLearning(other.session.id, 'new_conversation')
    }
    return started
  }

  /** Answers the last user message again; the previous answer stays as an earlier version. */
  regenerate(sessionId: string): { sessionId: string; turnId: string } {
    const chat = this.open(sessionId)
    if (chat.running) throw IpcError.of('BUSY', 'conversation.busy', {})
    this.checkProvider()
    if (!chat.session.lastUserText()) throw IpcError.of('NOT_FOUND', 'conversation.nothing_to_answer', {})
    return this.start(chat, (session) => session.regenerate())
  }

  /** Sends `text` in place of an earlier message of the user's; what followed it is kept as another version. */
  edit(sessionId: string, messageId: number, text: string): { sessionId: string; turnId: string } {
    const chat = this.open(sessionId)
    if (chat.running) throw IpcError.of('BUSY', 'conversation.busy', {})
    this.checkProvider()
    return this.start(chat, (session) => session.editAndResend(messageId, text))
  }

  /** Shows another version of the conversation from where it forked. */
  showVersion(sessionId: string, branchId: number): void {
    const chat = this.open(sessionId)
    if (chat.running) throw IpcError.of('BUSY', 'conversation.busy', {})
    chat.session.showVersion(branchId)
    this.announce(sessionId)
  }

  /** A live incognito conversation's in-memory messages (null: not one), for the routes that read a conversation. */
  incognitoSessions(sessionId: string): SessionStore | null {
    return this.chats.get(sessionId)?.incognito?.sessions ?? null
  }

  /** A live incognito conversation's in-memory messages and files (null: not one), for the routes that show its sent images. */
  incognitoChat(sessionId: string): Pick<IncognitoChat, 'sessions' | 'attachments'> | null {
    return this.chats.get(sessionId)?.incognito ?? null
  }

  /** Discards an incognito conversation (closed, or the app quitting): its turn stopped, everything it held dropped. */
  async discard(sessionId: string): Promise<boolean> {
    const chat = this.chats.get(sessionId)
    if (!chat?.incognito) return false
    chat.session.cancel()
    await chat.done
    this.chats.delete(sessionId)
    chat.incognito.discard()
    return true
  }

  /**
   * The next turn of this conversation takes a fresh snapshot of the MCP tools (after one ends, if a
   * turn runs now). Its system prompt is composed again with them, so the provider's prompt cache
   * starts over for it.
   */
  reloadTools(sessionId: string): { reloaded: boolean } {
    if (!this.app.core.sessions.get(sessionId)) throw IpcError.of('NOT_FOUND', 'conversation.missing', { id: sessionId })
    const chat = this.chats.get(sessionId)
    if (chat) chat.toolsStale = true
    else this.app.core.sessions.update(sessionId, { systemPrompt: null })
    return { reloaded: true }
  }

  /**
   * Starts the MCP servers with the first conversation, and lets a conversation about to open wait up
   * to `mcp.startWaitMs` for servers still starting: its tool snapshot then has them. A slow or failed
   * server never holds chat up longer than that.
   */
  private async mcpSettled(sessionId: string | null): Promise<void> {
    const mcp = this.app.mcp
    if (!mcp) return
    const live = sessionId ? this.chats.get(sessionId) : undefined
    if (live && !live.toolsStale) return
    mcp.start()
    await mcp.whenSettled(this.app.core.config.get().mcp.startWaitMs)
  }

  /** Refuses to start a turn the provider cannot answer: English for logs, the problem's code and data for the renderer. */
  private checkProvider(): void {
    const problem = findProviderProblem(this.app.provider.chat())
    if (problem) throw new IpcError('PROVIDER', providerProblemText(problem), { problem: problem.code, preset: problem.preset, baseURL: problem.baseURL })
  }

  cancel(sessionId: string): boolean {
    const chat = this.chats.get(sessionId)
    if (!chat?.running) return false
    chat.session.cancel()
    return true
  }

  async approve(sessionId: string, requestId: string, decision: ApprovalDecision): Promise<boolean> {
    const chat = this.chats.get(sessionId)
    if (!chat) return false
    return chat.session.respondToApproval(requestId, decision)
  }

  attach(sessionId: string): { running: boolean; events: AgentEvent[] } {
    const chat = this.chats.get(sessionId)
    return chat ? { running: chat.running, events: [...chat.buffer] } : { running: false, events: [] }
  }

  isRunning(sessionId: string): boolean {
    return this.chats.get(sessionId)?.running ?? false
  }

  /** Some conversation is answering right now (background work such as curation waits). */
  anyRunning(): boolean {
    return [...this.chats.values()].some((chat) => chat.running)
  }

  /** Drops a conversation from memory (after the session was deleted). */
  forget(sessionId: string): void {
    const chat = this.chats.get(sessionId)
    chat?.session.cancel()
    this.chats.delete(sessionId)
  }

  /** Stops every running turn and waits until they have ended, so nothing writes after shutdown; incognito conversations are discarded. */
  async cancelAll(): Promise<void> {
    for (const chat of this.chats.values()) chat.session.cancel()
    await Promise.all([...this.chats.values()].map((chat) => chat.done))
    await Promise.all([...this.chats.keys()].map((sessionId) => this.discard(sessionId)))
  }

  private open(sessionId: string | null, origin: 'main' | 'quick' = 'main', chosenWorkspace?: string, model?: string, incognito = false): LiveChat {
    let workspace: string
    if (sessionId) {
      const existing = this.chats.get(sessionId)
      if (existing?.incognito) return existing // only ever live: once discarded, it is found nowhere
      const stored = this.app.core.sessions.get(sessionId)
      if (existing && (existing.running || !stored || (existing.workspace === stored.workspace && !existing.toolsStale))) return existing
      if (!stored) throw IpcError.of('NOT_FOUND', 'conversation.missing', { id: sessionId })
      // Checked (and made again if it was removed) each time it opens; a session from before workspaces gets the default.
      workspace = this.app.workspaces.use(stored.workspace ?? this.app.workspaces.defaultFolder())
      if (existing) {
        // Moved or its tools reloaded while it was open: the prompt names the folder and the MCP servers.
        this.chats.delete(sessionId)
        this.app.core.sessions.update(sessionId, { systemPrompt: null })
      }
    } else {
      workspace = this.app.workspaces.use(chosenWorkspace ?? this.app.workspaces.defaultFolder())
    }
    const source = appChatSource(this.app.mode, origin)
    if (incognito) {
      const opened = createIncognitoSession({ core: this.app.core, keys: this.app.provider.keys, env: this.app.env, workspace, model, source, mcpTools: this.mcpTools() })
      return this.track(opened.session, workspace, opened)
    }
    const session = createAgentSession({
      core: this.app.core,
      keys: this.app.provider.keys,
      env: this.app.env,
      workspace,
      sessionId: sessionId ?? undefined,
      model,
      source,
      hooks: this.app.hooks,
      // Fixed for the life of this live conversation, so its prompt and tools stay byte-identical.
      mcpTools: this.mcpTools(),
      // What the chat's own memory or skill tool could only propose shows in the Inbox at once.
      onProposed: () => this.app.emit('inbox.changed', { pending: new ProposalStore(this.app.core.db).pending().count }),
      // Resolved per turn: switching the provider away reaches the conversations already open.
      recall: this.app.recall ? recallResolvedPerTurn(this.app.recall) : undefined
    })
    return this.track(session, workspace)
  }

  private track(session: AgentSession, workspace: string, incognito?: IncognitoChat): LiveChat {
    const chat: LiveChat = { session, workspace, buffer: [], running: false, done: Promise.resolve(), lastActiveAt: 0, idleEnded: false, toolsStale: false, incognito }
    session.events.on((event) => {
      chat.buffer.push(event)
      this.app.emit('chat.event', event)
    })
    this.chats.set(session.id, chat)
    return chat
  }

  private mcpTools(): ToolDef[] {
    if (!this.app.mcp) return []
    // Regenerating or editing in a conversation not open yet comes here without send()'s wait.
    this.app.mcp.start()
    return this.app.mcp.conversationTools()
  }

  private start(chat: LiveChat, run: (session: AgentSession) => TurnHandle): { sessionId: string; turnId: string } {
    const sessionId = chat.session.id
    chat.running = true
    chat.buffer = []
    this.app.emit('chat.status', { sessionId, running: true })
    let turn: TurnHandle
    try {
      turn = run(chat.session)
    } catch (error) {
      // Refused before it started (nothing to answer again, a turn already running): nothing is left marked as running.
      this.settle(chat)
      throw error
    }
    chat.done = turn.done
      .then((summary) => this.titleSoon(summary))
      .catch((error: unknown) => console.error('cairn: turn failed unexpectedly:', error))
      .finally(() => this.settle(chat))
    return { sessionId, turnId: turn.turnId }
  }

  /**
   * After the first answered turn, names the conversation from it, in the background: the chat is
   * free at once, and a failed or empty suggestion leaves the first words as title. Tried once; a
   * title the user gave is never replaced.
   */
  private titleSoon(summary: TurnSummary): void {
    const { sessionId } = summary
    const sessions = this.app.core.sessions
    const session = sessions.get(sessionId)
    if (!this.app.suggestTitle || !session || summary.reason !== 'completed' || !summary.answer.trim()) return
    if (!this.app.core.config.get().agent.autoTitle || session.state.titledBy !== undefined) return
    sessions.setStateKey(sessionId, 'titledBy', 'first-words')
    void this.app
      .suggestTitle({ user: summary.userText, answer: summary.answer })
      .then((title) => {
        // The user may have renamed it while the model thought.
        if (!title || sessions.get(sessionId)?.state.titledBy !== 'first-words') return
        sessions.update(sessionId, { title })
        sessions.setStateKey(sessionId, 'titledBy', 'cairn')
        this.app.emit('sessions.changed', { sessionId })
      })
      .catch((error: unknown) => console.error('cairn: could not make a title for the conversation:', error instanceof Error ? error.message : error))
  }

  private settle(chat: LiveChat): void {
    const sessionId = chat.session.id
    chat.running = false
    chat.lastActiveAt = this.clock.now()
    chat.idleEnded = false
    this.app.emit('chat.status', { sessionId, running: false })
    this.announce(sessionId)
  }

  /** The conversations list changed; never for an incognito conversation, which the list must not show. */
  private announce(sessionId: string): void {
    if (!this.chats.get(sessionId)?.incognito) this.app.emit('sessions.changed', { sessionId })
  }
}

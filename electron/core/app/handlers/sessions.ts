import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import type { DisplayMessage, LearnedReview, SessionSummary } from '../../../../shared/ipc/domain'
import { userWords } from '../../sessions/stored-messages'
import { attachmentViews } from '../../attachments'
import { recallOf } from '../../../../shared/recall'
import { exportSession, InvalidCursorError, searchSessions, type MessageRecord, type SessionRecord, type VersionGroup } from '../../sessions'
import { conversationInstructions } from '../../agent/prompt-context'
import { importedFromOf } from '../../import/imported-sessions'
import { reviewFates } from '../../ledger/review-fates'
import type { ConversationSlice } from './route-slices'
import { storedTurnFailure } from '../../sessions/turn-failure'
import type { TurnFailure } from '../../../../shared/turn-failure'
import { translator } from '../../../../shared/i18n'
import { importedSpeaker } from '../../../../shared/i18n/describe-imported'

export function sessionHandlers(app: ConversationSlice): Pick<
  IpcHandlers,
  | 'sessions.list'
  | 'sessions.get'
  | 'sessions.messages'
  | 'sessions.search'
  | 'sessions.rename'
  | 'sessions.delete'
  | 'sessions.setWorkspace'
  | 'sessions.setFlags'
  | 'sessions.export'
  | 'sessions.setModel'
  | 'sessions.setInstructions'
> {
  const sessions = () => app.core.sessions
  const requireSession = (id: string) => {
    const session = sessions().get(id)
    if (!session) throw IpcError.of('NOT_FOUND', 'conversation.missing', { id })
    return session
  }
  // A live incognito conversation is read (and its model switched) from its in-memory store; the other routes never find it.
  const storeOf = (id: string) => app.chats.incognitoSessions(id) ?? sessions()
  const requireReadable = (id: string) => {
    const session = storeOf(id).get(id)
    if (!session) throw IpcError.of('NOT_FOUND', 'conversation.missing', { id })
    return { session, store: storeOf(id), incognito: storeOf(id) !== sessions() }
  }
  return {
    'sessions.list': async ({ limit, cursor, archived }) => {
      try {
        const page = sessions().listPage({ limit, cursor, archived, pinnedFirst: true })
        return { sessions: page.sessions.map(toSummary), nextCursor: page.nextCursor }
      } catch (error) {
        if (error instanceof InvalidCursorError) throw IpcError.carrying('VALIDATION_FAILED', error)
        throw error
      }
    },
    'sessions.get': async ({ sessionId, limit }) => {
      const { session, store, incognito } = requireReadable(sessionId)
      const page = store.messagePage(sessionId, { limit })!
      const messages = withVersions(page.messages.map(toDisplayMessage), store.versions(sessionId))
      return { session: incognito ? { ...toSummary(session), incognito } : toSummary(session), messages, running: app.chats.isRunning(sessionId), learned: learnedIn(app, sessionId), page: { hasOlder: page.hasOlder } }
    },
    'sessions.messages': async ({ sessionId, limit, ...at }) => {
      const { store } = requireReadable(sessionId)
      const page = store.messagePage(sessionId, { limit, ...at })
      if (!page) throw IpcError.of('NOT_FOUND', 'conversation.message_not_shown', { message: String(at.around), id: sessionId })
      return { messages: withVersions(page.messages.map(toDisplayMessage), store.versions(sessionId)), hasOlder: page.hasOlder, hasNewer: page.hasNewer }
    },
    'sessions.search': async ({ query, limit }) => {
      const result = searchSessions(app.core.db, query, { limit, includeCurrent: true, prefixLastWord: true })
      return {
        query: result.query,
        hits: result.sessions.map((hit) => ({
          sessionId: hit.sessionId,
          title: hit.title,
          startedAt: hit.startedAt,
          score: hit.score,
          matchMessageId: hit.matchMessageId,
          snippet: hit.snippet,
          messages: hit.messages.map((m) => ({ id: m.id, role: m.role, content: m.content, toolName: m.toolName ?? null, anchor: m.anchor }))
        }))
      }
    },
    'sessions.rename': async ({ sessionId, title }) => {
      requireSession(sessionId)
      const updated = sessions().update(sessionId, { title })
      // Named by the user: Cairn never retitles it.
      sessions().setStateKey(sessionId, 'titledBy', 'user')
      app.emit('sessions.changed', { sessionId })
      return toSummary(updated)
    },
    'sessions.setFlags': async ({ sessionId, pinned, archived }) => {
      requireSession(sessionId)
      const updated = sessions().update(sessionId, { pinned, archived })
      app.emit('sessions.changed', { sessionId })
      return toSummary(updated)
    },
    'sessions.export': async ({ sessionId, format }) => {
      requireSession(sessionId)
      // A document in the user's hands: imported answers are headed by their app, named in the user's language.
      const t = translator(app.core.config.get().ui.language)
      return exportSession(sessions(), sessionId, format, { importedSpeaker: (imported) => importedSpeaker(imported, t) })
    },
    // A live conversation picks the new folder up on its next turn (ChatManager reopens it); the prompt names the folder, so it is composed again.
    'sessions.setWorkspace': async ({ sessionId, path }) => {
      if (sessionId !== null) requireSession(sessionId)
      const folder = app.workspaces.use(path)
      if (sessionId === null) return { path: folder }
      if (sessions().get(sessionId)?.workspace !== folder) sessions().update(sessionId, { workspace: folder, systemPrompt: null })
      app.emit('sessions.changed', { sessionId })
      return { path: folder }
    },
    // Read by the conversation's provider at the start of each turn, so the live conversation needs no reopening; null follows Settings.
    'sessions.setModel': async ({ sessionId, model }) => {
      const { store, incognito } = requireReadable(sessionId)
      const updated = store.update(sessionId, { model })
      if (incognito) return { ...toSummary(updated), incognito }
      app.emit('sessions.changed', { sessionId })
      return toSummary(updated)
    },
    // Instructions are part of the frozen prompt: it is dropped (composed again on the next turn) and the live conversation reopened.
    'sessions.setInstructions': async ({ sessionId, instructions }) => {
      requireSession(sessionId)
      if (app.chats.isRunning(sessionId)) throw IpcError.of('BUSY', 'conversation.busy_instructions', {})
      sessions().setStateKey(sessionId, 'instructions', instructions.trim())
      sessions().update(sessionId, { systemPrompt: null })
      app.chats.forget(sessionId)
      app.emit('sessions.changed', { sessionId })
      return toSummary(requireSession(sessionId))
    },
    'sessions.delete': async ({ sessionId }) => {
      requireSession(sessionId)
      if (app.chats.isRunning(sessionId)) throw IpcError.of('BUSY', 'conversation.busy_delete', {})
      app.chats.forget(sessionId)
      sessions().delete(sessionId)
      app.core.attachments.removeSession(sessionId)
      app.emit('sessions.changed', { sessionId })
      return { ok: true as const }
    }
  }
}

/**
 * What the conversation's finished reviews learned, oldest first, from `review_runs` (each run is
 * stored with its session, by whichever process finished it: the app, a CLI or a detached worker).
 * A review that saved nothing is kept only when the user asked for it ("Nothing worth keeping") or when it proposed changes.
 */
export function learnedIn(app: Pick<ConversationSlice, 'host' | 'core'>, sessionId: string): LearnedReview[] {
  const notes = app.host.runs.doneForSession(sessionId).flatMap((run) => {
    const requested = run.reasons.some((reason) => reason.code === 'requested')
    // Kept too: a review that only proposed (its note points at the Inbox).
    if (!run.summary || (!run.summary.saved && !requested && !run.summary.proposed)) return []
    return [{ reviewId: run.id, at: run.finishedAt ?? run.queuedAt, summary: run.summary, requested }]
  })
  // Each note says what became of its changes since: approved, rejected, reverted (one query for all).
  const fates = new Map(reviewFates(app.core.db, notes.map((note) => note.reviewId)).map((fate) => [fate.reviewId, fate]))
  return notes.map((note) => ({ ...note, fate: fates.get(note.reviewId) }))
}

export function toSummary(s: SessionRecord): SessionSummary {
  return {
    id: s.id,
    title: s.title,
    source: s.source,
    model: s.model,
    startedAt: s.startedAt,
    updatedAt: s.updatedAt,
    messageCount: s.messageCount,
    inputTokens: s.inputTokens,
    outputTokens: s.outputTokens,
    cachedTokens: s.cachedTokens,
    workspace: s.workspace,
    pinned: s.pinned,
    archived: s.archived,
    ...(conversationInstructions(s) ? { instructions: conversationInstructions(s) } : {}),
    ...withFailedTurn(s)
  }
}

function withFailedTurn(s: SessionRecord): { failedTurn?: TurnFailure } {
  const failedTurn = storedTurnFailure(s)
  return failedTurn ? { failedTurn } : {}
}

/** Marks where other versions start, so the row there offers ‹ n/m ›. */
export function withVersions(messages: DisplayMessage[], groups: VersionGroup[]): DisplayMessage[] {
  const at = new Map<number, DisplayMessage['versions']>()
  for (const group of groups) {
    const shown = group.branches.indexOf(null)
    // An answer being made again has no message yet: the switch goes on the message it answers.
    const messageId = group.shownFirstId ?? group.afterId
    at.set(messageId, { position: shown + 1, total: group.branches.length, previous: group.branches[shown - 1] ?? null, next: group.branches[shown + 1] ?? null })
  }
  return messages.map((message) => (at.has(message.id) ? { ...message, versions: at.get(message.id) } : message))
}

/** The stored message as the user saw it: the skill hint Cairn appended is split off. */
export function toDisplayMessage(m: MessageRecord): DisplayMessage {
  const hint = typeof m.meta?.hint === 'string' ? m.meta.hint : null
  return {
    id: m.id,
    role: m.role,
    content: m.role === 'user' ? userWords(m) : m.content ?? '',
    toolCalls: m.toolCalls,
    toolCallId: m.toolCallId,
    toolName: m.toolName,
    createdAt: m.createdAt,
    finishReason: m.finishReason,
    compacted: m.compacted,
    hint,
    ...(m.role === 'assistant' ? answerFacts(m) : {}),
    // A tool's own model calls (session_search summaries) count into its turn's tokens; their model is not the answer's.
    ...(m.role === 'tool' && tokensOf(m) ? { usage: tokensOf(m) } : {}),
    ...(m.role === 'user' && m.meta?.attachments ? { attachments: attachmentViews(m.meta) } : {}),
    ...(m.role === 'user' && recallOf(m.meta) ? { recalled: recallOf(m.meta)!.items } : {})
  }
}

/** Which model wrote an answer and what its call cost, for the answer's details. */
function answerFacts(m: MessageRecord): Pick<DisplayMessage, 'model' | 'usage' | 'importedFrom'> {
  const model = typeof m.meta?.model === 'string' ? m.meta.model : null
  const importedFrom = importedFromOf(m.meta)
  return { model, usage: tokensOf(m), ...(importedFrom ? { importedFrom } : {}) }
}

/** The tokens stored with a message, as the provider reported them (null: none reported). */
function tokensOf(m: MessageRecord): DisplayMessage['usage'] {
  if (m.promptTokens === null && m.completionTokens === null) return null
  return { promptTokens: m.promptTokens ?? 0, completionTokens: m.completionTokens ?? 0, cachedTokens: m.cachedTokens ?? 0 }
}

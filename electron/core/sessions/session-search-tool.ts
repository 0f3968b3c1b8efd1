import { z } from 'zod'
import type { StateDb } from '../db/state-db'
import { defineTool, type ToolContext, type ToolDef } from '../tools/types'
import type { MessageView } from './message-view'
import { MessageNotInSessionError, readSession, recentSessions, scrollSession, type SessionHeader } from './session-browse'
import { searchSessions, DEFAULT_SEARCH_LIMIT, type SessionHit } from './session-search'
import { searchByMeaning } from './semantic-search'
import type { Embedder } from '../provider/embeddings'
import { SessionNotFoundError } from './session-store'
import { summarizeHits, type SessionSummary, type SessionSummaryOptions } from './session-summaries'

// Sent with every chat request: only what changes how the model calls it (the system prompt says when).
const description = `Search earlier conversations (tool output included) in plain language. No search syntax is needed.
session_id + around_message_id: read around a hit; session_id alone: read a session; no query: recent sessions. This session is skipped unless include_current.
summarize: true returns a summary per session (check exact words with around_message_id). History is not proof of how things are now.`

export const sessionSearchSchema = z.object({
  query: z.string().optional().describe('Plain-language query.'),
  session_id: z.string().optional().describe('From a result.'),
  around_message_id: z.number().int().optional().describe('With session_id.'),
  window: z.number().int().optional().describe('Messages each side (hit: 2, max 10; scroll: 5, max 20).'),
  limit: z.number().int().optional().describe(`Sessions (default ${DEFAULT_SEARCH_LIMIT}, max 10).`),
  include_current: z.boolean().optional().describe('Search this session too.'),
  summarize: z
    .boolean()
    .optional()
    .describe('Summaries instead of raw messages.')
})

export type SessionSearchArgs = z.infer<typeof sessionSearchSchema>

/** What session_search takes from the conversation it is offered in. */
export interface SessionSearchOptions {
  /** The model `summarize: true` runs on; without it summaries fall back to raw messages. */
  summaries?: SessionSummaryOptions
  /** The embedding model (`search.embeddingModel`; null when off): session_search then also finds by meaning. */
  embedder?: () => Embedder | null
}

/**
 * The `session_search` tool over state.db; `getCurrentSessionId` names the session to skip by default.
 * `summaries` is the model `summarize: true` runs on; without it (MCP, `cairn tool`) summaries fall
 * back to the raw messages with a note.
 */
export function createSessionSearchTool(
  db: StateDb,
  getCurrentSessionId: () => string | null,
  summaries?: SessionSummaryOptions,
  /** The embedding model of `search.embeddingModel` (null when off): sessions are then also found by meaning. */
  embedder?: () => Embedder | null
): ToolDef<typeof sessionSearchSchema> {
  return defineTool({
    name: 'session_search',
    description,
    schema: sessionSearchSchema,
    run(args, ctx) {
      const currentSessionId = getCurrentSessionId()
      const includeCurrent = args.include_current ?? false
      try {
        const sessionId = args.session_id?.trim()
        if (sessionId && args.around_message_id !== undefined) {
          const result = scrollSession(db, sessionId, args.around_message_id, args.window)
          return {
            success: true,
            mode: 'scroll',
            ...header(result),
            around_message_id: result.aroundMessageId,
            messages: result.messages.map(messageOut),
            more_before: result.moreBefore,
            more_after: result.moreAfter
          }
        }
        if (sessionId) {
          const result = readSession(db, sessionId)
          return {
            success: true,
            mode: 'read',
            ...header(result),
            messages: result.messages.map(messageOut),
            truncated: result.truncated,
            ...(result.truncated
              ? { note: `${result.omitted} middle messages omitted; pass around_message_id to read around any message.` }
              : {})
          }
        }
        const query = args.query?.trim() ?? ''
        if (!query) {
          const sessions = recentSessions(db, { limit: args.limit ?? 5, currentSessionId, includeCurrent })
          return {
            success: true,
            mode: 'recent',
            count: sessions.length,
            sessions: sessions.map((s) => ({ ...header(s), preview: s.preview }))
          }
        }
        const options = { limit: args.limit, window: args.window, currentSessionId, includeCurrent }
        const model = embedder?.() ?? null
        if (model) {
          // A provider error costs only the meaning part: keyword results still come back.
          return searchByMeaning(db, model, query, MEANING_CANDIDATES, { excludeSessionId: includeCurrent ? null : currentSessionId, signal: ctx?.signal })
            .catch(() => [])
            .then((meaning) => searchOutcome(db, query, searchSessions(db, query, { ...options, meaning }), args, summaries, currentSessionId, includeCurrent, ctx))
        }
        return searchOutcome(db, query, searchSessions(db, query, options), args, summaries, currentSessionId, includeCurrent, ctx)
      } catch (error) {
        if (error instanceof SessionNotFoundError) {
          return { success: false, error: `Session "${error.sessionId}" does not exist. Call session_search with no arguments to list recent sessions, or search with a query.` }
        }
        if (error instanceof MessageNotInSessionError) return { success: false, error: error.message }
        throw error
      }
    }
  })
}

/** Messages asked of the vector index per search, before fusion by conversation. */
const MEANING_CANDIDATES = 50

/** A search's answer to the model: the sessions (summarised on request), or why there is nothing. */
function searchOutcome(
  db: StateDb,
  query: string,
  result: ReturnType<typeof searchSessions>,
  args: SessionSearchArgs,
  summaries: SessionSummaryOptions | undefined,
  currentSessionId: string | null,
  includeCurrent: boolean,
  ctx: Pick<ToolContext, 'signal' | 'recordUsage'> | undefined
): Record<string, unknown> | Promise<Record<string, unknown>> {
  if (!result.query) {
    return {
      success: false,
      error: 'The query has no searchable words. Describe what you are looking for in words, or omit query to list recent sessions.'
    }
  }
  if (args.summarize && result.sessions.length > 0) {
    // The summaries' tokens are the turn's too: they count into its usage under the summary model.
    return summarizeHits(db, query, result.sessions, summaries, { signal: ctx?.signal, onUsage: ctx?.recordUsage }).then((done) => ({
      success: true,
      mode: 'search',
      query: result.query,
      count: result.sessions.length,
      sessions: result.sessions.map((hit, i) => summaryOut(hit, done[i]))
    }))
  }
  return {
    success: true,
    mode: 'search',
    query: result.query,
    count: result.sessions.length,
    sessions: result.sessions.map(hitOut),
    ...(result.sessions.length === 0
      ? {
          note: `No matching sessions found${currentSessionId && !includeCurrent ? ' (the current session was skipped; pass include_current: true to search it)' : ''}. Try other words for the same thing, or omit query to list recent sessions.`
        }
      : {})
  }
}

function header(session: SessionHeader): Record<string, unknown> {
  return {
    session_id: session.sessionId,
    title: session.title,
    source: session.source,
    started: new Date(session.startedAt).toISOString(),
    last_active: new Date(session.updatedAt).toISOString(),
    message_count: session.messageCount
  }
}

/** What every hit says first, raw or summarised: which conversation, when, how well it matched, where. */
function hitHead(hit: SessionHit): Record<string, unknown> {
  return {
    session_id: hit.sessionId,
    title: hit.title,
    when: new Date(hit.startedAt).toISOString(),
    score: hit.score,
    match_message_id: hit.matchMessageId,
    snippet: hit.snippet
  }
}

function hitOut(hit: SessionHit): Record<string, unknown> {
  return {
    ...hitHead(hit),
    messages: hit.messages.map(messageOut),
    other_matches: hit.matches.slice(1, 5).map((m) => m.messageId),
    ...foundByOut(hit)
  }
}

/** Said only when search by meaning took part: a conversation no keyword matched is one to read with care. */
function foundByOut(hit: SessionHit): Record<string, unknown> {
  return hit.foundBy === 'words' ? {} : { found_by: hit.foundBy === 'meaning' ? 'meaning only (not among the keyword matches)' : 'words and meaning' }
}

/** A hit with its summary and what the summary covers; on failure, the raw hit with a note saying why. */
function summaryOut(hit: SessionHit, summary: SessionSummary): Record<string, unknown> {
  const { excerpt } = summary
  if (!summary.ok) {
    return { ...hitOut(hit), summary_unavailable: `${summary.message} The raw messages around the best match follow instead.` }
  }
  return {
    ...hitHead(hit),
    summary: summary.summary,
    ...foundByOut(hit),
    covers: {
      messages: excerpt.messages.length,
      first_message_id: excerpt.messages[0]?.id ?? null,
      last_message_id: excerpt.messages.at(-1)?.id ?? null,
      from: new Date(excerpt.from).toISOString(),
      to: new Date(excerpt.to).toISOString()
    },
    other_matches: hit.matches.slice(1, 5).map((m) => m.messageId)
  }
}

function messageOut(message: MessageView): Record<string, unknown> {
  return {
    id: message.id,
    role: message.role,
    ...(message.toolName ? { tool_name: message.toolName } : {}),
    content: message.content,
    ...(message.anchor ? { anchor: true } : {})
  }
}

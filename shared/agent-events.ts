/**
 * The one stream of events a chat turn emits. The CLI prints them, the app forwards them to the
 * renderer, tests assert on them. Plain JSON: they cross process and IPC boundaries as they are.
 */

import type { RecalledItem } from './recall'

export interface TurnUsage {
  promptTokens: number
  completionTokens: number
  cachedTokens: number
}

export type TurnEndReason = 'completed' | 'cancelled' | 'failed' | 'max_iterations'

/**
 * What a tool asks the user before it writes a file outside memory/skills, runs a command, reads
 * outside the workspace or fetches a URL.
 */
export interface ApprovalRequest {
  /** `learn`: the chat's own memory or skill tool would change something the user owns (a pinned entry, their skill): asked every time, never remembered. */
  kind: 'command' | 'write' | 'read' | 'fetch' | 'mcp' | 'learn'
  tool: string
  /** One line for the prompt, e.g. "Run `npm test` in ~/project". */
  summary: string
  command?: string
  cwd?: string
  /** The file written, or the real path read (symlinks resolved). */
  path?: string
  /** A diff or content preview for writes, the full command for commands. */
  preview?: string
  /**
   * Reads: the real folder "always" would allow (it and everything below); absent where no folder may
   * be granted (a filesystem or drive root, the user's home folder or a folder that holds it).
   */
  folder?: string
  /**
   * Reads: `path` is a folder (listed or searched), so "this conversation" covers it and everything
   * below; otherwise it covers exactly the file at `path`.
   */
  readsFolder?: boolean
  /** Fetches: the full address, and the host (with its port) a session or "always" grant would allow. */
  url?: string
  host?: string
  /**
   * Fetches: text of the address that this turn's tools returned (say, a secret just read). Such a
   * fetch is never allowed by an earlier grant, and only "once" is offered.
   */
  carriedData?: string
  /**
   * The answers that may be offered; absent: once and session (a command's session and "always" are
   * its prefix: only once for a command without one).
   */
  scopes?: ApprovalScope[]
  /**
   * Writes: the real target is outside the workspace; commands: the real folder they run in is. Such a
   * request is asked about every time (only "once" is offered): an earlier "allow for this
   * conversation" or a saved prefix covers the workspace the user chose, nothing beyond it.
   */
  outsideWorkspace?: boolean
  /** MCP tools: the server (its name in config.json) and the server's own name of the tool; `preview` holds the arguments. */
  server?: string
  mcpTool?: string
  /**
   * A write to a file that makes other programs run code (package.json's scripts, a Makefile, git's
   * hooks): why. Asked every time: no grant, saved answer or `--yes` covers it.
   */
  runsCode?: string
  /** A fetch after this turn read something outside the workspace or secret-looking: that path. Asked every time. */
  afterReading?: string
  /** `learn`: what the change touches that is the user's, and which memory file or skill; `preview` holds the diff. */
  learn?: { cause: 'pinned_entry' | 'user_skill' | 'imported_skill' | 'pinned_skill'; store?: 'memory' | 'user' | 'project'; skill?: string; removes?: boolean }
}

export type AgentEvent =
  /** `recalled`: the memory a provider offered the model with this message (stored on it too). */
  | { type: 'turn_started'; sessionId: string; turnId: string; userMessageId: number; recalled?: RecalledItem[] }
  | { type: 'text_delta'; sessionId: string; turnId: string; text: string }
  /** The provider is being retried; text streamed since the last model call started is void when `discardPartial`. */
  | { type: 'retry'; sessionId: string; turnId: string; attempt: number; delayMs: number; reason: string; discardPartial: boolean }
  | { type: 'assistant_message'; sessionId: string; turnId: string; messageId: number; content: string; toolCallCount: number }
  | { type: 'tool_call_started'; sessionId: string; turnId: string; callId: string; name: string; arguments: string }
  | {
      type: 'tool_call_finished'
      sessionId: string
      turnId: string
      callId: string
      name: string
      ok: boolean
      /** The result as the model sees it (JSON text, possibly truncated). */
      result: string
      durationMs: number
      messageId: number
    }
  | ({
      type: 'approval_needed'
      sessionId: string
      turnId: string
      requestId: string
      callId: string
      /** The prefix a command's "this conversation" and "always allow" grant, e.g. "npm test". */
      prefix?: string
    } & ApprovalRequest)
  | { type: 'approval_resolved'; sessionId: string; turnId: string; requestId: string; allowed: boolean; remembered: ApprovalScope }
  | { type: 'usage'; sessionId: string; turnId: string; usage: TurnUsage }
  | { type: 'compressed'; sessionId: string; turnId: string; summarizedMessages: number; tokensBefore: number; tokensAfter: number }
  /** `params`: what the words name (the model asked for, the provider's address), when the failure has specifics. */
  | { type: 'error'; sessionId: string; turnId: string; code: string; message: string; retryable: boolean; params?: Record<string, string | number> }
  | { type: 'turn_finished'; sessionId: string; turnId: string; reason: TurnEndReason; text: string; usage: TurnUsage; toolCalls: number }

export type AgentEventType = AgentEvent['type']

/**
 * How long an approval decision holds: just this call, the rest of the session (for a command: its
 * prefix; for a read: that file, or that folder and below; for a fetch: that host), or always: for a
 * command prefix, a read's folder, a fetch's host or an MCP tool (`tool`: added to its server's `autoApprove`).
 */
export const approvalScopes = ['once', 'session', 'prefix', 'folder', 'host', 'tool'] as const
export type ApprovalScope = (typeof approvalScopes)[number]

export interface ApprovalDecision {
  allow: boolean
  remember?: ApprovalScope
  /** For `remember: 'prefix'`: the command prefix to always allow. (`folder` and `host` take the request's own, never one the answer names.) */
  prefix?: string
}

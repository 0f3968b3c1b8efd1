import type { z } from 'zod'
import type { WriteContext } from '../../../shared/ledger'

/** Mutable state that lives for one user turn (reset when the next turn starts). */
export interface TurnState {
  /** Failed memory consolidations this turn; after 3 the memory tool tells the model to stop retrying. */
  memoryFailures: number
  /** Skills (and supporting files, as `name` or `name/file`) viewed this turn: a caller can require a read before a write. */
  viewedSkills: Set<string>
  /**
   * What this turn's tools returned, as the model read it (JSON escapes undone, lower case), minus
   * the call's own arguments echoed back: a URL that carries any of it is never fetched unasked.
   */
  toolOutputs: string[]
  /** Addresses that appeared in pages fetched this turn: fetching one follows a link, it carries nothing. */
  fetchedLinks: Set<string>
  /**
   * What this turn read outside the workspace, or that looks like a secret (`.env`, a key, credentials):
   * after such a read every fetch in the turn asks, naming it, however the text might be disguised.
   */
  sensitiveReads?: string[]
}

export function newTurnState(): TurnState {
  return { memoryFailures: 0, viewedSkills: new Set(), toolOutputs: [], fetchedLinks: new Set() }
}

/** Argument strings shorter than this are not taken out of a result: they are too common to be an echo. */
const MIN_ECHO_CHARS = 12

/**
 * Keeps a tool result (the JSON text the model got) for the fetch check. Strings of the call's own
 * arguments are taken out first, so a tool that repeats its input (fetch_url its address, an error
 * its pattern) does not make that input count as data; what earlier results held stays recorded.
 */
export function recordToolOutput(turn: TurnState, content: string, argumentStrings: readonly string[] = []): void {
  let text = unescapeJson(content)
  const echoes = argumentStrings.filter((arg) => arg.length >= MIN_ECHO_CHARS).sort((a, b) => b.length - a.length)
  for (const echo of echoes) text = text.split(echo).join('\n')
  turn.toolOutputs.push(text.toLowerCase())
}

function unescapeJson(text: string): string {
  return text.replace(/\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g, (_, hex: string | undefined, char: string | undefined) => {
    if (hex) return String.fromCharCode(parseInt(hex, 16))
    return ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[char!] ?? char!
  })
}

import type { ApprovalRequest, TurnUsage } from '../../../shared/agent-events'
import type { ProvenanceEvidence } from '../text/provenance-evidence'

/**
 * Who a tool is offered to: the chat's model, with a user to ask, or the background review, which
 * has no user and should lean towards saving nothing. Factories shape descriptions and side effects by it.
 */
export type ToolAudience = 'chat' | 'review'

/** A piece of a tool description: plain text for every audience, or text only the chat's model gets. */
export type DescriptionPart = string | { chatOnly: string }

/** Joins the parts `audience` gets (chat-only parts urge saving or asking the user, which only suits a chat). */
export function describeFor(audience: ToolAudience, parts: readonly DescriptionPart[], separator: string): string {
  return parts
    .flatMap((part) => (typeof part === 'string' ? [part] : audience === 'chat' ? [part.chatOnly] : []))
    .join(separator)
}

export type { ApprovalRequest }

export interface ToolContext {
  /** Attribution for any learned change the tool makes. */
  write: WriteContext
  turn: TurnState
  signal?: AbortSignal
  /** Folder relative paths resolve against (workspace tools). */
  workspace?: string
  /**
   * Asks the user (or the session's approval policy) whether a write or command may run.
   * Absent means nobody can approve, so tools that need approval must refuse.
   */
  approve?: (request: ApprovalRequest) => Promise<boolean>
  /**
   * Counts tokens the tool spent on model calls of its own (session_search's summaries) into the
   * turn's usage, under the model that spent them. Absent (MCP, `cairn tool`): nobody keeps count.
   */
  recordUsage?: (usage: TurnUsage, model: string) => void
  /**
   * What the conversation so far says and read, to tell where a learned change's content came from
   * (the chat's memory and skill tools). Absent outside a conversation (`cairn tool`: the user typed it).
   */
  evidence?: ProvenanceEvidence
}

/**
 * A tool the model can call. `schema` validates the arguments (and becomes the JSON schema the model
 * sees); `run` returns a JSON-serialisable result. Expected failures are results with `success: false`
 * and an error that says what to send next; only bugs throw.
 */
export interface ToolDef<S extends z.ZodType = z.ZodType> {
  name: string
  description: string
  schema: S
  /**
   * The JSON schema the model sees instead of `schema`'s: an MCP server's own input schema. `schema`
   * then accepts any object and the server validates the arguments itself.
   */
  parameters?: Record<string, unknown>
  /** The MCP tools this tool reaches: its own server's tool, or every tool found through the tool search. */
  mcp?: readonly McpToolRef[]
  run(args: z.infer<S>, ctx: ToolContext): Promise<unknown> | unknown
}

/** An MCP server's tool as a conversation has it: the server, the server's own tool name, and what the model calls it. */
export interface McpToolRef {
  server: string
  tool: string
  exposedName: string
}

export function defineTool<S extends z.ZodType>(tool: ToolDef<S>): ToolDef<S> {
  return tool
}

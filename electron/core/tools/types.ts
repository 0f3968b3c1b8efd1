import type { z } from 'zod'
import type { WriteContext } from '../../../shared/ledger'

/** Mutable state that lives for one user turn (reset when the next turn starts). */
export interface TurnState {
  /** Failed memory consolidations this turn; after 3 the memory tool tells the model to stop retrying. */
  memoryFailures: number
  /** Skills (and supporting files, as `name` or `name/file`) viewed this turn: a caller can require a read before a write. */
  viewedSkills: Set<string>
}

export function newTurnState(): TurnState {
  return { memoryFailures: 0, viewedSkills: new Set() }
}

import type { ApprovalRequest } from '../../../shared/agent-events'

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
  run(args: z.infer<S>, ctx: ToolContext): Promise<unknown> | unknown
}

export function defineTool<S extends z.ZodType>(tool: ToolDef<S>): ToolDef<S> {
  return tool
}

import { z } from 'zod'
import { defineTool, type ToolAudience, type ToolContext, type ToolDef } from '../tools/types'
import type { MemoryStore } from './memory-store'
import { messages } from './messages'
import { searchMemory, type MemorySearchResult } from './memory-search'
import { isMemoryTarget, type MemoryFailure, type MemoryReadResult, type MemoryResult, type MemoryTarget } from './types'

export interface MemoryToolOptions {
  /** `memory.enabled`: the agent's notes (MEMORY.md). */
  enabled: boolean
  /** `memory.userProfileEnabled`: the user profile (USER.md). */
  userProfileEnabled: boolean
  /** Who gets the tool (default 'chat'): only the chat is told to save proactively. */
  audience?: ToolAudience
}

/** The review's wording, and other agents' over MCP (the review's prompt and budget are its own; see learning/worker). Only the chat is told to save proactively. */
const REVIEW_DESCRIPTION_PARTS: readonly string[] = [
  'Save durable facts to persistent memory that survives across sessions. Memory is injected into every future conversation, so keep entries compact and high-signal.',
  "HOW: make ALL your changes in ONE call via an 'operations' array (each item: {action, content?, old_text?}). The batch applies atomically and the char limit is checked only on the FINAL result — so a single call can remove/replace stale entries to free room AND add new ones. When consolidating, always use one batch call. The response confirms completion; do not repeat it. Use the bare action/content/old_text fields only for a single lone change. replace/remove pick the entry by old_text: a short unique substring of it, or its full text (which picks that entry even if a longer one contains it).",
  "READ: call action='read' to see the current entries and the real usage before consolidating. Never guess that memory is full: the usage shown in the system prompt is from the start of the session. A change that removes more than half of a store that is under 80% full is refused unless force: true (use it only when the user asked for it or the entries are wrong).",
  "IF FULL: an add that does not fit is kept in the archive (found by action='search', recalled when a message matches it), and the result says so. To have it in every prompt instead, send ONE batch that removes or shortens stale entries and adds it.",
  "TARGETS: 'user' = who the user is (name, role, preferences, style). 'memory' = your notes that hold in every workspace (environment, conventions, tool quirks, lessons). 'project' = facts about the conversation's workspace and its repository (build and test commands, layout, its conventions and decisions), loaded only in that workspace: a fact about this repository goes to 'project', not 'memory'.",
  'SKIP: trivial or easily re-discovered facts, raw data dumps, task progress, completed-work logs, todo state, PR/issue numbers, commit SHAs, anything that will be stale in 7 days (session_search finds past conversations when they matter). Reusable procedures belong in a skill, not memory.'
]

/**
 * The chat's wording: sent with every request of every conversation, so only what changes what the
 * model does, and nothing the system prompt already says.
 */
const CHAT_DESCRIPTION = [
  'Persistent memory shown in every future conversation.',
  "HOW: make all changes in ONE call: 'operations' [{action, content?, old_text?}] applies atomically, so one call can drop stale entries and add new ones. old_text: a unique substring of the entry.",
  "WHEN: save proactively when the user states a preference, corrects you or shares a personal detail, or you learn a stable fact about their setup. Write declarative facts ('User prefers concise answers', not 'Always answer concisely').",
  "READ: action='read': entries and usage; action='search' + query: memory and its archive (what no longer fit or was removed).",
  "TARGETS: 'user' = the user, their preferences; 'memory' = your notes for every workspace; 'project' = this workspace's repository (commands, layout, conventions), loaded only here.",
  'SKIP: trivia, task progress, todo state, ids, anything stale within a week (session_search finds the past). Procedures go in a skill.'
].join('\n')

/** The memory tool's description for `audience`. */
export function memoryToolDescription(audience: ToolAudience): string {
  return audience === 'chat' ? CHAT_DESCRIPTION : REVIEW_DESCRIPTION_PARTS.join('\n\n')
}

const operationSchema = z.object({
  action: z.enum(['add', 'replace', 'remove']),
  content: z.string().optional(),
  old_text: z.string().optional()
})

/** No top-level oneOf/anyOf: some providers reject them, so per-action requirements are checked in `run`. */
export const memoryToolSchema = z.object({
  action: z
    .enum(['add', 'replace', 'remove', 'read', 'search'])
    .optional()
    .describe("Single change (omit with 'operations')."),
  target: z
    .enum(['memory', 'user', 'project'])
    .optional()
    .describe('Which store (search: omit for both).'),
  query: z.string().optional().describe('search: words to find.'),
  content: z.string().optional().describe('add/replace: the entry.'),
  old_text: z
    .string()
    .optional()
    .describe('replace/remove: unique substring of the entry.'),
  force: z
    .boolean()
    .optional()
    .describe('Allow removing over half of a store (only if the user asked).'),
  operations: z
    .array(operationSchema)
    .optional()
    .describe('Several changes, applied atomically.')
})

export type MemoryToolArgs = z.infer<typeof memoryToolSchema>
export type MemoryToolResult = MemoryResult | MemoryReadResult | MemorySearchResult

/** The `memory` tool. `store` null (or both stores turned off) makes every call report memory as unavailable. */
export function createMemoryTool(store: MemoryStore | null, options: MemoryToolOptions): ToolDef<typeof memoryToolSchema> {
  return defineTool({
    name: 'memory',
    description: memoryToolDescription(options.audience ?? 'chat'),
    schema: memoryToolSchema,
    run: (args, ctx) => runMemoryTool(store, options, args, ctx)
  })
}

/**
 * Dispatches one call in Hermes's order: availability, target, batch, then per-action checks whose
 * errors teach the model what to send instead. Arguments are re-checked because callers may skip the schema.
 */
export async function runMemoryTool(
  store: MemoryStore | null,
  options: MemoryToolOptions,
  args: MemoryToolArgs,
  ctx: ToolContext
): Promise<MemoryToolResult> {
  const { action, target, content, old_text: oldText, force, operations, query } = args as Partial<MemoryToolArgs>
  if (!store || (!options.enabled && !options.userProfileEnabled)) return failure(messages.notAvailable)
  if (action === 'search' && (target === undefined || target === null || isMemoryTarget(target))) {
    const enabled = (store: MemoryTarget) => (store === 'user' ? options.userProfileEnabled : options.enabled)
    return searchMemory(store, typeof query === 'string' ? query : '', { target: target ?? undefined, workspace: ctx.workspace, enabled })
  }
  if (!isMemoryTarget(target)) return failure(messages.invalidTarget(target))
  if (target === 'memory' && !options.enabled) return failure(messages.notAvailable)
  if (target === 'user' && !options.userProfileEnabled) return failure(messages.userProfileDisabled)
  // Project memory follows MEMORY.md's switch, and needs the conversation's workspace.
  if (target === 'project' && !options.enabled) return failure(messages.notAvailable)
  if (target === 'project' && !store.project) return failure(messages.noProject)

  const hasOperations = operations !== undefined && operations !== null
  if (hasOperations && (!Array.isArray(operations) || operations.length > 0 || !action)) {
    if (!Array.isArray(operations)) return failure(messages.operationsNotList)
    return store.applyBatch(target, operations, ctx, { force })
  }

  if (action === 'read') return store.readForModel(target)
  if (action === 'add' && !content) return failure(messages.contentRequiredForAdd)
  if ((action === 'replace' || action === 'remove') && !oldText) return missingOldText(store, target, action)
  if (action === 'replace' && !content) return failure(messages.contentRequiredForReplace)

  if (action === 'add') return store.add(target, content as string, ctx)
  if (action === 'replace') return store.replace(target, oldText as string, content as string, ctx, { force })
  if (action === 'remove') return store.remove(target, oldText as string, ctx, { force })
  return failure(messages.unknownAction(action))
}

function failure(error: string): MemoryFailure {
  return { success: false, error }
}

/** replace/remove without old_text: show what there is to pick from instead of a dead end (Hermes #43412). */
function missingOldText(store: MemoryStore, target: MemoryTarget, action: 'replace' | 'remove'): MemoryFailure {
  const error = messages.missingOldText(action)
  try {
    const { entries, usage } = store.displayEntries(target)
    return { success: false, error, current_entries: entries, usage }
  } catch {
    return { success: false, error }
  }
}

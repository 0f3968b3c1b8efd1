import { join } from 'node:path'
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import type { LedgerEntry } from '../../../shared/ledger'
import type { ReviewJob, ReviewOutcome } from '../../../shared/review-protocol'
import type { ChatProvider, ModelToolCall } from '../provider/provider'
import type { CairnCore } from '../cairn'
import { withLock } from '../fs/lock'
import { cutMiddle } from '../text/cut'
import { createMemoryTool } from '../memory'
import { createSkillTools } from '../skills'
import { runTool, toolParametersSchema } from '../tools/run-tool'
import { newTurnState, type ToolContext, type ToolDef } from '../tools/types'
import { REVIEW_TOOL_NAMES, parseSkillOutcomes, reviewSystemPrompt, reviewUserMessage } from './review-prompts'
import { summarizeReview } from './review-summary'

/** Longest tool result the review model gets back (skills_list over a big library is long). */
export const MAX_REVIEW_TOOL_RESULT_CHARS = 50_000

export const REFUSED_TOOL_MESSAGE = 'The background review may only use memory, skills_list, skill_view and skill_manage.'

export const LIST_BEFORE_CREATE_MESSAGE =
  'Look before you create: call skills_list first and skill_view the closest existing skills. ' +
  "If one covers the same class of task, patch it with action='patch' instead; create only when nothing fits, then send this create again."

export const NO_DELETE_MESSAGE =
  "The background review does not delete skills or their files. If a skill is wrong or stale, skill_view it and fix it with action='patch'."

export interface RunReviewOptions {
  core: CairnCore
  provider: Pick<ChatProvider, 'chat'>
  job: ReviewJob
  /** Model calls allowed (config `learning.reviewMaxIterations`). */
  maxIterations: number
  allowSkillCreation: boolean
  signal?: AbortSignal
  /** How long to wait for another process's review to finish before giving up. */
  lockTimeoutMs?: number
  onProgress?: (stage: string, detail?: string) => void
  /** The review lock is taken and the review proper begins: its time budget counts from here. */
  onLocked?: () => void
  /** Each ledger row the review writes, as it is written. */
  onAction?: (entry: LedgerEntry) => void
}

export class ReviewCancelledError extends Error {
  constructor() {
    super('The review was cancelled.')
    this.name = 'ReviewCancelledError'
  }
}

/** Calls that only read: run before the writes of the same response, so "view, then patch" in one response works. */
function isReadOnlyCall(call: ModelToolCall): boolean {
  if (call.name === 'skills_list' || call.name === 'skill_view') return true
  return call.name === 'memory' && argumentsOf(call).action === 'read'
}

function argumentsOf(call: ModelToolCall): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(call.arguments)
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  } catch {
    return {} // the tool itself reports invalid JSON to the model
  }
}

function skillAction(call: ModelToolCall): unknown {
  return call.name === 'skill_manage' ? argumentsOf(call).action : null
}

/**
 * The chat tools' descriptions urge saving ("save proactively", "create a skill when…") and asking
 * the user; a review has no user and should lean the other way, so those lines are left out.
 */
function reviewDescription(tool: ToolDef): string {
  if (tool.name === 'memory') return tool.description.split('\n\n').filter((part) => !part.startsWith('WHEN:')).join('\n\n')
  if (tool.name === 'skill_manage') {
    return tool.description
      .split('\n')
      .filter((line) => !/^(Create a skill when|Confirm with the user)/.test(line))
      .join('\n')
  }
  return tool.description
}

function succeeded(result: unknown): boolean {
  return !(typeof result === 'object' && result !== null && (result as { success?: unknown }).success === false)
}

/** Exactly the four learning tools: memory per the settings, skills with or without `create`. */
function reviewTools(core: CairnCore, allowSkillCreation: boolean): Map<string, ToolDef> {
  const config = core.config.get()
  const memory = createMemoryTool(core.memory, { enabled: config.memory.enabled, userProfileEnabled: config.memory.userProfileEnabled })
  const tools = [memory as ToolDef, ...createSkillTools(core.skills, { allowCreate: allowSkillCreation })]
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  for (const name of byName.keys()) {
    if (!(REVIEW_TOOL_NAMES as readonly string[]).includes(name)) byName.delete(name)
  }
  return byName
}

/**
 * One background review: reads the job's transcript with a conservative prompt and lets the model
 * use only memory and skill tools (others are refused here, in code). Holds the data home's review
 * lock throughout, so at most one review writes per home even across processes. Never writes into
 * the user's session. Throws {@link ReviewCancelledError} when `signal` aborts, and provider errors as they come.
 */
export async function runReview(options: RunReviewOptions): Promise<ReviewOutcome> {
  const { core } = options
  const lock = join(core.paths.locksDir, 'review')
  options.onProgress?.('waiting', 'waiting for the review lock')
  return withLock(lock, () => runLocked(options), { timeoutMs: options.lockTimeoutMs ?? 120_000 })
}

async function runLocked(options: RunReviewOptions): Promise<ReviewOutcome> {
  const { core, job, signal } = options
  options.onLocked?.()
  if (signal?.aborted) throw new ReviewCancelledError()
  options.onProgress?.('started', job.reviewId)
  const entries: LedgerEntry[] = []
  const unsubscribe = core.ledger.onRecord((entry) => {
    if (entry.reviewId !== job.reviewId) return
    entries.push(entry)
    try {
      options.onAction?.(entry)
    } catch {
      // The ledger calls listeners inside the write; a failing reporter must not roll the write back.
    }
  })
  try {
    const tools = reviewTools(core, options.allowSkillCreation)
    const schemas: ChatCompletionTool[] = [...tools.values()].map((tool) => ({
      type: 'function' as const,
      function: { name: tool.name, description: reviewDescription(tool), parameters: toolParametersSchema(tool) }
    }))
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: reviewSystemPrompt({ kinds: job.kinds, allowSkillCreation: options.allowSkillCreation }) },
      { role: 'user', content: reviewUserMessage(job) }
    ]
    const turn = newTurnState() // one turn for the whole run: a view early on allows a patch later
    const context: ToolContext = { write: { source: 'review', sessionId: job.sessionId, reviewId: job.reviewId }, turn, signal }
    const refusedCalls: string[] = []
    let listed = false
    let iterations = 0
    let toolCalls = 0
    let finalText = ''

    const runCall = async (call: ModelToolCall): Promise<unknown> => {
      const tool = tools.get(call.name)
      if (!tool) {
        refusedCalls.push(call.name)
        return { success: false, error: REFUSED_TOOL_MESSAGE }
      }
      const action = skillAction(call)
      if (action === 'delete' || action === 'remove_file') return { success: false, error: NO_DELETE_MESSAGE }
      if (action === 'create' && !listed) return { success: false, error: LIST_BEFORE_CREATE_MESSAGE }
      options.onProgress?.('tool', call.name)
      const result = await runTool(tool, call.arguments, context)
      if (call.name === 'skills_list' && succeeded(result)) listed = true
      return result
    }

    while (iterations < options.maxIterations) {
      if (signal?.aborted) throw new ReviewCancelledError()
      iterations++
      options.onProgress?.('thinking', `step ${iterations} of at most ${options.maxIterations}`)
      const result = await options.provider.chat({ messages, tools: schemas, signal })
      if (result.content) finalText = result.content
      messages.push({
        role: 'assistant',
        content: result.content || (result.toolCalls.length ? null : ''),
        ...(result.toolCalls.length
          ? { tool_calls: result.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) }
          : {})
      })
      if (!result.toolCalls.length) break
      toolCalls += result.toolCalls.length
      const results = new Map<ModelToolCall, unknown>()
      const reads = result.toolCalls.filter(isReadOnlyCall)
      const writes = result.toolCalls.filter((call) => !isReadOnlyCall(call))
      for (const group of [reads, writes]) {
        const done = await Promise.all(group.map(runCall))
        group.forEach((call, index) => results.set(call, done[index]))
      }
      for (const call of result.toolCalls) {
        const value = results.get(call)
        const text = typeof value === 'string' ? value : JSON.stringify(value)
        messages.push({ role: 'tool', tool_call_id: call.id, content: cutMiddle(text, MAX_REVIEW_TOOL_RESULT_CHARS) })
      }
    }
    if (signal?.aborted) throw new ReviewCancelledError()

    const skillOutcomes = parseSkillOutcomes(finalText, job.skillsUsed)
    for (const verdict of skillOutcomes) core.skills.recordUse(verdict.name, verdict.outcome)
    return {
      summary: summarizeReview(entries),
      entries: [...entries],
      skillOutcomes,
      finalText,
      iterations,
      toolCalls,
      refusedCalls
    }
  } finally {
    unsubscribe()
  }
}

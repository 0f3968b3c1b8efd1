import { join } from 'node:path'
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import type { LearningMode } from '../../../../shared/config'
import type { LedgerEntry } from '../../../../shared/ledger'
import type { ReviewJob, ReviewOutcome } from '../../../../shared/review-protocol'
import { emptyReviewSummary } from '../../../../shared/review-outcome'
import { modelStep, toolResultMessage } from '../../provider/model-step'
import type { ChatProvider, ModelToolCall } from '../../provider/provider'
import type { SettingsStore } from '../../config/config-store'
import type { HomePaths } from '../../config/home'
import type { StateDb } from '../../db/state-db'
import { withLock } from '../../fs/lock'
import type { Ledger } from '../../ledger/ledger'
import { ProposalStore } from '../../ledger/proposals'
import { memoryLimitsFrom, type MemoryStore, type MemoryToolOptions } from '../../memory'
import type { MemoryPins } from '../../memory/memory-pins'
import type { MemoryLimits } from '../../memory/types'
import type { SkillStore } from '../../skills'
import type { SkillFlags } from '../../skills/skill-flags'
import { cutMiddle } from '../../text/cut'
import { runTool, toolSchema } from '../../tools/run-tool'
import { newTurnState, type ToolContext } from '../../tools/types'
import { curationOverview, isCurationJob, type CurationSources } from './curation-overview'
import { CURATION_SYSTEM_PROMPT, curationUserMessage, type CurationOverview } from './curation-prompt'
import { DisableProposals, PROPOSE_DISABLE } from './disable-proposals'
import { rejectedProposalsText } from './rejected-proposals'
import { ReviewPolicy, reviewTools } from './review-policy'
import { reviewMemoryContext } from './review-memory-context'
import { parseSkillOutcomes, reviewSystemPrompt, reviewUserMessage } from './review-prompts'
import { summarizeReview } from '../../staging/review-summary'
import { ReviewStaging, type LearningStores } from '../../staging/staging'
import { recordProposals } from '../../staging/staging-proposals'
import { removeStagingLeftovers } from '../../staging/staging-stores'
import { addInstructionsRead, conversationEvidence, evidenceMessagesOf } from '../../staging/conversation-evidence'
import { readProjectInstructions } from '../../workspace/project-instructions'
import { userWords } from '../../sessions/stored-messages'
import { judgeLearnedCall, type LearnedCallJudgement } from '../../staging/learned-content'
import { decideLearnedWrite, type LearnedWriter } from '../../ledger/learning-policy'
import type { MessageRecord, SessionStore } from '../../sessions'
import type { ProposalCause } from '../../../../shared/proposals'
import type { ProvenanceEvidence } from '../../text/provenance-evidence'
import { searchSessions } from '../../sessions/session-search'
import { shrinkOfCall, type SkillShrink } from '../../staging/skill-shrink'
import { CreateGate } from './review-create-gate'
import { reviewSkillsContext } from './review-skills-context'

/** Longest tool result the review model gets back (skills_list over a big library is long). */
export const MAX_REVIEW_TOOL_RESULT_CHARS = 50_000

/**
 * What a review uses of a data home: its two learning stores, the ledger (its feed, and each skill's
 * history, which tells who made it), the memory switches, the lock folder, and what decides which
 * changes only become proposals: the learning mode, the user's pins and flags, the proposals table.
 */
export interface ReviewDeps {
  memory: MemoryStore
  skills: SkillStore
  /** Where the review's ledger rows are seen as they are written. */
  ledger: Pick<Ledger, 'onRecord' | 'forSkill'>
  /** Read once the review lock is held, so a settings change made while it waited applies. */
  memorySettings: () => Pick<MemoryToolOptions, 'enabled' | 'userProfileEnabled'>
  locksDir: string
  /** `learning.mode`, read once the review lock is held: `ask` stages every change, `off` runs nothing. */
  learningMode: () => LearningMode
  /** The data home: the review's scratch copy lives in its `tmp/` folder. */
  dataHome: string
  memoryLimits: () => MemoryLimits
  nativeBinding?: string
  skillFlags: Pick<SkillFlags, 'get'>
  memoryPins: Pick<MemoryPins, 'list' | 'isPinned'>
  proposals: Pick<ProposalStore, 'add' | 'findIdentical' | 'list'>
  /** The library at a glance, for a curation pass. */
  curationOverview: () => CurationOverview
  /**
   * The reviewed conversation's messages in full (the transcript cuts long tool results), the evidence
   * of where what the review saves came from; absent or empty: the transcript alone.
   */
  sessionMessages?: (sessionId: string) => MessageRecord[]
  /** The user turns of other conversations matching `query` (whether a task family came up before: review-create-gate.ts). */
  similarRequests?: (query: string, excludeSessionId: string | null) => string[]
}

/** Other conversations a create's task family is looked up in. */
const SIMILAR_CONVERSATIONS = 5

/** What the worker's open data home hands a review: its stores, settings, folders and tables. */
export interface ReviewHome extends CurationSources {
  memory: MemoryStore
  skills: SkillStore
  ledger: Pick<Ledger, 'onRecord' | 'forSkill'>
  config: Pick<SettingsStore, 'get'>
  paths: Pick<HomePaths, 'root' | 'locksDir'>
  nativeBinding?: string
  skillFlags: Pick<SkillFlags, 'get' | 'all'>
  memoryPins: Pick<MemoryPins, 'list' | 'isPinned'>
  db: StateDb
  sessions: Pick<SessionStore, 'messages'>
}

/** The {@link ReviewDeps} of an open data home. */
export function reviewDepsOf(core: ReviewHome): ReviewDeps {
  return {
    memory: core.memory,
    skills: core.skills,
    ledger: core.ledger,
    memorySettings: () => {
      const { enabled, userProfileEnabled } = core.config.get().memory
      return { enabled, userProfileEnabled }
    },
    locksDir: core.paths.locksDir,
    learningMode: () => core.config.get().learning.mode,
    dataHome: core.paths.root,
    memoryLimits: () => memoryLimitsFrom(core.config.get().memory),
    nativeBinding: core.nativeBinding,
    skillFlags: core.skillFlags,
    memoryPins: core.memoryPins,
    proposals: new ProposalStore(core.db),
    curationOverview: () => curationOverview(core),
    sessionMessages: (sessionId) => core.sessions.messages(sessionId, { includeCompacted: true }),
    similarRequests: (query, excludeSessionId) =>
      searchSessions(core.db, query, { currentSessionId: excludeSessionId, limit: SIMILAR_CONVERSATIONS, window: 0 }).sessions.map((hit) =>
        core.sessions
          .messages(hit.sessionId)
          .filter((message) => message.role === 'user')
          .map(userWords) // without the skill hint Cairn appended: it names skills, not the user's task
          .join('\n')
      )
  }
}

export interface RunReviewOptions {
  deps: ReviewDeps
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

/**
 * One background review: reads the job's transcript with a conservative prompt and lets the model
 * use only memory and skill tools, under the rules of {@link ReviewPolicy} (enforced in code). Holds
 * the data home's review lock throughout, so at most one review writes per home even across
 * processes. Never writes into the user's session. Throws {@link ReviewCancelledError} when `signal` aborts, and provider errors as they come.
 */
export async function runReview(options: RunReviewOptions): Promise<ReviewOutcome> {
  const lock = join(options.deps.locksDir, 'review')
  options.onProgress?.('waiting', 'waiting for the review lock')
  return withLock(lock, () => runLocked(options), { timeoutMs: options.lockTimeoutMs ?? 120_000 })
}

async function runLocked(options: RunReviewOptions): Promise<ReviewOutcome> {
  const { job, signal } = options
  // The conversation's workspace names its project memory; without one the review has none to write.
  const deps = job.workspace ? { ...options.deps, memory: options.deps.memory.forWorkspace(job.workspace) } : options.deps
  options.onLocked?.()
  if (signal?.aborted) throw new ReviewCancelledError()
  options.onProgress?.('started', job.reviewId)
  const configured = deps.learningMode()
  const curation = isCurationJob(job)
  // Curation only ever proposes, whatever the mode; `off` runs nothing.
  const mode = curation && configured !== 'off' ? 'ask' : configured
  // Turned off while it waited: like a review the host never started.
  if (mode === 'off') {
    return { summary: emptyReviewSummary(), entries: [], skillOutcomes: [], finalText: '', iterations: 0, toolCalls: 0, refusedCalls: [] }
  }
  const entries: LedgerEntry[] = []
  const unsubscribe = deps.ledger.onRecord((entry) => {
    if (entry.reviewId !== job.reviewId) return
    entries.push(entry)
    try {
      options.onAction?.(entry)
    } catch {
      // The ledger calls listeners inside the write; a failing reporter must not roll the write back.
    }
  })
  removeStagingLeftovers(deps.dataHome) // holding the review lock, any scratch copy is a killed review's
  const memorySettings = deps.memorySettings()
  const makeTools = (stores: LearningStores) =>
    reviewTools({ memory: stores.memory, skills: stores.skills, memorySettings, allowSkillCreation: options.allowSkillCreation })
  const staging = new ReviewStaging({
    mode,
    dataHome: deps.dataHome,
    reviewId: job.reviewId,
    nativeBinding: deps.nativeBinding,
    memoryLimits: deps.memoryLimits,
    real: deps,
    makeTools,
    protection: deps
  })
  // Taking a skill out of use is never done by a review: it can only ask (always a proposal).
  const disables = new DisableProposals({ skills: deps.skills, skillFlags: deps.skillFlags, dataHome: deps.dataHome })
  try {
    const tools = new Map([...makeTools(deps), [PROPOSE_DISABLE, disables.tool()]])
    const schemas = [...tools.values()].map((tool) => toolSchema(tool))
    const rejected = rejectedProposalsText(deps.proposals)
    const skillsContext = curation ? null : reviewSkillsContext(job, deps)
    const brief = curation
      ? curationUserMessage(deps.curationOverview())
      : [reviewUserMessage(job), reviewMemoryContext(deps.memory, memorySettings), skillsContext?.text].filter(Boolean).join('\n\n')
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: curation ? CURATION_SYSTEM_PROMPT : reviewSystemPrompt({ kinds: job.kinds, allowSkillCreation: options.allowSkillCreation }) },
      { role: 'user', content: rejected ? `${brief}\n\n${rejected}` : brief }
    ]
    const turn = newTurnState() // one turn for the whole run: a view early on allows a patch later
    // With creation off the tool has no create and says so itself.
    const createGate = options.allowSkillCreation ? new CreateGate(job, { skills: deps.skills, similarRequests: deps.similarRequests }) : undefined
    const policy = new ReviewPolicy(tools, turn, staging.skills, { curation, listed: skillsContext?.wholeLibrary, createGate })
    const context: ToolContext = { write: { source: 'review', sessionId: job.sessionId, reviewId: job.reviewId }, turn, signal }
    const refusedCalls: string[] = []
    let iterations = 0
    let toolCalls = 0
    let finalText = ''
    let budgetExhausted = false
    // What the provider reported over every call, for the timeline's tokens per review.
    const usage = { promptTokens: 0, completionTokens: 0, reported: false }

    // The repository's instruction files are text Cairn read: content copied from them is never the user's word.
    const evidence = curation ? conversationEvidence([]) : reviewEvidence(deps, job)
    if (job.workspace && !curation) addInstructionsRead(evidence, readProjectInstructions(job.workspace))
    // Each skill's text when this run first touched it: the shrink guard measures every edit against it.
    const skillBaselines = new Map<string, string>()
    const runCall = async (call: ModelToolCall): Promise<unknown> => {
      const args = argumentsOf(call)
      const admission = policy.admit(call.name, args)
      if ('refusal' in admission) {
        if (admission.refusal.rule === 'whitelist') refusedCalls.push(call.name)
        return admission.refusal.result
      }
      // Where the content came from and what it adds decide, for every writer alike, whether it may
      // only be proposed (ledger/learning-policy.ts); the rows carry both.
      const judged = judgeLearnedCall(call.name, args, { skills: deps.skills, evidence })
      const shrink = shrinkOfCall(call.name, args, staging.skills, skillBaselines)
      const forced = (judged ? contentCause(judged, curation ? 'curation' : 'review', mode) : undefined) ?? (shrink ? 'skill_shrink' : undefined)
      const choice = staging.choose(call.name, args, admission.tool, forced)
      if ('refusal' in choice) return choice.refusal
      options.onProgress?.('tool', call.name)
      const rowsBefore = staging.rows().length
      const callContext: ToolContext = judged ? { ...context, write: { ...context.write, provenance: judged.provenance, dangers: judged.dangers } } : context
      const result = await runTool(choice.tool, call.arguments, callContext)
      policy.ran(call.name, result)
      const shown = staging.present(result, choice.staged, rowsBefore)
      return shrink && forced === 'skill_shrink' ? withShrinkNote(shown, shrink) : shown
    }

    while (iterations < options.maxIterations) {
      if (signal?.aborted) throw new ReviewCancelledError()
      iterations++
      options.onProgress?.('thinking', `step ${iterations} of at most ${options.maxIterations}`)
      const result = await modelStep(options.provider, { messages, tools: schemas, signal })
      if (result.usage) {
        usage.promptTokens += result.usage.promptTokens
        usage.completionTokens += result.usage.completionTokens
        usage.reported = true
      }
      if (result.content) finalText = result.content
      messages.push(result.message)
      if (!result.toolCalls.length) break
      // Its calls still run (their writes are kept), but no model call is left to read their results.
      budgetExhausted = iterations >= options.maxIterations
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
        messages.push(toolResultMessage(call.id, cutMiddle(text, MAX_REVIEW_TOOL_RESULT_CHARS)))
      }
    }
    if (signal?.aborted) throw new ReviewCancelledError()

    const skillOutcomes = parseSkillOutcomes(finalText, job.skillsUsed)
    for (const verdict of skillOutcomes) deps.skills.recordUse(verdict.name, verdict.outcome)
    const proposals = recordProposals({
      rows: staging.rows(),
      job,
      finalText,
      causeOf: (owner) => {
        const staged = 'memory' in owner ? staging.causeOfMemory(owner.memory) : staging.causeOfSkill(owner.skill)
        return curation && staged !== 'skill_shrink' ? 'curation' : staged
      },
      origin: curation ? 'curation' : 'review',
      proposals: deps.proposals,
      memoryPins: deps.memoryPins
    }).concat(disables.record({ job, origin: curation ? 'curation' : 'review', proposals: deps.proposals }))
    const summary = summarizeReview(entries)
    return {
      // `saved` stays about what was applied; what waits for the user is counted apart.
      summary: { ...summary, ...(proposals.length ? { proposed: proposals.length } : {}), ...(budgetExhausted ? { budgetExhausted } : {}) },
      entries: [...entries],
      skillOutcomes,
      finalText,
      iterations,
      toolCalls,
      refusedCalls,
      ...(proposals.length ? { proposals } : {}),
      ...(curation ? { curation: { result: proposals.length ? ('proposed' as const) : ('nothing_to_tidy' as const), proposals: proposals.length } } : {}),
      ...(usage.reported ? { usage: { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens } } : {})
    }
  } finally {
    staging.close()
    unsubscribe()
  }
}

/** Tells the model why its rewrite was only proposed, so it does not take a smaller cut for a success. */
function withShrinkNote(shown: unknown, shrink: SkillShrink): unknown {
  if (typeof shown !== 'object' || shown === null || (shown as { proposed?: unknown }).proposed !== true) return shown
  const sections = shrink.sectionsDropped.length ? ` and drops the sections ${shrink.sectionsDropped.map((title) => `'${title}'`).join(', ')}` : ''
  const note = `Held back because it cuts the skill from ${shrink.linesBefore} to ${shrink.linesAfter} lines${sections}. Change only what is wrong with a patch; keep the rest.`
  return { ...shown, message: `${String((shown as { message?: unknown }).message ?? '')} ${note}`.trim() }
}

/**
 * The evidence of a reviewed conversation: its stored messages in full (tool results uncut) when the
 * data home has them, and the transcript (which may add other conversations' user turns).
 */
function reviewEvidence(deps: ReviewDeps, job: ReviewJob): ProvenanceEvidence {
  let records: MessageRecord[] = []
  try {
    records = job.sessionId && deps.sessionMessages ? deps.sessionMessages(job.sessionId) : []
  } catch {
    records = [] // a conversation deleted meanwhile: the transcript is all there is
  }
  if (records.length === 0) return conversationEvidence(job.messages)
  // The transcript's tool results are cut copies of the stored ones; its user turns may add other conversations'.
  return conversationEvidence(
    job.messages.filter((message) => message.role === 'user'),
    conversationEvidence(evidenceMessagesOf(records))
  )
}

/**
 * The cause a call's content alone forces (it came from what was read, or adds something dangerous),
 * as the one policy decides it; undefined when the content is no reason to wait (the mode and the
 * user's pins and skills still are: ReviewStaging applies those).
 */
function contentCause(judged: LearnedCallJudgement, writer: LearnedWriter, mode: LearningMode): ProposalCause | undefined {
  const decision = decideLearnedWrite({ writer, mode, provenance: judged.provenance, dangers: judged.dangers, protectedTarget: null })
  return decision.action === 'propose' && (decision.cause === 'untrusted_source' || decision.cause === 'dangerous_content') ? decision.cause : undefined
}

import type { ReviewKind } from '../../../../shared/review-protocol'
import type { ReviewReason } from '../../../../shared/review-reasons'
import type { TurnSummary } from '../../agent/agent-session'

/**
 * When to learn. Two counters with Hermes's semantics (user turns since the last memory write, tool
 * iterations since the last skill write) plus signals that something worth learning just happened,
 * so reviews are not only blind timers. Pure functions: the learning loop keeps the skill counter
 * with each session and the memory counter for the whole data home (`learning_state`), since most
 * desktop conversations are shorter than the interval.
 */
export interface LearningCounters {
  /** This conversation's user turns. */
  userTurns: number
  /** User turns since the last memory write or memory review, across every conversation of the data home. */
  turnsSinceMemory: number
  /** This conversation's tool iterations since the last skill write or skill review. */
  itersSinceSkill: number
}

/** What a session keeps of the counters (the memory counter lives with the data home). */
export type SessionCounters = Pick<LearningCounters, 'userTurns' | 'itersSinceSkill'>

export interface TriggerSettings {
  enabled: boolean
  memoryNudgeInterval: number
  skillNudgeInterval: number
  /** The memory tool exists in this session (memory or user profile enabled). */
  memoryAvailable: boolean
  /** skill_manage exists in this session. */
  skillsAvailable: boolean
}

export interface TriggerDecision {
  counters: LearningCounters
  /** What the review should look at; empty when no review is due. */
  kinds: ReviewKind[]
  reasons: ReviewReason[]
}

/** A turn needing this many tool calls (not all of them reads) is worth a look at what procedure it followed. */
export const LONG_TOOL_CHAIN = 5

/** Tools that only look: a chain of them (reading five files to answer a question) is no procedure. */
export const LOOKING_TOOLS: ReadonlySet<string> = new Set(['read_file', 'list_dir', 'search_files', 'fetch_url', 'session_search', 'skill_view', 'skills_list'])

/**
 * The user may be saying the assistant got something wrong. These are hints, often wrong, and the
 * reviewer is told so (reasonForModel): a bare "No," ("No, thanks") or a story ("I said hello") is not one.
 */
export const CORRECTION_PATTERNS: readonly RegExp[] = [
  /^\s*wrong\b\s*[,.!:]/i,
  /^\s*(no|nope)\s*[,.!:]\s*(i (said|meant|asked|wanted|told)|that'?s|it'?s not|it is not|not\b|wrong|use\b|you (should|need|forgot|missed)|actually|instead|don'?t|do not|the (port|file|path|name|version|command|folder|branch|server) (is|was|should))/i,
  /\bthat'?s (wrong|incorrect|not (right|correct|it|what i (asked|meant|wanted)))\b/i,
  /\bnot what i (asked|meant|wanted|said)\b/i,
  /\byou('re| are) (wrong|mistaken)\b/i,
  /\bi told you\b|\b(but|as|like|what) i (said|asked for|meant)\b/i,
  /\bi (said|asked you|told you) (to (?!(my|the|a|an|him|her|them|you|us|our|his|their|someone|everyone)\b)|not to|never|don'?t|do not|you should|we should|use)\b/i,
  /(^|[.!?]\s+)i meant\b(?! to\b)/i,
  /\b(actually|instead),? (you should|use|do|it'?s|it is|try)\b/i,
  /\b(don'?t|do not|stop|quit) (do|doing|use|using|add|adding|make|making|write|writing|put|putting)\b/i,
  /\b(that|this) (didn'?t|does ?n'?t|did not|does not) work\b/i,
  /不对|错了|不是这样|我说的是|我的意思是|不要再|别再|你搞错/
]

/**
 * The user may be stating a lasting preference or a fact about themselves; hints, often wrong. "I like
 * this" about one answer is no lasting preference, so liking counts only as a habit or about how the
 * assistant works.
 */
export const PREFERENCE_PATTERNS: readonly RegExp[] = [
  /\bi (really )?(prefer|dislike|can'?t stand)\b/i,
  /\bi (usually|always|generally|normally) (use|prefer|like|want|work|write)\b/i,
  /\bi (really )?(like|love|hate) (it )?when you\b/i,
  /\bi'?d rather\b|\bi would rather\b/i,
  /\b(please )?(always|never) (use|write|answer|reply|respond|call|format|include|add|put|give|show|ask)\b/i,
  /\bfrom now on\b|\bgoing forward\b|\bin (the )?future,? (please|always|use|don'?t)\b/i,
  /\bmy name is\b|\bcall me\b/i,
  /\bi('m| am) (a|an) [\p{L}-]+ ?(developer|engineer|designer|student|teacher|scientist|manager|researcher|writer)\b/iu,
  /\bi (work|live) (at|in|for)\b/i,
  /\bmy (timezone|time zone|editor|os|operating system|shell|language) is\b/i,
  /我(喜欢|更喜欢|偏好|习惯|讨厌)|以后(请|都|要)|请(总是|始终|一直)|我叫|我的名字是/
]

export function detectUserSignals(text: string): { correction: boolean; preference: boolean } {
  return {
    correction: CORRECTION_PATTERNS.some((pattern) => pattern.test(text)),
    preference: PREFERENCE_PATTERNS.some((pattern) => pattern.test(text))
  }
}

export function emptyCounters(): LearningCounters {
  return { userTurns: 0, turnsSinceMemory: 0, itersSinceSkill: 0 }
}

/**
 * A session's counters as stored with it, or (for a session that predates them) rebuilt like Hermes
 * does on resume: the user turns so far, and no tool iterations.
 */
export function restoreSessionCounters(stored: unknown, userMessages: number): SessionCounters {
  if (isSessionCounters(stored)) return { userTurns: stored.userTurns, itersSinceSkill: stored.itersSinceSkill }
  return { userTurns: userMessages, itersSinceSkill: 0 }
}

/** Updates the counters for a finished turn and decides whether (and why) a review should run. */
export function evaluateTurn(previous: LearningCounters, turn: TurnSummary, settings: TriggerSettings): TriggerDecision {
  const counters = { ...previous }
  const memoryInterval = settings.memoryAvailable ? settings.memoryNudgeInterval : 0
  const skillInterval = settings.skillsAvailable ? settings.skillNudgeInterval : 0
  // A completed turn ends with one model call that used no tools; the others each ran tools.
  const toolIterations = turn.reason === 'completed' ? Math.max(0, turn.iterations - 1) : turn.iterations

  counters.userTurns += 1
  if (memoryInterval > 0) counters.turnsSinceMemory += 1
  if (skillInterval > 0) counters.itersSinceSkill += toolIterations

  const savedMemory = turn.toolCalls.some((call) => call.ok && call.name === 'memory' && isMemoryWrite(call.arguments))
  const savedSkill = turn.toolCalls.some((call) => call.ok && call.name === 'skill_manage')
  if (savedMemory) counters.turnsSinceMemory = 0
  if (savedSkill) counters.itersSinceSkill = 0

  // Only a finished answer is reviewed; a cancelled or failed turn keeps the counters for later.
  if (!settings.enabled || turn.reason !== 'completed') return { counters, kinds: [], reasons: [] }

  const memory: ReviewReason[] = []
  const skills: ReviewReason[] = []
  if (memoryInterval > 0 && counters.turnsSinceMemory >= memoryInterval) {
    memory.push({ code: 'memory_interval', count: counters.turnsSinceMemory })
  }
  if (skillInterval > 0 && counters.itersSinceSkill >= skillInterval) {
    skills.push({ code: 'skill_interval', count: counters.itersSinceSkill })
  }
  if (isLongTask(turn.toolCalls)) skills.push({ code: 'long_task', count: turn.toolCalls.length })
  const overcome = errorOvercome(turn.toolCalls)
  if (overcome) skills.push({ code: 'error_overcome', tool: overcome })
  const signals = detectUserSignals(turn.userText)
  if (signals.correction) {
    memory.push({ code: 'correction' })
    skills.push({ code: 'correction' })
  }
  if (signals.preference) memory.push({ code: 'preference' })

  // The model already saved memory itself this turn: a memory review would only repeat it.
  const wantMemory = settings.memoryAvailable && memory.length > 0 && !savedMemory
  const wantSkills = settings.skillsAvailable && skills.length > 0
  const kinds: ReviewKind[] = []
  if (wantMemory) {
    kinds.push('memory')
    counters.turnsSinceMemory = 0
  }
  if (wantSkills) {
    kinds.push('skills')
    counters.itersSinceSkill = 0
  }
  const wanted = [...(wantMemory ? memory : []), ...(wantSkills ? skills : [])]
  const reasons = wanted.filter((reason, i) => wanted.findIndex((other) => other.code === reason.code) === i)
  return { counters, kinds, reasons }
}

/** Many calls that did something (ran a command, wrote a file, an MCP tool), not only looked around. */
function isLongTask(calls: TurnSummary['toolCalls']): boolean {
  return calls.length >= LONG_TOOL_CHAIN && calls.some((call) => !LOOKING_TOOLS.has(call.name))
}

/** Name of the first tool that failed before a later call succeeded, or null. */
function errorOvercome(calls: TurnSummary['toolCalls']): string | null {
  const firstFailure = calls.findIndex((call) => !call.ok)
  if (firstFailure < 0) return null
  return calls.slice(firstFailure + 1).some((call) => call.ok) ? calls[firstFailure].name : null
}

function isMemoryWrite(args: string): boolean {
  try {
    const parsed = JSON.parse(args) as { action?: unknown; operations?: unknown }
    return parsed.action !== 'read' || Array.isArray(parsed.operations)
  } catch {
    return false
  }
}

function isSessionCounters(value: unknown): value is SessionCounters {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return ['userTurns', 'itersSinceSkill'].every((key) => Number.isInteger(v[key]) && (v[key] as number) >= 0)
}

import type { PlanOutcome } from './memory-files'
import { charCount, usageOf } from './memory-file'
import { MAX_FAILURES_PER_TURN, SHRINK_GUARD_BELOW, SUCCESS_NOTE, WARN_ABOVE, messages, usageFraction, usageLabel } from './messages'
import type { MemoryCallContext, MemoryFailure, MemorySuccess, MemoryTarget, MemoryUsage } from './types'

/** A failure, and whether it spends the turn's consolidation budget. */
export interface PlannedFailure {
  result: MemoryFailure
  counts: boolean
}

export function ambiguous(needle: string, matches: string[]): PlanOutcome<PlannedFailure> {
  return {
    kind: 'fail',
    failure: { result: { success: false, error: messages.multipleMatches(needle), matches }, counts: false }
  }
}

/** Refuses a change that drops more than half of a store that is not close to full. */
export function shrinkRefusal(before: readonly string[], after: readonly string[], limit: number): PlanOutcome<PlannedFailure> | null {
  const usage = usageOf(before, limit)
  const remaining = charCount(after)
  if (usage.current === 0 || usage.current >= limit * SHRINK_GUARD_BELOW || remaining * 2 >= usage.current) return null
  const result: MemoryFailure = {
    success: false,
    error: messages.shrinkRefused(usage, remaining),
    usage: usageFraction(usage)
  }
  return { kind: 'fail', failure: { result, counts: true } }
}

/**
 * Counts a failed consolidation in the turn. The first three keep their error (it teaches the fix);
 * from the fourth on the model is told to stop, so a memory loop never eats the user's reply.
 */
export function countFailure(ctx: MemoryCallContext, failure: MemoryFailure): MemoryFailure {
  if (!ctx.turn) return failure
  ctx.turn.memoryFailures += 1
  if (ctx.turn.memoryFailures <= MAX_FAILURES_PER_TURN) return failure
  return { success: false, done: true, error: messages.breaker(ctx.turn.memoryFailures) }
}

export function warningFor(usage: MemoryUsage): string | undefined {
  return usage.current > usage.limit * WARN_ABOVE ? messages.nearlyFull(usage) : undefined
}

/** A terminal success (it resets the turn's failure count): usage, the message, and a warning past 90%. */
export function succeeded(target: MemoryTarget, ctx: MemoryCallContext, usage: MemoryUsage, entryCount: number, message: string): MemorySuccess {
  if (ctx.turn) ctx.turn.memoryFailures = 0
  const warning = warningFor(usage)
  return {
    success: true,
    done: true,
    target,
    usage: usageLabel(usage),
    entry_count: entryCount,
    message,
    ...(warning ? { warning } : {}),
    note: SUCCESS_NOTE
  }
}

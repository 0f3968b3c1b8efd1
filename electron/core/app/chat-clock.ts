/** Time as the chats see it: injectable, so tests drive idle conversations without waiting. */
export interface ChatClock {
  now(): number
  /** Calls `tick` every `ms` until the returned function is called; never keeps the process alive. */
  every(ms: number, tick: () => void): () => void
}

export const systemClock: ChatClock = {
  now: () => Date.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms)
    timer.unref?.()
    return () => clearInterval(timer)
  }
}

/** How often open conversations are checked for having gone idle (`learning.idleReviewMinutes` is in minutes). */
export const IDLE_TICK_MS = 60_000

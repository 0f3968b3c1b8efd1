import type { ChatClock } from '../../electron/core/app/chat-manager'

/** The chats' clock, moved by hand: `pass()` moves time on and runs the idle check the app runs every minute. */
export class TestClock implements ChatClock {
  constructor(public at = 1_000_000) {}
  now(): number {
    return this.at
  }
  every(_ms: number, tick: () => void): () => void {
    this.ticks.push(tick)
    return () => (this.ticks = this.ticks.filter((other) => other !== tick))
  }
  /** Moves time on by `minutes` and runs the idle check, as a minute's tick would. */
  pass(minutes: number): void {
    this.at += minutes * 60_000
    for (const tick of [...this.ticks]) tick()
  }
  private ticks: Array<() => void> = []
}

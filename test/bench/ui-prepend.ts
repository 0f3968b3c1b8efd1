/**
 * Whether the message being read stays put when an older page is put in front of it. Scrolls the
 * message list up in steps, letting it settle after each one (as a reader pausing does), and per
 * step compares where the top-most fully visible message is with where the step alone would have
 * put it. Runs in the page (rects and frames), so Playwright's round trips do not count.
 */
import type { Page } from 'playwright-core'

interface Rect {
  top: number
  bottom: number
}

interface Node {
  textContent: string | null
  scrollTop: number
  clientHeight: number
  getAttribute(name: string): string | null
  dispatchEvent(event: object): void
  getBoundingClientRect(): Rect
  querySelector(selector: string): Node | null
  querySelectorAll(selector: string): ArrayLike<Node>
}

interface Win {
  document: { querySelector(selector: string): Node | null }
  performance: { now(): number }
  requestAnimationFrame(callback: () => void): void
  WheelEvent: new (type: string, init: { deltaY: number; bubbles: boolean }) => object
  MutationObserver: new (callback: () => void) => { observe(target: Node, options: { childList: boolean; subtree: boolean }): void; disconnect(): void }
}

export interface PrependOptions {
  /** Pixels per step up (default 600, most of a window). */
  stepPx?: number
  /** Stop after this many older pages came in (default 10). */
  pages?: number
  timeoutMs?: number
}

export interface PrependFigures {
  steps: number
  /** Steps during which an older page was put in front. */
  pagesLoaded: number
  /** Per such step, how far the message read moved beyond the step (px, absolute). */
  driftsPx: number[]
  driftP50Px: number
  driftMaxPx: number
  /** The same for steps without a page coming in (the list's own measuring as rows show). */
  quietDriftMaxPx: number
  /** Steps after which the message read was gone from the DOM (moved by more than the margin). */
  lost: number
}

/** The scroller is the message list (`.message-scroll`); a page in flight shows a spinner at its top. */
export function measurePrependDrift(page: Page, options: PrependOptions = {}): Promise<PrependFigures> {
  return page.evaluate(
    ({ stepPx, pages, timeoutMs }) =>
      new Promise<PrependFigures>((resolve, reject) => {
        const w = globalThis as unknown as Win
        const scroller = w.document.querySelector('.message-scroll')
        if (!scroller) return reject(new Error('no message list on screen'))
        const started = w.performance.now()
        const frame = (): Promise<void> => new Promise((done) => w.requestAnimationFrame(() => done()))
        // A spinner can come and go between two frames: a mutation observer sees it anyway.
        let spinnerSeen = false
        const observer = new w.MutationObserver(() => {
          if (scroller.querySelector('.message-list-top .spinner')) spinnerSeen = true
        })
        observer.observe(scroller, { childList: true, subtree: true })
        const anchor = (): { id: string; top: number } | null => {
          const edge = scroller.getBoundingClientRect().top
          let best: { id: string; top: number } | null = null
          for (const message of Array.from(scroller.querySelectorAll('[data-message-id]'))) {
            const top = message.getBoundingClientRect().top
            if (top >= edge && (best === null || top < best.top)) best = { id: message.getAttribute('data-message-id')!, top }
          }
          return best
        }
        const topOf = (id: string): number | null => scroller.querySelector(`[data-message-id="${id}"]`)?.getBoundingClientRect().top ?? null
        /** Until no page is in flight and the message read has not moved for a few frames. */
        const settle = async (id: string | null): Promise<void> => {
          let still = 0
          let last: number | null = null
          while (still < 6 && w.performance.now() - started < timeoutMs) {
            await frame()
            const top = id === null ? null : topOf(id)
            const busy = scroller.querySelector('.message-list-top .spinner') !== null
            still = !busy && top === last ? still + 1 : 0
            last = top
          }
        }
        const drifts: number[] = []
        const quiet: number[] = []
        let steps = 0
        let lost = 0
        const run = async (): Promise<void> => {
          await settle(anchor()?.id ?? null)
          while (drifts.length < pages && w.performance.now() - started < timeoutMs) {
            const before = anchor()
            const fromTop = scroller.scrollTop
            spinnerSeen = false
            // As a wheel turn does: the input, then the scroll.
            scroller.dispatchEvent(new w.WheelEvent('wheel', { deltaY: -stepPx, bubbles: true }))
            scroller.scrollTop = Math.max(0, fromTop - stepPx)
            const moved = fromTop - scroller.scrollTop
            await settle(before?.id ?? null)
            if (!before || (moved === 0 && !spinnerSeen)) break
            steps += 1
            const after = topOf(before.id)
            if (after === null) lost += 1
            else (spinnerSeen ? drifts : quiet).push(Math.abs(after - before.top - moved))
          }
        }
        run()
          .then(() => {
            observer.disconnect()
            const sorted = [...drifts].sort((a, b) => a - b)
            const round = (value: number): number => Math.round(value * 10) / 10
            resolve({
              steps,
              pagesLoaded: drifts.length,
              driftsPx: drifts.map(round),
              driftP50Px: round(sorted[Math.max(0, Math.ceil(sorted.length / 2) - 1)] ?? 0),
              driftMaxPx: round(Math.max(0, ...drifts)),
              quietDriftMaxPx: round(Math.max(0, ...quiet)),
              lost
            })
          })
          .catch(reject)
      }),
    { stepPx: options.stepPx ?? 600, pages: options.pages ?? 10, timeoutMs: options.timeoutMs ?? 120_000 }
  )
}

/**
 * Focuses the message list, presses `key` and resolves with the milliseconds from the keydown until
 * a message containing `marker` is on screen; null when it is not within `timeoutMs`.
 */
export async function timeKeyUntilShown(page: Page, key: string, marker: string, timeoutMs = 30_000): Promise<number | null> {
  type KeyWin = Win & { addEventListener(type: string, listener: () => void, capture: boolean): void; innerHeight: number; __benchKeyAt?: number }
  await page.locator('.message-scroll').focus()
  await page.evaluate(() => {
    const w = globalThis as unknown as KeyWin
    w.addEventListener('keydown', () => (w.__benchKeyAt ??= w.performance.now()), true)
  })
  await page.keyboard.press(key)
  const ms = await page.evaluate(
    ({ marker, timeoutMs }) =>
      new Promise<number | null>((resolve) => {
        const w = globalThis as unknown as KeyWin
        const poll = (): void => {
          const started = w.__benchKeyAt ?? 0
          const visible = Array.from(w.document.querySelector('.message-scroll')?.querySelectorAll('[data-message-id]') ?? []).some((message) => {
            if (!message.textContent?.includes(marker)) return false
            const rect = message.getBoundingClientRect()
            return rect.bottom > 0 && rect.top < w.innerHeight
          })
          if (visible) return resolve(w.performance.now() - started)
          if (w.performance.now() - started > timeoutMs) return resolve(null)
          w.requestAnimationFrame(poll)
        }
        poll()
      }),
    { marker, timeoutMs }
  )
  return ms === null ? null : Math.round(ms * 10) / 10
}

/**
 * What the UI benchmark measures inside the page. Timings are taken in the page itself
 * (`performance.now()`, requestAnimationFrame), so Playwright's round trips do not count.
 * The node tsconfig has no DOM library: the callbacks cast `globalThis` to the few globals they use.
 */
import type { Page } from 'playwright-core'

interface El {
  textContent: string | null
  scrollTop: number
  scrollHeight: number
  clientHeight: number
  parentElement: El | null
  click(): void
  dispatchEvent(event: object): void
  querySelectorAll(selector: string): ArrayLike<El>
  getBoundingClientRect(): { top: number; bottom: number; height: number }
}

interface Win {
  document: { querySelector(selector: string): El | null; querySelectorAll(selector: string): ArrayLike<El>; getElementsByTagName(name: string): { length: number } }
  innerHeight: number
  performance: { now(): number }
  requestAnimationFrame(callback: (at: number) => void): void
  WheelEvent: new (type: string, init: { deltaY: number; bubbles: boolean }) => object
  getComputedStyle(element: El): { overflowY: string }
  PerformanceObserver: new (callback: (list: { getEntries(): Array<{ duration: number }> }) => void) => { observe(options: { type: string; buffered?: boolean }): void; disconnect(): void }
  addEventListener(type: string, listener: (event: { timeStamp: number }) => void, capture?: boolean): void
  setTimeout(callback: () => void, ms: number): void
  __benchFrames?: { deltas: number[]; longTasks: number[]; stop: boolean }
  __benchKeys?: number[]
}

export const SIDEBAR = 'nav[aria-label="Conversations"]'

/**
 * Clicks the sidebar entry whose text contains `title` and resolves with the milliseconds until a
 * message containing `marker` is on screen (inside the window's height).
 */
export async function timeOpen(page: Page, title: string, marker: string): Promise<number> {
  await page.locator(SIDEBAR).getByRole('button', { name: title }).first().waitFor()
  return page.evaluate(
    ({ title, marker, sidebar }) =>
      new Promise<number>((resolve, reject) => {
        const w = globalThis as unknown as Win
        const entry = Array.from(w.document.querySelectorAll(`${sidebar} button`)).find((button) => button.textContent?.includes(title))
        if (!entry) return reject(new Error(`no sidebar entry "${title}"`))
        const started = w.performance.now()
        entry.click()
        const poll = (): void => {
          const shown = Array.from(w.document.querySelectorAll('.message')).some((message) => {
            if (!message.textContent?.includes(marker)) return false
            const rect = message.getBoundingClientRect()
            return rect.height > 0 && rect.top < w.innerHeight && rect.bottom > 0
          })
          if (shown) resolve(w.performance.now() - started)
          else if (w.performance.now() - started > 120_000) reject(new Error(`"${marker}" not shown after 120 s`))
          else w.requestAnimationFrame(poll)
        }
        w.requestAnimationFrame(poll)
      }),
    { title, marker, sidebar: SIDEBAR }
  )
}

/** Every element in the page, and those inside `selector` (when given). */
export function domNodes(page: Page, selector?: string): Promise<{ total: number; inside: number | null }> {
  return page.evaluate((selector) => {
    const w = globalThis as unknown as Win
    const root = selector ? w.document.querySelector(selector) : null
    return { total: w.document.getElementsByTagName('*').length, inside: root ? root.querySelectorAll('*').length : null }
  }, selector ?? null)
}

/** JS heap in use after a forced garbage collection (CDP), in MB. */
export async function heapMB(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('Performance.enable')
  const { metrics } = await cdp.send('Performance.getMetrics')
  await cdp.detach()
  const used = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0
  return Math.round((used / 1024 / 1024) * 10) / 10
}

export interface ScrollOptions {
  /** What the rows are (default: messages, `.message`); the scroller is the first one's scrolling ancestor. */
  rows?: string
  /**
   * false (default): jump to the very top or bottom every frame, as a wheel flung to the end does
   * (pages load on the way), for the first or last row. true: move by half a window per frame, so
   * every row passes through the window on the way, for a row in the middle. Each move is announced by
   * a wheel event of its distance first, as real scrolling is (the list tells the user's scrolling
   * from its own shifts by it).
   */
  stepwise?: boolean
  timeoutMs?: number
}

/**
 * Scrolls up or down until a row containing `marker` is on screen; resolves with the milliseconds it took.
 */
export function timeScrollUntilShown(page: Page, marker: string, direction: 'up' | 'down', options: ScrollOptions = {}): Promise<number> {
  return page.evaluate(
    ({ marker, direction, rows, stepwise, timeoutMs }) =>
      new Promise<number>((resolve, reject) => {
        const w = globalThis as unknown as Win
        const started = w.performance.now()
        const scroller = (): El | null => {
          for (let node = w.document.querySelector(rows)?.parentElement ?? null; node; node = node.parentElement) {
            const overflow = w.getComputedStyle(node).overflowY
            if ((overflow === 'auto' || overflow === 'scroll') && node.scrollHeight > node.clientHeight) return node
          }
          return null
        }
        const step = (): void => {
          const shown = Array.from(w.document.querySelectorAll(rows)).some((row) => {
            if (!row.textContent?.includes(marker)) return false
            const rect = row.getBoundingClientRect()
            return rect.height > 0 && rect.top < w.innerHeight && rect.bottom > 0
          })
          if (shown) return resolve(w.performance.now() - started)
          if (w.performance.now() - started > timeoutMs) return reject(new Error(`"${marker}" not reached after ${timeoutMs} ms of scrolling ${direction}`))
          const element = scroller()
          if (element) {
            const to = stepwise ? element.scrollTop + (direction === 'up' ? -0.5 : 0.5) * element.clientHeight : direction === 'up' ? 0 : element.scrollHeight
            // As a wheel turn does: the input, then the scroll.
            element.dispatchEvent(new w.WheelEvent('wheel', { deltaY: to - element.scrollTop, bubbles: true }))
            element.scrollTop = to
          }
          w.requestAnimationFrame(step)
        }
        step()
      }),
    { marker, direction, rows: options.rows ?? '.message', stepwise: options.stepwise ?? false, timeoutMs: options.timeoutMs ?? 120_000 }
  )
}

/** Starts recording frame times (requestAnimationFrame deltas) and long tasks. */
export function startFrameRecorder(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = globalThis as unknown as Win
    const record = { deltas: [] as number[], longTasks: [] as number[], stop: false }
    w.__benchFrames = record
    const observer = new w.PerformanceObserver((list) => {
      for (const entry of list.getEntries()) record.longTasks.push(entry.duration)
    })
    observer.observe({ type: 'longtask' })
    let last = w.performance.now()
    const frame = (at: number): void => {
      record.deltas.push(at - last)
      last = at
      if (record.stop) observer.disconnect()
      else w.requestAnimationFrame(frame)
    }
    w.requestAnimationFrame(frame)
  })
}

export interface FrameFigures {
  frames: number
  frameP50Ms: number
  frameP95Ms: number
  frameMaxMs: number
  longTasks: number
  longTaskTotalMs: number
}

export async function stopFrameRecorder(page: Page): Promise<FrameFigures> {
  const { deltas, longTasks } = await page.evaluate(() => {
    const w = globalThis as unknown as Win
    const record = w.__benchFrames!
    record.stop = true
    return { deltas: record.deltas.slice(1), longTasks: record.longTasks }
  })
  return {
    frames: deltas.length,
    frameP50Ms: round(percentile(deltas, 50)),
    frameP95Ms: round(percentile(deltas, 95)),
    frameMaxMs: round(Math.max(0, ...deltas)),
    longTasks: longTasks.length,
    longTaskTotalMs: round(longTasks.reduce((sum, duration) => sum + duration, 0))
  }
}

export interface TypingFigures {
  /** Wall time to type all the characters (each key waits for the page). */
  totalMs: number
  keyP50Ms: number
  keyP95Ms: number
}

/**
 * Types `text` into the composer; per key, the time from the keydown event to the frame after it
 * (requestAnimationFrame, then a task: the frame that shows the character has been produced).
 */
export async function timeTyping(page: Page, text: string): Promise<TypingFigures> {
  const box = page.getByRole('textbox', { name: 'Message', exact: true })
  await box.click()
  await box.fill('')
  await page.evaluate(() => {
    const w = globalThis as unknown as Win
    // One listener per page; each call starts a fresh list.
    if (!w.__benchKeys) {
      w.addEventListener(
        'keydown',
        (event) => {
          const down = event.timeStamp
          w.requestAnimationFrame(() => w.setTimeout(() => w.__benchKeys!.push(w.performance.now() - down), 0))
        },
        true
      )
    }
    w.__benchKeys = []
  })
  const started = Date.now()
  await page.keyboard.type(text)
  const totalMs = Date.now() - started
  const latencies = await page.waitForFunction((count) => {
    const keys = (globalThis as unknown as Win).__benchKeys!
    return keys.length >= count ? keys : false
  }, text.length)
  const keys = (await latencies.jsonValue()) as number[]
  await box.fill('')
  return { totalMs, keyP50Ms: round(percentile(keys, 50)), keyP95Ms: round(percentile(keys, 95)) }
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

export function median(values: number[]): number {
  return percentile(values, 50)
}

export function round(value: number): number {
  return Math.round(value * 10) / 10
}

import { existsSync, readFileSync } from 'node:fs'
import type { Locator, Page } from 'playwright-core'
import type { RecordedChatRequest } from '../scripted-provider'
import type { PageDom, PageElement } from './page-dom'

type Message = RecordedChatRequest['body']['messages'][number]

/** The message a chat request ends with (a new user turn, or a tool result within a turn). */
export function lastMessage(request: RecordedChatRequest): Message {
  return request.body.messages[request.body.messages.length - 1]
}

/** Text of the last user message in the request. */
export function lastUserText(request: RecordedChatRequest): string {
  const user = [...request.body.messages].reverse().find((message) => message.role === 'user')
  // What the user typed, without the skill hint Cairn appends when a skill fits the message.
  return typeof user?.content === 'string' ? user.content.replace(/\n*\[Cairn: skills that may help[^\]]*\]\s*$/, '') : ''
}

/** The parsed JSON of the tool result the request ends with, or null when it ends otherwise. */
export function endingToolResult(request: RecordedChatRequest): Record<string, unknown> | null {
  const last = lastMessage(request)
  if (last.role !== 'tool' || typeof last.content !== 'string') return null
  try {
    return JSON.parse(last.content) as Record<string, unknown>
  } catch {
    return { raw: last.content }
  }
}

/** How many assistant messages the request carries (a review's step counter). */
export function assistantCount(request: RecordedChatRequest): number {
  return request.body.messages.filter((message) => message.role === 'assistant').length
}

/** The composer's text box ("Message"). */
export function composer(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Message', exact: true })
}

/** Types a message and sends it with Enter, as a user would. */
export async function send(page: Page, text: string): Promise<void> {
  const box = composer(page)
  await box.fill(text)
  await box.press('Enter')
}

/** The answer currently streaming in (the live row is marked aria-busy). */
export function streamingAnswer(page: Page): Locator {
  return page.locator('.message.assistant[aria-busy="true"]')
}

/** Finished answers (not the live one). */
export function answers(page: Page): Locator {
  return page.locator('.message.assistant:not([aria-busy="true"])')
}

/**
 * Waits until the live answer shows `partial`, and returns exactly what it showed at that moment
 * (read in the page in one step, so later chunks cannot slip in between).
 */
export async function streamedSoFar(page: Page, partial: string, timeout = 15_000): Promise<string> {
  const handle = await page.waitForFunction(
    (wanted) => {
      const { document } = globalThis as unknown as PageDom
      const live = document.querySelector('.message.assistant[aria-busy="true"]')
      const text = live?.textContent ?? ''
      return text.includes(wanted) ? text : false
    },
    partial,
    { timeout, polling: 'raf' }
  )
  return (await handle.jsonValue()) as string
}

/** Polls until `read()` returns something `accept` likes; returns it. For effects outside the page. */
export async function eventually<T>(read: () => T, accept: (value: T) => boolean, what: string, timeout = 15_000): Promise<T> {
  const started = Date.now()
  for (;;) {
    const value = read()
    if (accept(value)) return value
    if (Date.now() - started > timeout) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(value)}`)
    await new Promise((wake) => setTimeout(wake, 50))
  }
}

/** A file's text, or null while it does not exist. */
export function fileText(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null
}

/**
 * Elements that stick out past the right edge of the window and are not inside a horizontal
 * scroller: what a user sees cut off (or as a page-wide horizontal scrollbar).
 */
export async function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as PageDom
    const width = document.documentElement.clientWidth
    const scrollsSideways = (element: PageElement): boolean => {
      for (let node = element.parentElement; node; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowX
        if (overflow === 'auto' || overflow === 'scroll') return true
      }
      return false
    }
    const found: string[] = []
    if (document.documentElement.scrollWidth > width + 1) found.push(`page is ${document.documentElement.scrollWidth}px wide in a ${width}px window`)
    for (const element of document.querySelectorAll('body *')) {
      const rect = element.getBoundingClientRect()
      if (rect.width === 0 || rect.height === 0 || rect.right <= width + 1) continue
      if (scrollsSideways(element)) continue
      found.push(`${element.tagName.toLowerCase()}.${[...element.classList].join('.')} right edge ${Math.round(rect.right)}px`)
    }
    return found
  })
}

/**
 * Emoji that `locator` paints (its own text shown in a box larger than 1×1 px). Without an emoji font
 * each one is an empty box; text kept only for screen readers is not painted and does not count.
 */
export async function paintedEmoji(locator: Locator): Promise<string[]> {
  return locator.evaluate((node) => {
    const root = node as unknown as PageElement
    const found: string[] = []
    for (const element of [root, ...root.querySelectorAll('*')]) {
      const own = [...element.childNodes].filter((child) => child.nodeType === 3).map((child) => child.textContent ?? '').join('')
      const glyphs = own.match(/\p{Extended_Pictographic}/gu)
      const rect = element.getBoundingClientRect()
      if (glyphs && rect.width > 1 && rect.height > 1) found.push(...glyphs)
    }
    return found
  })
}

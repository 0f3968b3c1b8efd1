import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { answerMarker, manyTitle, questionText, seedLongConversation, seedManyConversations } from '../bench/seed-history'
import { SIDEBAR, timeScrollUntilShown } from '../bench/ui-measure'
import { measurePrependDrift, timeKeyUntilShown } from '../bench/ui-prepend'
import { startE2E, type E2E } from './fixture'
import { lastUserText } from './helpers'
import type { PageDom } from './page-dom'

/** Long enough to need many pages, small enough to seed and open in seconds (the bench does 3,000). */
const TURNS = 1500
const CONVERSATIONS = 10_000
const LONG = 'Weeks of server notes'
/** A question deep in the history says something no other message says. */
const NEEDLE_TURN = 300
const NEEDLE = 'The spare key is under the periwinkle flowerpot.'

let fresh = 0
function respond(request: RecordedChatRequest): ScriptedReply {
  fresh += 1
  return { text: `Fresh answer ${fresh} to: ${lastUserText(request).slice(0, 40)}` }
}

let e2e: E2E
let page: Page
let questionIds: number[] = []

beforeAll(async () => {
  e2e = await startE2E({
    server: { respond },
    // The whole history goes to the model: no compression call, and no reviews, take scripted replies.
    config: { context: { windowTokens: 100_000_000 }, learning: { mode: 'off' } },
    seed: (core) => {
      seedManyConversations(core, { count: CONVERSATIONS })
      questionIds = seedLongConversation(core, { turns: TURNS, title: LONG, remarks: { [NEEDLE_TURN]: NEEDLE } }).questionIds
    }
  })
  page = e2e.page
  await page.goto(e2e.url)
  await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor()
})

afterAll(async () => {
  await e2e?.close()
})

const sidebar = () => page.getByRole('navigation', { name: 'Conversations' })

/** The message containing `text` is inside the window (not merely in the DOM). */
async function onScreen(text: string): Promise<boolean> {
  return page.evaluate((wanted) => {
    const { document, innerHeight: height } = globalThis as unknown as PageDom & { innerHeight: number }
    return [...document.querySelectorAll('.message')].some((message) => {
      if (!message.textContent?.includes(wanted)) return false
      const rect = message.getBoundingClientRect()
      return rect.height > 0 && rect.top < height && rect.top + rect.height > 0
    })
  }, text)
}

function elementCount(): Promise<number> {
  return page.evaluate(() => [...(globalThis as unknown as PageDom).document.querySelectorAll('*')].length)
}

async function openLong(): Promise<void> {
  await sidebar().getByRole('button', { name: new RegExp(LONG) }).click()
  await page.getByRole('heading', { level: 1, name: LONG }).waitFor()
  await expect.poll(() => onScreen(answerMarker(TURNS))).toBe(true)
}

describe('a conversation of 1,500 turns and a sidebar of 10,000 conversations', () => {
  it('opens the long conversation at its last answer with a bounded page, scrolls to its first question and back', async () => {
    await openLong()
    expect(await elementCount()).toBeLessThan(5000)
    await timeScrollUntilShown(page, questionText(1), 'up', { timeoutMs: 40_000 })
    expect(await elementCount()).toBeLessThan(5000)
    await timeScrollUntilShown(page, answerMarker(TURNS), 'down', { timeoutMs: 40_000 })
    expect(await onScreen(answerMarker(TURNS))).toBe(true)
  })

  // Timing-sensitive on a loaded 2-core machine (a page can land after the step settled): retried, tracked in the closing note of issue 28.
  it('puts older pages in front without moving the message being read, and goes to the first message with Home', { retry: 2 }, async () => {
    await sidebar().getByRole('button', { name: new RegExp(manyTitle(1)) }).click()
    await openLong()
    // Scrolling up a window at a time, settling after each step, until three older pages came in.
    const prepend = await measurePrependDrift(page, { pages: 3, timeoutMs: 60_000 })
    expect(prepend.pagesLoaded).toBe(3)
    expect(prepend.lost).toBe(0)
    expect(prepend.driftMaxPx).toBeLessThan(4)
    expect(prepend.quietDriftMaxPx).toBeLessThan(4)
    expect(await timeKeyUntilShown(page, 'Home', questionText(1), 20_000)).not.toBeNull()
    expect(await elementCount()).toBeLessThan(5000)
    await timeScrollUntilShown(page, questionText(60), 'down', { stepwise: true, timeoutMs: 20_000 })
  })

  it('jumps to a search hit deep in the conversation, flashes it, and loads older and newer messages around it', async () => {
    await page.getByRole('combobox', { name: 'Search conversations' }).fill('periwinkle flowerpot')
    const hits = page.getByRole('listbox', { name: 'Search results' }).getByRole('option')
    await expect.poll(() => hits.count()).toBe(1)
    await hits.first().click()
    const hit = page.locator(`[data-message-id="${questionIds[NEEDLE_TURN - 1]}"]`)
    await hit.and(page.locator('.flash')).waitFor()
    expect(await hit.innerText()).toContain(NEEDLE)
    expect(await onScreen(NEEDLE)).toBe(true)
    expect(await elementCount()).toBeLessThan(5000)
    await e2e.screenshot('long-history-search-hit')
    await timeScrollUntilShown(page, questionText(NEEDLE_TURN - 60), 'up', { stepwise: true, timeoutMs: 20_000 })
    await timeScrollUntilShown(page, questionText(NEEDLE_TURN + 60), 'down', { stepwise: true, timeoutMs: 20_000 })
    await timeScrollUntilShown(page, answerMarker(TURNS), 'down', { timeoutMs: 40_000 })
  })

  it('answers the last question of the long conversation again, keeping both versions and the history before them', async () => {
    await sidebar().getByRole('button', { name: new RegExp(manyTitle(1)) }).click()
    await openLong()
    await page.getByRole('button', { name: 'Answer again' }).click()
    await page.getByRole('group', { name: 'Version 2 of 2' }).waitFor()
    await expect.poll(() => onScreen('Fresh answer'), { timeout: 15_000 }).toBe(true)
    const request = e2e.server.chatRequests().at(-1)!
    expect(lastUserText(request)).toBe(questionText(TURNS))
    expect(request.body.messages.filter((message) => message.role === 'user')).toHaveLength(TURNS)
    await page.getByRole('group', { name: 'Version 2 of 2' }).getByRole('button', { name: 'Previous version' }).click()
    await page.getByRole('group', { name: 'Version 1 of 2' }).waitFor()
    await expect.poll(() => onScreen(answerMarker(TURNS))).toBe(true)
    await timeScrollUntilShown(page, questionText(TURNS - 80), 'up', { stepwise: true, timeoutMs: 20_000 })
    expect(await elementCount()).toBeLessThan(5000)
  })

  it('scrolls the sidebar to the oldest of 10,000 conversations with a bounded page', async () => {
    await timeScrollUntilShown(page, manyTitle(CONVERSATIONS), 'down', { rows: `${SIDEBAR} button`, timeoutMs: 40_000 })
    expect(await elementCount()).toBeLessThan(5000)
    await e2e.screenshot('long-history-sidebar-end')
  })
})

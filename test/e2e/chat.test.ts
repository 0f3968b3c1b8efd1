import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { startE2E, type E2E } from './fixture'
import type { PageDom } from './page-dom'
import { answers, composer, endingToolResult, fileText, lastUserText, send, streamedSoFar, streamingAnswer } from './helpers'

/** The markdown answer, streamed in pieces slow enough to watch. */
const MARKDOWN_CHUNKS = [
  'Here is ',
  'a short answer ',
  'with code.\n\n',
  '```js\nconst answer = 42\n```\n\n',
  '- first item\n',
  '- second item\n\n',
  'Raw HTML stays text: <img src=x onerror="window.__pwned=1"> and <b>not bold</b>.'
]

const QUICK_CHUNKS = ['Paris ', 'is the ', 'capital ', 'of France.']

/** The chatting model: one scripted answer per kind of request (reviews, if any, save nothing). */
function respond(request: RecordedChatRequest): ScriptedReply {
  if (isReviewRequest(request)) return { text: 'Nothing to save.' }
  const tool = endingToolResult(request)
  if (tool) return tool.denied ? { text: 'Understood: I left notes.txt alone.' } : { text: 'Done: notes.txt is written.' }
  const user = lastUserText(request)
  if (user.includes('markdown demo')) return { chunks: MARKDOWN_CHUNKS, chunkDelayMs: 250 }
  if (user.includes('create a notes file')) {
    return { text: 'I will write it.', toolCalls: [{ name: 'run_command', arguments: { command: 'echo approved > notes.txt && echo wrote notes.txt' } }] }
  }
  if (user.includes('delete the notes file')) return { toolCalls: [{ name: 'run_command', arguments: { command: 'rm notes.txt' } }] }
  if (user.includes('nginx')) return { text: 'Use logrotate: a weekly stanza for /var/log/nginx/*.log with rotate 8, compress and a postrotate reload.' }
  if (user.includes('sourdough')) return { text: 'Feed the starter on Friday night, mix the dough Saturday morning and bake in the evening.' }
  if (user.includes('capital of France')) return { chunks: QUICK_CHUNKS, chunkDelayMs: 300 }
  return { text: `(scripted) no answer planned for: ${user}` }
}

let e2e: E2E
let page: Page

beforeAll(async () => {
  e2e = await startE2E({ server: { respond } })
  page = e2e.page
  await page.goto(e2e.url)
  await composer(page).waitFor()
})

afterAll(async () => {
  await e2e?.close()
})

describe('chat in browser mode', () => {
  it('streams the answer, then renders its markdown, and shows raw HTML as text', async () => {
    await e2e.screenshot('chat-empty')
    await send(page, 'Show me the markdown demo')
    await expect.poll(() => page.getByText('Show me the markdown demo').count()).toBeGreaterThan(0)

    // Partway through, the live answer shows the first pieces and not yet the last ones.
    const partial = await streamedSoFar(page, 'Here is a short answer')
    expect(partial).not.toContain('second item')
    expect(partial).not.toContain('Raw HTML stays text')
    await e2e.screenshot('chat-streaming')

    const answer = answers(page).last()
    await answer.getByText('Raw HTML stays text', { exact: false }).waitFor()
    expect(await streamingAnswer(page).count()).toBe(0)
    expect(await answer.locator('pre').innerText()).toContain('const answer = 42')
    expect(await answer.getByRole('listitem').allInnerTexts()).toEqual(['first item', 'second item'])
    // The model's HTML is on screen as typed, and no element came from it.
    await answer.getByText('<img src=x onerror="window.__pwned=1"> and <b>not bold</b>', { exact: false }).waitFor()
    expect(await answer.locator('img').count()).toBe(0)
    expect(await answer.locator('b').count()).toBe(0)
    expect(await page.evaluate(() => (globalThis as unknown as PageDom).__pwned)).toBeUndefined()
    // The conversation is listed in the sidebar under its first message.
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: /Show me the markdown demo/ }).waitFor()
    await e2e.screenshot('chat-answer')
    // The theme follows the system by default.
    await page.emulateMedia({ colorScheme: 'dark' })
    await e2e.screenshot('chat-answer-dark')
    await page.emulateMedia({ colorScheme: 'light' })
  })

  it('asks before running a command: Allow once runs it, Deny runs nothing', async () => {
    await page.getByRole('button', { name: 'New chat' }).click()
    await send(page, 'Please create a notes file in the workspace')
    const card = page.getByRole('region', { name: 'Permission needed' })
    await card.waitFor()
    expect(await card.innerText()).toContain('echo approved > notes.txt && echo wrote notes.txt')
    expect(fileText(join(e2e.workspace, 'notes.txt'))).toBeNull()
    await e2e.screenshot('chat-approval')
    await page.emulateMedia({ colorScheme: 'dark' })
    await e2e.screenshot('chat-approval-dark')
    await page.emulateMedia({ colorScheme: 'light' })

    await card.getByRole('button', { name: 'Allow once' }).click()
    await page.getByText('Done: notes.txt is written.').waitFor()
    expect(await card.count()).toBe(0)
    expect(fileText(join(e2e.workspace, 'notes.txt'))).toBe('approved\n')
    // A command that ran opens as a terminal block: its output, never the raw result JSON.
    const ran = page.getByRole('button', { name: /Ran a command.*echo approved/ })
    if ((await ran.getAttribute('aria-expanded')) !== 'true') await ran.click()
    const ranBody = page.locator(`[id="${await ran.getAttribute('aria-controls')}"]`)
    expect(await ranBody.innerText()).toContain('wrote notes.txt')
    expect(await ranBody.innerText()).not.toContain('"exit_code"')

    await send(page, 'Now delete the notes file')
    await card.waitFor()
    expect(await card.innerText()).toContain('rm notes.txt')
    await card.getByRole('button', { name: 'Deny' }).click()
    await page.getByText('Understood: I left notes.txt alone.').waitFor()
    // Nothing ran: the file is still there, and the call reads as declined, with the reason.
    expect(fileText(join(e2e.workspace, 'notes.txt'))).toBe('approved\n')
    const denied = page.getByRole('button', { name: /command.*rm notes\.txt/i })
    expect(await denied.innerText()).toContain('Declined')
    await denied.click()
    const deniedBody = page.locator(`[id="${await denied.getAttribute('aria-controls')}"]`)
    expect(await deniedBody.innerText()).toContain('The user declined')
    await page.getByText('Understood: I left notes.txt alone.').scrollIntoViewIfNeeded()
    await e2e.screenshot('chat-denied')
  })

  it('finds a past conversation from a question typed in the sidebar search, and opens it', async () => {
    for (const text of ['How should I rotate the nginx access logs every week?', 'Suggest a sourdough baking schedule for Saturday']) {
      await page.getByRole('button', { name: 'New chat' }).click()
      await send(page, text)
      await answers(page).last().waitFor()
    }
    await page.getByRole('button', { name: 'New chat' }).click()

    await page.getByRole('combobox', { name: 'Search conversations' }).fill('when did we talk about rotating nginx logs')
    const results = page.getByRole('listbox', { name: 'Search results' })
    await results.waitFor()
    const hits = results.getByRole('option')
    await expect.poll(() => hits.count()).toBe(1)
    const hit = hits.first()
    expect(await hit.innerText()).toContain('How should I rotate the nginx access logs every week?')
    const marked = (await hit.locator('mark').allInnerTexts()).map((text) => text.toLowerCase())
    expect(marked).toEqual(expect.arrayContaining(['nginx']))
    expect(marked.some((text) => text.startsWith('rotat'))).toBe(true)
    await e2e.screenshot('search-results')

    await hit.click()
    await page.getByRole('heading', { level: 1, name: 'How should I rotate the nginx access logs every week?' }).waitFor()
    await page.getByText('Use logrotate: a weekly stanza', { exact: false }).waitFor()
    expect(await page.getByText('Feed the starter', { exact: false }).count()).toBe(0)
    // Opening a hit clears the search: the conversation list is back.
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor()
  })

  it('answers from the quick prompt page and opens the conversation in the main page', async () => {
    const quick = await e2e.newPage({ viewport: { width: 720, height: 480 } })
    await quick.goto(e2e.quickUrl)
    await send(quick, 'Quick question: what is the capital of France?')
    const partial = await streamedSoFar(quick, 'Paris is the')
    expect(partial).not.toContain('of France.')
    await answers(quick).getByText('Paris is the capital of France.').waitFor()
    await e2e.screenshot('quick-answer', quick)

    // The main page hears about the new conversation at once.
    const list = page.getByRole('navigation', { name: 'Conversations' })
    await list.getByRole('button', { name: /Quick question: what is the capital of France\?/ }).waitFor()

    // Browser mode has no second window to raise: "Open in Cairn" opens the main page on this conversation.
    const [opened] = await Promise.all([quick.context().waitForEvent('page'), quick.getByRole('button', { name: 'Open in Cairn' }).click()])
    await opened.getByRole('heading', { level: 1, name: 'Quick question: what is the capital of France?' }).waitFor()
    await opened.getByText('Paris is the capital of France.').waitFor()
    // The session is taken out of the address (a reload does not force it again); the screen is a history entry.
    expect(new URL(opened.url()).hash).toMatch(/^#\/chat\?token=[^&]+$/)
    // The quick prompt has no screens to go Back to: its address has no route.
    expect(new URL(quick.url()).hash).toMatch(/^#token=/)
    await e2e.screenshot('quick-opened-in-main', opened)
    await opened.close()
    await quick.close()
    expect(e2e.pageErrors).toEqual([])
  })
})

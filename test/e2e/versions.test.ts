import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { TITLE_PROMPT_START } from '../../electron/core/agent/conversation-title'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { startE2E, type E2E } from './fixture'
import { answers, composer, lastUserText, send } from './helpers'

let answered = 0

/** Titles, reviews and answers told apart by what the request holds; each answer numbered so versions differ. */
function respond(request: RecordedChatRequest): ScriptedReply {
  if (isReviewRequest(request)) return { text: 'Nothing to save.' }
  const system = request.body.messages[0]
  if (typeof system?.content === 'string' && system.content.startsWith(TITLE_PROMPT_START)) {
    return { text: lastUserText(request).includes('sourdough') ? 'Sourdough weekend plan' : 'Garden watering' }
  }
  answered += 1
  const user = lastUserText(request)
  if (user.includes('rye')) return { text: `Rye needs a wetter dough (answer ${answered}).` }
  if (user.includes('sourdough')) return { text: `Feed the starter on Friday night (answer ${answered}).` }
  return { text: `Water the tomatoes at dawn (answer ${answered}).` }
}

let e2e: E2E
let page: Page
const sidebar = () => page.getByRole('navigation', { name: 'Conversations' })
const conversationTitles = async () =>
  (await sidebar().getByRole('button').allInnerTexts()).map((text) => text.split('\n')[0]).filter((text) => /Garden|Sourdough|Herbs/.test(text))

beforeAll(async () => {
  e2e = await startE2E({ server: { respond }, config: { agent: { autoTitle: true } } })
  page = e2e.page
  await page.goto(e2e.url)
  await composer(page).waitFor()
})

afterAll(async () => {
  await e2e?.close()
})

describe('conversations with titles and versions', () => {
  it('titles a new conversation from its first exchange', async () => {
    await send(page, 'when should I water the garden?')
    await answers(page).last().getByText('Water the tomatoes at dawn', { exact: false }).waitFor()
    await sidebar().getByRole('button', { name: /Garden watering/ }).waitFor()
    await page.getByRole('heading', { name: 'Garden watering' }).waitFor()
  })

  it('renames without moving the conversation in the list', async () => {
    await page.getByRole('button', { name: /New chat/ }).first().click()
    await send(page, 'plan my sourdough weekend')
    await sidebar().getByRole('button', { name: /Sourdough weekend plan/ }).waitFor()
    expect(await conversationTitles()).toEqual(['Sourdough weekend plan', 'Garden watering'])
    await sidebar().getByRole('button', { name: /Garden watering/ }).click()
    await page.getByRole('button', { name: 'Rename' }).click()
    const input = page.getByRole('textbox', { name: 'Conversation title' })
    await input.fill('Herbs and tomatoes')
    await input.press('Enter')
    await sidebar().getByRole('button', { name: /Herbs and tomatoes/ }).waitFor()
    expect(await conversationTitles()).toEqual(['Sourdough weekend plan', 'Herbs and tomatoes'])
  })

  it('answers again and keeps both answers as versions ‹ 1/2 ›', async () => {
    await sidebar().getByRole('button', { name: /Sourdough weekend plan/ }).click()
    const first = await answers(page).last().innerText()
    await page.getByRole('button', { name: 'Answer again' }).click()
    const versions = page.getByRole('group', { name: 'Version 2 of 2' })
    await versions.waitFor()
    const second = await answers(page).last().innerText()
    expect(second).not.toBe(first)
    await versions.getByRole('button', { name: 'Previous version' }).click()
    await page.getByRole('group', { name: 'Version 1 of 2' }).waitFor()
    expect(await answers(page).last().innerText()).toContain(first.split('\n')[0])
    await e2e.screenshot('versions-answer')
  })

  it('edits a sent message and resends it; the old turn stays as another version', async () => {
    const question = page.locator('.message.user').first()
    await question.hover()
    await question.getByRole('button', { name: 'Edit message' }).click()
    const editor = page.getByRole('textbox', { name: 'Edit your message' })
    await editor.fill('plan my rye bread weekend')
    await editor.press('Enter')
    await answers(page).last().getByText('Rye needs a wetter dough', { exact: false }).waitFor()
    expect(await page.locator('.message.user').allInnerTexts()).toEqual([expect.stringContaining('plan my rye bread weekend')])
    const versions = page.getByRole('group', { name: 'Version 2 of 2' })
    await versions.getByRole('button', { name: 'Previous version' }).click()
    await page.getByText('plan my sourdough weekend').waitFor()
    // The answer shown with the older question is the one chosen for it before.
    await page.getByRole('group', { name: 'Version 1 of 2' }).first().waitFor()
    await e2e.screenshot('versions-edit')
  })

  it('edits the last message with ↑ in an empty composer', async () => {
    await composer(page).click()
    await composer(page).press('ArrowUp')
    const editor = page.getByRole('textbox', { name: 'Edit your message' })
    await editor.waitFor()
    expect(await editor.inputValue()).toBe('plan my sourdough weekend')
    await editor.press('Escape')
    expect(await editor.count()).toBe(0)
  })

  it('exports a conversation as Markdown and as JSON from its menu', async () => {
    const exported = async (item: string) => {
      // Right-click opens the row's menu, as in a desktop app.
      await sidebar().getByRole('button', { name: /Herbs and tomatoes/ }).click({ button: 'right' })
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: item }).click()])
      const path = await download.path()
      return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') }
    }
    const markdown = await exported('Export as Markdown…')
    expect(markdown.name).toMatch(/\.md$/)
    expect(markdown.text).toContain('Herbs and tomatoes')
    expect(markdown.text).toContain('when should I water the garden?')
    expect(markdown.text).toContain('Water the tomatoes at dawn')
    const json = await exported('Export as JSON…')
    expect(json.name).toMatch(/\.json$/)
    const parsed = JSON.parse(json.text) as { messages: Array<{ role: string; content: string }> }
    expect(parsed.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { startE2E, type E2E } from './fixture'
import { answers, composer, lastUserText, send } from './helpers'

function respond(request: RecordedChatRequest): ScriptedReply {
  if (isReviewRequest(request)) return { text: 'Nothing to save.' }
  return { text: `Answered: ${lastUserText(request)}` }
}

let e2e: E2E
let page: Page

/** The conversation requests (not reviews) whose last user message says `text`. */
const chatRequestsFor = (text: string) => e2e.server.chatRequests().filter((r) => !isReviewRequest(r) && lastUserText(r).includes(text))
const systemPrompt = (request: RecordedChatRequest) => String(request.body.messages[0].content)
const modelButton = () => page.getByTestId('model-button')

async function ask(text: string): Promise<RecordedChatRequest> {
  await send(page, text)
  await page.getByText(`Answered: ${text}`).waitFor()
  const [request] = chatRequestsFor(text)
  return request
}

beforeAll(async () => {
  e2e = await startE2E({ server: { respond, models: ['gpt-big', 'scripted'] }, config: { agent: { instructions: 'Always answer in plain words.' } } })
  page = e2e.page
  await page.goto(e2e.url)
  await composer(page).waitFor()
})

afterAll(async () => {
  await e2e?.close()
})

describe('models and instructions in browser mode', () => {
  it('switches one conversation\'s model from the header, kept across a reload, while a new one keeps the default', async () => {
    const first = await ask('first question')
    expect(first.body.model).toBe('scripted')
    expect(systemPrompt(first)).toContain('Always answer in plain words.')
    await expect.poll(() => modelButton().textContent()).toContain('scripted')

    // Keyboard only: focus the switcher, open it, arrow down to the listed model, Enter.
    await modelButton().focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Model for this conversation' })
    await dialog.getByRole('button', { name: 'gpt-big' }).waitFor()
    await e2e.screenshot('models-picker')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => modelButton().textContent()).toContain('gpt-big')

    const second = await ask('second question')
    expect(second.body.model).toBe('gpt-big')
    // The frozen prompt did not change with the model: the provider's prefix cache keeps hitting.
    expect(systemPrompt(second)).toBe(systemPrompt(first))

    await page.reload()
    await composer(page).waitFor()
    await expect.poll(() => modelButton().textContent()).toContain('gpt-big')
    await expect.poll(() => page.getByTestId('token-count').textContent()).toMatch(/tokens/)
    await e2e.screenshot('models-header')

    await page.getByRole('button', { name: 'New chat' }).click()
    await expect.poll(() => modelButton().textContent()).toContain('scripted')
    const other = await ask('another conversation')
    expect(other.body.model).toBe('scripted')
  })

  it('puts a conversation\'s own instructions in its restarted prompt', async () => {
    await page.getByRole('button', { name: /first question/ }).first().click()
    await answers(page).first().waitFor()
    await page.getByRole('button', { name: 'Instructions for this conversation' }).click()
    const dialog = page.getByRole('dialog', { name: 'Instructions for this conversation' })
    await dialog.getByLabel('Instructions').fill('You are planning a trip to Lisbon.')
    await e2e.screenshot('models-instructions')
    await dialog.getByRole('button', { name: 'Save and restart the prompt' }).click()
    await dialog.waitFor({ state: 'detached' })
    const restarted = await ask('third question')
    expect(restarted.body.model).toBe('gpt-big')
    expect(systemPrompt(restarted)).toContain('You are planning a trip to Lisbon.')
    expect(systemPrompt(restarted)).toContain('Always answer in plain words.')
    const next = await ask('fourth question')
    expect(systemPrompt(next)).toBe(systemPrompt(restarted))
    expect(e2e.pageErrors).toEqual([])
  })
})

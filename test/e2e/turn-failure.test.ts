import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { isReviewRequest } from '../helpers/review-fixture'
import { startE2E, type E2E } from './fixture'
import { answers, composer, send } from './helpers'

// Issue 29 part A: a failed turn is no dead end. `cairn serve` starts with a key the provider refuses.
let e2e: E2E
let page: Page

beforeAll(async () => {
  e2e = await startE2E({ server: { apiKey: 'sk-right', respond: (request) => ({ text: isReviewRequest(request) ? 'Nothing to save.' : 'Hello, now that the key is right.' }) } })
  page = e2e.page
  await page.goto(e2e.url)
  await composer(page).waitFor()
})

afterAll(async () => {
  await e2e?.close()
})

it('wrong key → fix it in Settings from the error → reopen the conversation → Retry answers', async () => {
  await send(page, 'hello')
  const failure = page.locator('.notice', { hasText: 'rejected the API key' })
  await failure.waitFor()
  expect(await failure.textContent()).toContain(`The provider at ${e2e.server.url} rejected the API key. Enter the right key in Settings.`)
  // The sidebar marks the conversation: its only message was not answered.
  await page.locator('.session-row', { hasText: 'hello' }).getByText('Not answered').waitFor()

  // The error's own button goes to the provider's settings.
  await failure.getByRole('button', { name: 'Open Settings' }).click()
  const key = page.getByLabel('API key', { exact: true })
  await key.fill('sk-right')
  await key.press('Enter')
  await expect.poll(() => key.inputValue()).toBe('')

  // The window reloads; the conversation, reopened, still shows its failure with Retry.
  // (It comes back on Settings, where it was: the conversation is opened from the sidebar.)
  await page.reload()
  await page.locator('.session-row', { hasText: 'hello' }).click()
  await composer(page).waitFor()
  const kept = page.locator('.notice', { hasText: 'rejected the API key' })
  await kept.waitFor()
  await kept.getByRole('button', { name: 'Retry' }).click()
  await answers(page).filter({ hasText: 'Hello, now that the key is right.' }).waitFor()
  await kept.waitFor({ state: 'detached' })
  await page.locator('.session-row', { hasText: 'hello' }).getByText('Not answered').waitFor({ state: 'detached' })
  expect(e2e.pageErrors).toEqual([])
})

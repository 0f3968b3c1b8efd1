import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { isReviewRequest, reviewUserText } from '../helpers/review-fixture'
import { SCREENSHOTS, startE2E, type E2E } from './fixture'
import { composer } from './helpers'

const CHATGPT_EXPORT = join(__dirname, '..', 'fixtures', 'chatgpt-export', 'conversations.json')

/** The review model: one fact per imported conversation (keyed on words only its transcript holds). */
function respond(request: RecordedChatRequest): ScriptedReply {
  if (!isReviewRequest(request)) return { text: 'Sure.' }
  if (request.body.messages.at(-1)?.role === 'tool') return { text: 'Saved.' }
  const fact = reviewUserText(request).includes('levain') ? 'User keeps a sourdough starter' : 'User watches the birds at their feeder'
  return { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: fact } }] }
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

describe('importing from Settings → Data (browser mode)', () => {
  it('previews a ChatGPT export, imports it, learns from its conversations and undoes it', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('tab', { name: 'Data', exact: true }).click()
    const part = page.getByRole('region', { name: 'Import from other assistants' })
    await part.scrollIntoViewIfNeeded()
    await part.getByLabel('Import from').selectOption('chatgpt')
    await part.getByLabel('Location').fill(CHATGPT_EXPORT)
    await part.getByRole('button', { name: 'Preview' }).click()
    await part.getByText('Conversations: 2 (8 messages), 0 imported before.').waitFor()
    await part.screenshot({ path: join(SCREENSHOTS, 'import-preview.png') })

    await part.getByRole('button', { name: 'Import', exact: true }).click()
    await part.getByText('Import #1 brought in:').waitFor()
    await part.getByText(/Import #1 · ChatGPT/).waitFor()
    // The imported conversations are in the sidebar's list, searchable like Cairn's own.
    await page.getByText('Reviving a sourdough starter').first().waitFor()

    await part.getByRole('button', { name: 'Learn from 2 conversations' }).click()
    await part.getByText('Finished: 2 of 2 reviewed, 2 changes made, 0 proposed, 0 failed.').waitFor({ timeout: 60_000 })
    await part.getByText('There are no imported conversations left to learn from.').waitFor()
    expect(await part.getByRole('button', { name: 'Learn from imported conversations' }).isDisabled()).toBe(true)
    await part.screenshot({ path: join(SCREENSHOTS, 'import-learned.png') })

    await part.getByRole('button', { name: 'Undo import #1' }).click()
    const dialog = page.getByRole('dialog', { name: 'Undo import #1?' })
    await dialog.getByRole('button', { name: 'Undo the import' }).click()
    await part.getByText(/Import #1 undone: 0 changes reverted, 2 conversations deleted/).waitFor()
    expect(e2e.pageErrors).toEqual([])
  })
})

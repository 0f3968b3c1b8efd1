import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startE2E, type E2E } from './fixture'
import { answers, composer, lastUserText, send } from './helpers'

/** A ChatGPT export of one conversation answered by o3 (nodes as ChatGPT writes them: a tree, root to `current_node`). */
function o3Export(path: string): string {
  const node = (id: string, parent: string | null, child: string | null, role: 'user' | 'assistant' | null, text: string, time: number) => ({
    id,
    parent,
    children: child ? [child] : [],
    message: role
      ? { id, author: { role }, create_time: time, content: { content_type: 'text', parts: [text] }, metadata: role === 'assistant' ? { model_slug: 'o3' } : {}, recipient: 'all' }
      : null
  })
  const conversation = {
    id: 'c0ffee00-0000-4000-8000-000000000003',
    title: 'Choosing a database',
    create_time: 1735725600,
    update_time: 1735725700,
    current_node: 'a1',
    default_model_slug: 'o3',
    mapping: {
      root: node('root', null, 'q1', null, '', 0),
      q1: node('q1', 'root', 'a1', 'user', 'Postgres or SQLite for a small internal tool?', 1735725610),
      a1: node('a1', 'q1', null, 'assistant', 'SQLite: one file, no server, and plenty fast for a small internal tool.', 1735725620)
    }
  }
  writeFileSync(path, JSON.stringify([conversation]))
  return path
}

let e2e: E2E
let page: Page

beforeAll(async () => {
  e2e = await startE2E({ server: { respond: () => ({ text: 'Then SQLite still: back it up with the file.' }) } })
  page = e2e.page
  await page.goto(e2e.url)
  await composer(page).waitFor()
})

afterAll(async () => {
  await e2e?.close()
})

describe('an imported ChatGPT conversation goes on in Cairn (browser mode)', () => {
  it('answers on the user’s model, while the imported answer says “ChatGPT · o3”; importing it again brings nothing new', async () => {
    const file = o3Export(join(e2e.workspace, 'conversations.json'))
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('tab', { name: 'Data', exact: true }).click()
    const part = page.getByRole('region', { name: 'Import from other assistants' })
    await part.scrollIntoViewIfNeeded()
    await part.getByLabel('Import from').selectOption('chatgpt')
    await part.getByLabel('Location').fill(file)
    await part.getByRole('button', { name: 'Import', exact: true }).click()
    await part.getByText('Import #1 brought in:').waitFor()

    await page.getByText('Choosing a database').first().click()
    const label = page.getByTestId('imported-model')
    await label.waitFor()
    expect(await label.textContent()).toBe('ChatGPT · o3')
    expect(await label.getAttribute('title')).toContain('Going on here answers with your model')

    await send(page, 'And if three people use it at once?')
    await answers(page).nth(1).getByText('Then SQLite still: back it up with the file.').waitFor()
    const request = e2e.server.lastChatRequest()!
    expect(request.body.model).toBe('scripted')
    expect(lastUserText(request)).toBe('And if three people use it at once?')
    // The imported answer is in what the model reads; only the imported answer carries the label.
    expect(request.body.messages.some((message) => message.role === 'assistant' && String(message.content).startsWith('SQLite: one file'))).toBe(true)
    expect(await page.getByTestId('imported-model').count()).toBe(1)

    // The same export again: nothing new, and no second batch in the list.
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await part.scrollIntoViewIfNeeded()
    await part.getByLabel('Import from').selectOption('chatgpt')
    await part.getByLabel('Location').fill(file)
    await part.getByRole('button', { name: 'Import', exact: true }).click()
    await part.getByText(/Nothing new: everything there was imported before, so no import was recorded/).waitFor()
    await part.getByText(/Import #1 · ChatGPT/).waitFor()
    expect(await part.getByText(/Import #2/).count()).toBe(0)
    expect(e2e.pageErrors).toEqual([])
  })
})

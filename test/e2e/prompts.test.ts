import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { startE2E, type E2E } from './fixture'
import { answers, composer, eventually, lastUserText } from './helpers'

function respond(request: RecordedChatRequest): ScriptedReply {
  if (isReviewRequest(request)) return { text: 'Nothing to save.' }
  return { text: 'Here is the summary you asked for.' }
}

type FocusDom = { document: { activeElement: unknown } }

let e2e: E2E

beforeAll(async () => {
  e2e = await startE2E({ server: { respond } })
})

afterAll(async () => {
  await e2e?.close()
})

describe('the prompt library in browser mode', () => {
  it('creates a prompt with a variable in the library, uses it from / with the keyboard, and sends the filled text', async () => {
    const page = e2e.page
    await page.goto(e2e.url)
    await composer(page).waitFor()
    // While the menu is open the box is a combobox: found by its label, whatever its role.
    const box = page.getByLabel('Message', { exact: true })

    // "/" in an empty library offers only "Manage prompts…": Enter opens the library.
    await box.pressSequentially('/')
    const menu = page.getByRole('listbox', { name: 'Prompts' })
    await menu.getByRole('option', { name: /Manage prompts/ }).waitFor()
    await box.press('Enter')
    const library = page.getByRole('dialog', { name: 'Prompt library' })
    await library.getByText('No saved prompts yet.').waitFor()
    await library.getByRole('button', { name: 'New prompt' }).click()

    const editor = page.getByRole('dialog', { name: 'New prompt' })
    await editor.getByLabel(/^Name/).fill('weekly-summary')
    await editor.getByLabel('Description').fill('Summarise a project’s week')
    await editor.getByLabel(/^Prompt/).fill('Summarise what the {{project}} team shipped this week, in three bullet points.')
    await editor.getByLabel('Default for project').fill('Atlas')
    await editor.getByRole('button', { name: 'Save prompt' }).click()
    await library.getByText('/weekly-summary').waitFor()
    const file = join(e2e.home, 'prompts', 'weekly-summary.md')
    expect(existsSync(file)).toBe(true)
    expect(readFileSync(file, 'utf8')).toContain('default: Atlas')
    await library.getByRole('button', { name: 'Close' }).click()

    // Type "/", filter, pick with Enter; the form asks for the variable with its default, Enter inserts.
    await box.pressSequentially('/week')
    await menu.getByRole('option', { name: /\/weekly-summary/ }).waitFor()
    expect(await box.getAttribute('aria-activedescendant')).toBe(await menu.getByRole('option', { name: /\/weekly-summary/ }).getAttribute('id'))
    await box.press('Enter')
    const form = page.getByRole('dialog', { name: 'Fill in “weekly-summary”' })
    const project = form.getByLabel('project')
    await expect.poll(() => project.inputValue()).toBe('Atlas')
    expect(await project.evaluate((input) => input === (globalThis as unknown as FocusDom).document.activeElement)).toBe(true)
    await project.fill('Borealis')
    await project.press('Enter')
    await form.waitFor({ state: 'detached' })
    await expect.poll(() => box.inputValue()).toBe('Summarise what the Borealis team shipped this week, in three bullet points.')
    expect(e2e.server.chatRequests().length).toBe(0)

    await box.press('Enter')
    await answers(page).filter({ hasText: 'Here is the summary you asked for.' }).waitFor()
    const request = await eventually(() => e2e.server.chatRequests().find((r) => !isReviewRequest(r)), Boolean, 'the chat request')
    expect(lastUserText(request!)).toBe('Summarise what the Borealis team shipped this week, in three bullet points.')
    expect(e2e.pageErrors).toEqual([])
  })
})

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { TITLE_PROMPT_START } from '../../electron/core/agent/conversation-title'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { ONE_PIXEL_PNG, pdfWithText } from '../helpers/pdf-file'
import { startE2E, type E2E } from './fixture'
import { answers, composer, send } from './helpers'

type Part = { type: string; text?: string; image_url?: { url: string } }

function userParts(request: RecordedChatRequest): Part[] | string {
  const user = [...request.body.messages].reverse().find((message) => message.role === 'user')
  return user?.content as Part[] | string
}

function isTitleRequest(request: RecordedChatRequest): boolean {
  const system = request.body.messages[0]?.content
  return typeof system === 'string' && system.startsWith(TITLE_PROMPT_START)
}

function respond(request: RecordedChatRequest): ScriptedReply {
  if (isReviewRequest(request)) return { text: 'Nothing to save.' }
  if (isTitleRequest(request)) return { text: 'Pixel and kayak plan' }
  return { text: 'A red pixel, and a plan to launch kayaks in May.' }
}

let e2e: E2E
let page: Page
let files: string

beforeAll(async () => {
  files = mkdtempSync(join(tmpdir(), 'cairn-e2e-files-'))
  writeFileSync(join(files, 'pixel.png'), ONE_PIXEL_PNG)
  writeFileSync(join(files, 'brief.pdf'), pdfWithText(['Launch the kayak line in May.']))
  writeFileSync(join(files, 'setup.exe'), 'MZ')
  e2e = await startE2E({ server: { respond } })
  page = e2e.page
  await page.goto(e2e.url)
  await composer(page).waitFor()
})

afterAll(async () => {
  await e2e?.close()
  rmSync(files, { recursive: true, force: true })
})

const composerChips = () => page.locator('form.composer .attachment-chip')

describe('attachments in browser mode', () => {
  it('refuses a file Cairn cannot read, saying why', async () => {
    await page.locator('[data-testid="attach-input"]').setInputFiles(join(files, 'setup.exe'))
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('“setup.exe” cannot be attached')
    expect(await composerChips().count()).toBe(0)
  })

  it('sends an image as an image part and a PDF as its text to the provider, and shows both as chips', async () => {
    await page.locator('[data-testid="attach-input"]').setInputFiles([join(files, 'pixel.png'), join(files, 'brief.pdf')])
    await expect.poll(() => composerChips().locator('.attachment-name').allTextContents()).toEqual(['pixel.png', 'brief.pdf'])
    await e2e.screenshot('attachments-composer')

    await send(page, 'What is in these?')
    await answers(page).filter({ hasText: 'kayaks in May' }).waitFor()
    const sent = page.locator('.message.user').filter({ hasText: 'What is in these?' })
    expect(await sent.locator('.attachment-chip .attachment-name').allTextContents()).toEqual(['pixel.png', 'brief.pdf'])
    expect(await composerChips().count()).toBe(0)
    await e2e.screenshot('attachments-sent')

    const request = e2e.server.chatRequests().filter((r) => !isReviewRequest(r) && !isTitleRequest(r)).at(-1)!
    expect(userParts(request)).toEqual([
      { type: 'text', text: 'What is in these?\n\n<attached_file name="brief.pdf" kind="pdf">\nLaunch the kayak line in May.\n</attached_file>' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${ONE_PIXEL_PNG.toString('base64')}` } }
    ])
  })

  it('keeps the chips on the message after a reload (stored with it)', async () => {
    await page.reload()
    await composer(page).waitFor()
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: /What is in these|Pixel and kayak/ }).first().click()
    const sent = page.locator('.message.user').filter({ hasText: 'What is in these?' })
    await sent.waitFor()
    expect(await sent.locator('.attachment-chip .attachment-name').allTextContents()).toEqual(['pixel.png', 'brief.pdf'])
  })
})

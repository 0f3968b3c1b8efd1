import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { TITLE_PROMPT_START } from '../../electron/core/agent/conversation-title'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { pngImage } from '../helpers/png-file'
import { startE2E, type E2E } from './fixture'
import { answers, composer, send } from './helpers'

/** An answer with inline and display math, money, and code that must stay code. */
export const MATH_ANSWER = [
  'Mass–energy equivalence: $E=mc^2$, which costs $5 and $10 to print.',
  '',
  '$$',
  '\\int_0^1 x^2\\,dx = \\frac{1}{3}',
  '$$',
  '',
  'In code it stays as written: `echo $HOME$`.'
].join('\n')

function respond(request: RecordedChatRequest): ScriptedReply {
  if (isReviewRequest(request)) return { text: 'Nothing to save.' }
  const system = request.body.messages[0]?.content
  if (typeof system === 'string' && system.startsWith(TITLE_PROMPT_START)) return { text: 'Math and pictures' }
  return { text: MATH_ANSWER }
}

let e2e: E2E
let page: Page
let files: string
const violations: string[] = []

// The node tsconfig has no DOM library (see page-dom.ts): the few browser globals these callbacks read.
type ImageNode = { naturalWidth: number }
interface ViolationEvent {
  blockedURI: string
  violatedDirective: string
}
interface MathPageDom {
  document: {
    fonts: { ready: Promise<unknown> } & Iterable<{ family: string; status: string }>
    styleSheets: Iterable<{ cssRules: Iterable<{ cssText: string }> }>
    activeElement: unknown
    addEventListener(type: 'securitypolicyviolation', listener: (event: ViolationEvent) => void): void
  }
}

beforeAll(async () => {
  files = mkdtempSync(join(tmpdir(), 'cairn-e2e-images-'))
  writeFileSync(join(files, 'sunset.png'), pngImage(320, 200, (x, y) => [255, Math.round(120 + (y / 200) * 100), Math.round((x / 320) * 80)]))
  writeFileSync(join(files, 'forest.png'), pngImage(200, 300, (x, y) => [Math.round((x / 200) * 60), Math.round(100 + (y / 300) * 120), 70]))
  e2e = await startE2E({ server: { respond } })
  page = e2e.page
  page.on('console', (message) => {
    if (/^Refused to load/.test(message.text())) violations.push(message.text())
  })
  // Every refusal by the page's CSP, but zod's probe for eval (`new Function('')` in a try, which it expects to fail).
  await page.addInitScript(() => {
    const { document } = globalThis as unknown as MathPageDom
    document.addEventListener('securitypolicyviolation', (event) => {
      if (event.blockedURI !== 'eval') console.error(`Refused to load: CSP ${event.violatedDirective} ${event.blockedURI}`)
    })
  })
  await page.goto(e2e.url)
  await composer(page).waitFor()
})

afterAll(async () => {
  await e2e?.close()
  rmSync(files, { recursive: true, force: true })
})

describe('math and images in browser mode', () => {
  it('draws math in an answer with KaTeX and its own fonts, leaving money and code as written, within the CSP', async () => {
    await page.locator('[data-testid="attach-input"]').setInputFiles([join(files, 'sunset.png'), join(files, 'forest.png')])
    const pending = page.locator('form.composer .attachment-chip.thumbnail img')
    await expect.poll(() => pending.evaluateAll((images) => images.map((img) => [img.getAttribute('alt'), (img as unknown as ImageNode).naturalWidth]))).toEqual([
      ['sunset.png', 320],
      ['forest.png', 200]
    ])

    await send(page, 'Explain E=mc² and look at these')
    const answer = answers(page).filter({ hasText: 'Mass–energy equivalence' })
    await answer.locator('.katex-display').waitFor()
    expect(await answer.locator('.katex annotation').allTextContents()).toEqual(['E=mc^2', '\\int_0^1 x^2\\,dx = \\frac{1}{3}'])
    expect(await answer.textContent()).toContain('which costs $5 and $10 to print.')
    expect(await answer.locator('p code').textContent()).toBe('echo $HOME$')

    const fonts = await page.evaluate(async () => {
      const { document } = globalThis as unknown as MathPageDom
      await document.fonts.ready
      return [...document.fonts].filter((font) => font.family.includes('KaTeX') && font.status === 'loaded').map((font) => font.family)
    })
    expect(fonts).toEqual(expect.arrayContaining(['KaTeX_Main', 'KaTeX_Math']))
    // Every KaTeX font is a file of the app: an inlined data: font would be refused by font-src 'self' when drawn.
    const inlinedFonts = await page.evaluate(() =>
      [...(globalThis as unknown as MathPageDom).document.styleSheets].flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText)).filter((text) => text.startsWith('@font-face') && text.includes('data:'))
    )
    expect(inlinedFonts).toEqual([])
    expect(violations).toEqual([])
    expect(e2e.pageErrors).toEqual([])
  })

  it('shows the sent images as thumbnails, opens the viewer by keyboard, moves with ← → and closes with Esc', async () => {
    const sent = page.locator('.message.user').filter({ hasText: 'Explain E=mc²' })
    const thumbs = sent.locator('.attachment-chip.thumbnail img')
    await expect.poll(() => thumbs.evaluateAll((images) => images.map((img) => [img.getAttribute('alt'), (img as unknown as ImageNode).naturalWidth]))).toEqual([
      ['sunset.png', 320],
      ['forest.png', 200]
    ])

    const first = sent.getByRole('button', { name: 'Open sunset.png' })
    await first.focus()
    await page.keyboard.press('Enter')
    const viewer = page.getByRole('dialog', { name: 'sunset.png' })
    await viewer.waitFor()
    const shown = viewer.getByRole('img', { name: 'sunset.png' })
    expect(await shown.evaluate((img) => (img as unknown as ImageNode).naturalWidth)).toBe(320)
    // Fit to the window: never larger than the viewport.
    const box = (await shown.boundingBox())!
    expect(box.height).toBeLessThanOrEqual(page.viewportSize()!.height)

    await page.keyboard.press('ArrowRight')
    await page.getByRole('dialog', { name: 'forest.png' }).waitFor()
    expect(await page.getByRole('dialog').textContent()).toContain('2 of 2')
    await page.keyboard.press('ArrowLeft')
    await page.getByRole('dialog', { name: 'sunset.png' }).waitFor()

    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0)
    expect(await first.evaluate((button) => button === (globalThis as unknown as MathPageDom).document.activeElement)).toBe(true)
    expect(violations).toEqual([])
  })

  it('keeps the thumbnails after a reload (read back from the data home)', async () => {
    await page.reload()
    await composer(page).waitFor()
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: /Explain E=mc²|Math and pictures/ }).first().click()
    const thumbs = page.locator('.message.user .attachment-chip.thumbnail img')
    await expect.poll(() => thumbs.evaluateAll((images) => images.map((img) => (img as unknown as ImageNode).naturalWidth))).toEqual([320, 200])
    expect(violations).toEqual([])
  })

  it('shows an incognito chat’s images too (kept in memory only)', async () => {
    await page.goto(e2e.url)
    await composer(page).waitFor()
    await composer(page).press('Control+Shift+N')
    await page.getByText('Incognito: this chat is not saved and Cairn will not learn from it.').waitFor()
    await page.locator('[data-testid="attach-input"]').setInputFiles([join(files, 'forest.png')])
    await send(page, 'A secret picture')
    const sent = page.locator('.message.user').filter({ hasText: 'A secret picture' })
    await expect.poll(() => sent.locator('.attachment-chip.thumbnail img').evaluateAll((images) => images.map((img) => (img as unknown as ImageNode).naturalWidth))).toEqual([200])
    await sent.getByRole('button', { name: 'Open forest.png' }).click()
    expect(await page.getByRole('dialog', { name: 'forest.png' }).getByRole('img', { name: 'forest.png' }).evaluate((img) => (img as unknown as ImageNode).naturalWidth)).toBe(200)
    await page.keyboard.press('Escape')
    expect(violations).toEqual([])
  })
})

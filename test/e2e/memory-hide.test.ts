import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import type { CairnCore } from '../../electron/core/cairn'
import { setEntryHidden } from '../../electron/core/memory/entry-hiding'
import { startE2E, type E2E } from './fixture'
import { overflowingElements } from './helpers'

const HIDDEN = 'User was laid off from Acme in March and is looking for work'
const KEPT = 'User lives in Lisbon and works in the Lisbon timezone'

async function seed(core: CairnCore): Promise<void> {
  const user = { write: { source: 'user' as const, sessionId: null } }
  await core.memory.add('user', HIDDEN, user)
  await core.memory.add('user', KEPT, user)
  await core.memory.add('user', 'User prefers short answers with commands first', user)
  await core.memory.add('memory', 'The build server is called atlas', user)
  setEntryHidden(core, 'user', HIDDEN, true)
}

async function openMemory(page: Page, e2e: E2E, name: RegExp): Promise<void> {
  await page.goto(e2e.url)
  await page.getByRole('navigation').first().waitFor()
  await page.getByRole('navigation').getByRole('button', { name, exact: true }).first().click()
  await page.locator('.memory-entry').first().waitFor()
}

const entry = (page: Page, text: string) => page.locator('.memory-entry').filter({ hasText: text })

/** The text colour the page paints (the node tsconfig has no DOM library, hence the cast). */
const colorOf = (target: Locator) =>
  target.evaluate((node) => (globalThis as unknown as { getComputedStyle(element: unknown): { color: string } }).getComputedStyle(node).color)

describe('the Memory screen: "Don\'t bring this up"', () => {
  let e2e: E2E
  beforeAll(async () => {
    e2e = await startE2E({ seed })
  }, 120_000)
  afterAll(async () => {
    await e2e?.close()
  })

  it('shows a hidden entry greyed with the way back, and hides and shows from the keyboard', async () => {
    const page = e2e.page
    await openMemory(page, e2e, /^Memory$/)
    const hidden = entry(page, HIDDEN)
    await hidden.getByText('Hidden', { exact: true }).waitFor()
    await page.getByText('1 hidden entry: still counted, since hidden entries stay in the file.').waitFor()
    expect(await colorOf(hidden.locator('.memory-text'))).not.toBe(await colorOf(entry(page, KEPT).locator('.memory-text')))
    await e2e.screenshot('memory-hide-light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await e2e.screenshot('memory-hide-dark')
    await page.emulateMedia({ colorScheme: 'light' })

    // Keyboard only: the toggle of another entry, then "Bring it up again" on the first.
    const toggle = entry(page, KEPT).getByRole('button', { name: "Don't bring this up" })
    await toggle.focus()
    await page.keyboard.press('Enter')
    await entry(page, KEPT).getByText('Hidden', { exact: true }).waitFor()
    await page.getByText('2 hidden entries: still counted, since hidden entries stay in the file.').waitFor()
    await hidden.getByRole('button', { name: 'Bring it up again' }).focus()
    await page.keyboard.press('Enter')
    await hidden.locator('.memory-hidden-note').waitFor({ state: 'detached' })
    expect(await toggle.getAttribute('aria-pressed')).toBe('true')
    await entry(page, KEPT).getByRole('button', { name: 'History' }).click()
    await entry(page, KEPT).getByText('You asked not to bring it up').waitFor()
    expect(e2e.pageErrors).toEqual([])
  }, 60_000)

  it('fits a 640 px window, light and dark', async () => {
    const problems: string[] = []
    for (const scheme of ['light', 'dark'] as const) {
      const narrow = await e2e.newPage({ viewport: { width: 640, height: 820 }, colorScheme: scheme })
      await openMemory(narrow, e2e, /^Memory$/)
      await entry(narrow, KEPT).getByText('Hidden', { exact: true }).waitFor()
      await entry(narrow, KEPT).scrollIntoViewIfNeeded()
      problems.push(...(await overflowingElements(narrow)).map((problem) => `${scheme}: ${problem}`))
      await e2e.screenshot(`memory-hide-640-${scheme}`, narrow)
      await narrow.context().close()
    }
    expect(problems).toEqual([])
  }, 60_000)
})

describe('the Memory screen in Chinese: "不要再提起"', () => {
  let e2e: E2E
  beforeAll(async () => {
    e2e = await startE2E({ seed, config: { ui: { language: 'zh-CN' } } })
  }, 120_000)
  afterAll(async () => {
    await e2e?.close()
  })

  it('words the hidden entry, its way back and the usage note in Chinese, light and dark', async () => {
    const page = e2e.page
    await openMemory(page, e2e, /^记忆$/)
    const hidden = entry(page, HIDDEN)
    await hidden.getByText('已隐藏', { exact: true }).waitFor()
    await hidden.getByRole('button', { name: '重新提起' }).waitFor()
    await entry(page, KEPT).getByRole('button', { name: '不要再提起' }).waitFor()
    await page.getByText('1 条已隐藏：它们仍在文件中，所以仍计入用量。').waitFor()
    await e2e.screenshot('memory-hide-zh-CN-light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await e2e.screenshot('memory-hide-zh-CN-dark')
    expect(e2e.pageErrors).toEqual([])
  }, 60_000)
})

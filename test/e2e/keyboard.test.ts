import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { CairnCore } from '../../electron/core/cairn'
import { startE2E, type E2E } from './fixture'
import { composer } from './helpers'

const SKILL = 'rotate-logs'

async function seed(core: CairnCore): Promise<void> {
  core.sessions.create({ id: 'nginx', title: 'Rotating nginx logs' })
  core.sessions.appendMany('nginx', [
    { role: 'user', content: 'How do I rotate the nginx logs every week?' },
    { role: 'assistant', content: 'Use logrotate with the weekly option.' }
  ])
  core.sessions.create({ id: 'bread', title: 'Sourdough schedule' })
  core.sessions.appendMany('bread', [
    { role: 'user', content: 'A sourdough schedule for Saturday' },
    { role: 'assistant', content: 'Feed the starter on Friday night.' }
  ])
  await core.skills.create({ name: SKILL, category: 'ops', content: `---\nname: ${SKILL}\ndescription: Rotate the app logs\n---\n1. Run logrotate.\n` }, { source: 'review', reviewId: 'seed-review' })
  await core.memory.add('user', 'Prefers short answers', { write: { source: 'user' } })
}

let e2e: E2E

beforeAll(async () => {
  e2e = await startE2E({ seed })
})

afterAll(async () => {
  await e2e?.close()
})

async function openApp(): Promise<Page> {
  const page = await e2e.newPage()
  await page.goto(e2e.url)
  await composer(page).waitFor()
  return page
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Sections' })
const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true })

/** The focused element: whether it is on screen, and whether a focus ring shows on it or on the field's frame. */
function focusState(page: Page): Promise<{ label: string; inMain: boolean; inDialog: boolean; visible: boolean; ring: boolean } | null> {
  return page.evaluate(() => {
    type El = { tagName: string; getAttribute(name: string): string | null; textContent: string | null; parentElement: El | null; closest(selector: string): El | null; getBoundingClientRect(): { width: number; height: number; top: number; bottom: number; left: number; right: number } }
    const g = globalThis as unknown as { document: { activeElement: El | null; body: El }; innerWidth: number; innerHeight: number; getComputedStyle(el: El): { boxShadow: string; outlineStyle: string; outlineWidth: string } }
    const el = g.document.activeElement
    if (!el || el === g.document.body) return null
    const box = el.getBoundingClientRect()
    const visible = box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < g.innerHeight && box.right > 0 && box.left < g.innerWidth
    const shows = (node: El) => {
      const style = g.getComputedStyle(node)
      return (style.boxShadow !== 'none' && style.boxShadow !== '') || (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
    }
    // A text field shows focus on its frame (:focus-within), a few levels up at most.
    let ring = shows(el)
    for (let node = el.parentElement, up = 0; !ring && node && up < 3; node = node.parentElement, up++) ring = shows(node)
    const label = `${el.tagName.toLowerCase()} “${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}”`
    return { label, inMain: Boolean(el.closest('main')), inDialog: Boolean(el.closest('[role="dialog"]')), visible, ring }
  })
}

/** Tabs through `stops` controls; every one is on screen with a visible focus ring. Returns their labels. */
async function tabThrough(page: Page, stops: number): Promise<Array<{ label: string; inMain: boolean; inDialog: boolean }>> {
  const seen: Array<{ label: string; inMain: boolean; inDialog: boolean }> = []
  for (let step = 0; step < stops; step++) {
    await page.keyboard.press('Tab')
    const state = await focusState(page)
    if (!state) continue
    expect({ control: state.label, visible: state.visible, ring: state.ring }).toEqual({ control: state.label, visible: true, ring: true })
    seen.push(state)
  }
  return seen
}

describe('keyboard (browser mode, Chromium)', () => {
  it('Ctrl+K, ↓, Enter opens a conversation from the search hits', async () => {
    const page = await openApp()
    await page.keyboard.press('Control+k')
    const box = page.getByRole('combobox', { name: 'Search conversations' })
    await expect.poll(() => box.evaluate((node) => node === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).toBe(true)
    await page.keyboard.type('sourdough')
    const options = page.getByRole('listbox', { name: 'Search results' }).getByRole('option')
    await options.first().waitFor()
    await page.keyboard.press('ArrowDown')
    expect(await options.first().getAttribute('aria-selected')).toBe('true')
    expect(await box.getAttribute('aria-activedescendant')).toBe(await options.first().getAttribute('id'))
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { level: 1, name: 'Sourdough schedule' }).waitFor()
    await page.getByText('Feed the starter on Friday night.').waitFor()
    expect(await box.inputValue()).toBe('')
    // The keyboard goes on in the conversation: the message box has it.
    await expect.poll(() => focusState(page).then((state) => state?.label)).toMatch(/^textarea/)
  })

  it('Timeline → View changes → Back returns to the Timeline, on the link followed; Forward goes to the skill again', async () => {
    const page = await openApp()
    await nav(page).getByRole('button', { name: 'Timeline', exact: true }).click()
    await heading(page, 'Learning timeline').waitFor()
    const link = page.getByRole('article', { name: 'Skill created' }).getByRole('button', { name: /View changes/ })
    await link.focus()
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { level: 2, name: SKILL }).waitFor()
    expect(new URL(page.url()).hash).toMatch(/^#\/skills\?token=/)

    await page.goBack()
    await heading(page, 'Learning timeline').waitFor()
    expect(new URL(page.url()).hash).toMatch(/^#\/timeline\?token=/)
    await expect.poll(() => focusState(page).then((state) => state?.label)).toMatch(/^button “View changes/)

    await page.goForward()
    await page.getByRole('heading', { level: 2, name: SKILL }).waitFor()
    // Alt+← is Back inside the app too.
    await page.keyboard.press('Alt+ArrowLeft')
    await heading(page, 'Learning timeline').waitFor()
  })

  it('Back walks the screens to the first one and never leaves the app for about:blank; Back keys stop at the first screen', async () => {
    const page = await openApp()
    const first = page.url()
    await nav(page).getByRole('button', { name: 'Skills', exact: true }).click()
    await heading(page, 'Skills').waitFor()
    await nav(page).getByRole('button', { name: 'Memory', exact: true }).click()
    await heading(page, 'Memory').waitFor()
    await page.goBack()
    await heading(page, 'Skills').waitFor()
    await page.goBack()
    await composer(page).waitFor()
    expect(page.url()).not.toBe('about:blank')
    expect(new URL(page.url()).hash).toBe(new URL(first).hash)
    // At the first screen the app's Back keys do nothing rather than leave.
    await page.locator('body').press('Alt+ArrowLeft')
    await page.locator('body').press('Control+[')
    await composer(page).waitFor()
    expect(page.url()).toBe(first)
    expect(e2e.pageErrors).toEqual([])
  })

  it('opens Settings at the section a link names, and a reload stays on it', async () => {
    const page = await openApp()
    const token = new URL(page.url()).hash.split('token=')[1]
    await page.goto(`${e2e.url.split('#')[0]}#/settings/appearance?token=${token}`)
    await heading(page, 'Settings').waitFor()
    expect(new URL(page.url()).hash).toBe(`#/settings/appearance?token=${token}`)
    await page.reload()
    await heading(page, 'Settings').waitFor()
    expect(new URL(page.url()).hash).toBe(`#/settings/appearance?token=${token}`)
  })

  it('walks every screen by keyboard alone: each control it reaches is on screen with a visible focus ring', async () => {
    const page = await openApp()
    // Chat: into the conversation, then through its header, messages and composer.
    await page.getByRole('button', { name: /^Rotating nginx logs/ }).focus()
    await page.keyboard.press('Enter')
    await page.getByText('Use logrotate with the weekly option.').waitFor()
    const chat = await tabThrough(page, 16)
    expect(chat.filter((stop) => stop.inMain).map((stop) => stop.label)).toEqual(expect.arrayContaining([expect.stringMatching(/^textarea/), expect.stringMatching(/Rename/)]))

    for (const [screen, title] of [
      ['Timeline', 'Learning timeline'],
      ['Inbox', 'Inbox'],
      ['Skills', 'Skills'],
      ['Memory', 'Memory']
    ]) {
      await nav(page).getByRole('button', { name: screen, exact: true }).focus()
      await page.keyboard.press('Enter')
      await heading(page, title).waitFor()
      const stops = await tabThrough(page, 14)
      expect(stops.some((stop) => stop.inMain), `Tab reaches the ${screen} screen`).toBe(true)
    }
    await page.getByRole('button', { name: 'Settings', exact: true }).first().focus()
    await page.keyboard.press('Enter')
    await heading(page, 'Settings').waitFor()
    expect((await tabThrough(page, 12)).some((stop) => stop.inMain)).toBe(true)
  })

  it('keeps Tab inside a dialog and gives focus back on Esc; the conversation menu works with the arrow keys', async () => {
    const page = await openApp()
    await composer(page).focus()
    await page.keyboard.press('Control+/')
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor()
    for (const stop of await tabThrough(page, 6)) expect(stop.inDialog).toBe(true)
    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    expect((await focusState(page))?.label).toMatch(/^textarea/)

    const more = page.getByRole('button', { name: 'More actions' }).first()
    await more.focus()
    await page.keyboard.press('Enter')
    const menu = page.getByRole('menu')
    await menu.waitFor()
    const items = menu.getByRole('menuitem')
    expect(await focusState(page).then((state) => state?.label)).toBe(`button “${await items.nth(0).innerText()}”`)
    await page.keyboard.press('ArrowDown')
    expect(await focusState(page).then((state) => state?.label)).toBe(`button “${await items.nth(1).innerText()}”`)
    await page.keyboard.press('Escape')
    await menu.waitFor({ state: 'detached' })
    expect(await focusState(page).then((state) => state?.label)).toBe('button “More actions”')
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { WIDE, startE2E, type E2E } from './fixture'
import { answers, composer, lastUserText, overflowingElements, send } from './helpers'
import type { PageDom } from './page-dom'

const SMALLEST = { width: 640, height: 720 }

/** The focus, as `page.evaluate` callbacks see it (the node tsconfig has no DOM library). */
type FocusDom = { document: { activeElement: { blur(): void } | null } }

function respond(request: RecordedChatRequest): ScriptedReply {
  if (isReviewRequest(request)) return { text: 'Nothing to save.' }
  const user = lastUserText(request)
  if (user.includes('backups')) return { text: 'Run restic every night at 2:00 and keep 14 daily snapshots.' }
  return { text: `(scripted) no answer planned for: ${user}` }
}

let e2e: E2E

beforeAll(async () => {
  e2e = await startE2E({
    server: { respond },
    seed: async (core) => {
      await core.memory.add('user', 'Prefers short answers with the command first', { write: { source: 'user' } })
      await core.memory.add('memory', 'Backups go to the NAS at nas.local', { write: { source: 'user' } })
    }
  })
})

afterAll(async () => {
  await e2e?.close()
})

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Sidebar' })
const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search conversations' })

async function sidebarMode(page: Page): Promise<string> {
  return page.evaluate(() => {
    const classes = [...((globalThis as unknown as PageDom).document.querySelector('aside.sidebar')?.classList ?? [])]
    return classes.includes('rail') ? 'rail' : classes.includes('peek') ? 'over the screen' : 'beside'
  })
}

async function openScreen(page: Page, name: string, heading: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name, exact: true }).click()
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
}

describe('the window at 640 px', () => {
  it('folds the sidebar to a rail, opens it over the screen and puts it away after a pick, with nothing cut off', async () => {
    const page = await e2e.newPage({ viewport: SMALLEST })
    await page.goto(e2e.url)
    await composer(page).waitFor()
    expect(await sidebarMode(page)).toBe('rail')
    expect(await searchBox(page).isVisible()).toBe(false)

    await send(page, 'How should I run backups?')
    await answers(page).filter({ hasText: 'restic' }).waitFor()
    expect(await overflowingElements(page)).toEqual([])

    // The rail reaches every screen; none of them sticks out of a 640 px window.
    for (const [name, heading] of [['Memory', 'Memory'], ['Inbox', 'Inbox'], ['Timeline', 'Timeline'], ['Skills', 'Skills']] as const) {
      await openScreen(page, name, heading)
      expect(await overflowingElements(page), name).toEqual([])
    }
    await sidebar(page).getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor()
    expect(await overflowingElements(page), 'Settings').toEqual([])

    // The conversations are one click away: the button shows the whole sidebar over the screen.
    await sidebar(page).getByRole('button', { name: 'Show sidebar' }).click()
    expect(await sidebarMode(page)).toBe('over the screen')
    await searchBox(page).waitFor()
    await sidebar(page).locator('.session-row').first().click()
    await answers(page).filter({ hasText: 'restic' }).waitFor()
    expect(await sidebarMode(page)).toBe('rail')

    // From the keyboard: Ctrl+K shows it with the search focused, Esc twice puts it away.
    await page.keyboard.press('Control+k')
    await expect.poll(() => searchBox(page).evaluate((node) => node === (globalThis as unknown as FocusDom).document.activeElement)).toBe(true)
    await page.keyboard.press('Escape')
    await page.keyboard.press('Escape')
    expect(await sidebarMode(page)).toBe('rail')
    expect(e2e.pageErrors).toEqual([])
    await page.context().close()
  })
})

describe('a wide window', () => {
  it('folds the sidebar by its button and remembers that after a reload', async () => {
    const page = await e2e.newPage({ viewport: WIDE })
    await page.goto(e2e.url)
    await composer(page).waitFor()
    expect(await sidebarMode(page)).toBe('beside')
    await sidebar(page).getByRole('button', { name: 'Hide sidebar' }).click()
    expect(await sidebarMode(page)).toBe('rail')
    await page.reload()
    await composer(page).waitFor()
    expect(await sidebarMode(page)).toBe('rail')
    await page.keyboard.press('Control+b')
    expect(await sidebarMode(page)).toBe('beside')
    await page.context().close()
  })

  it('Ctrl+N starts a new chat, Ctrl+, opens Settings, ? lists the shortcuts', async () => {
    const page = await e2e.newPage({ viewport: WIDE })
    await page.goto(e2e.url)
    await composer(page).waitFor()
    await send(page, 'How should I run backups again?')
    await answers(page).filter({ hasText: 'restic' }).waitFor()

    await page.keyboard.press('Control+Comma')
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor()
    await page.keyboard.press('Control+n')
    await composer(page).waitFor()
    expect(await answers(page).count()).toBe(0)
    expect(await page.locator('.message.user').count()).toBe(0)

    // `?` is a shortcut only outside text fields (the new chat's message box has the focus).
    await composer(page).press('?')
    expect(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(0)
    await composer(page).fill('')
    await page.evaluate(() => (globalThis as unknown as FocusDom).document.activeElement?.blur())
    await page.keyboard.press('?')
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await dialog.waitFor()
    expect(await dialog.getByRole('region', { name: 'Inbox' }).isVisible()).toBe(true)
    await e2e.screenshot('layout-shortcuts-dialog', page)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(e2e.pageErrors).toEqual([])
    await page.context().close()
  })
})

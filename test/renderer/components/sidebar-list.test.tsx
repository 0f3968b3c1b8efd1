import { act, fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { RouteInput } from '../../../shared/ipc/contract'
import type { SessionSummary } from '../../../shared/ipc/domain'
import { conversationsPage } from '../helpers/fake-transport'
import { session } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'
import { sidebarSections } from '../helpers/sidebar'

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** A sidebar-sized window: about 18 rows in view. */
const SIDEBAR_VIEWPORT = { viewportHeight: 600, itemHeight: 34 }

/** 10,000 conversations an hour apart from now backwards, two of them pinned. */
function tenThousand(): SessionSummary[] {
  const now = Date.now()
  return Array.from({ length: 10_000 }, (_, i) => ({ ...session(`c${i}`, `Chat ${i}`, now - i * HOUR - 60_000), pinned: i === 500 || i === 9000 }))
}

const rowsInDom = () => document.querySelectorAll('.session-row').length

describe('the sidebar with 10,000 conversations', () => {
  it('asks for one page and renders only the rows in view, under date headings, pinned first', async () => {
    const all = tenThousand()
    const harness = await renderApp({ 'sessions.list': (input) => conversationsPage(all, input) }, { viewport: SIDEBAR_VIEWPORT })
    await settle()
    const pages = harness.bridge.callsTo('sessions.list') as Array<RouteInput<'sessions.list'>>
    expect(pages.filter((input) => !input.archived)).toEqual([{ limit: 100 }])
    expect(rowsInDom()).toBeGreaterThan(10)
    expect(rowsInDom()).toBeLessThan(60)
    const sections = sidebarSections()
    expect(sections[0]).toEqual({ heading: 'Pinned', titles: ['Chat 500', 'Chat 9000'] })
    expect(sections[1].heading).toBe('Today')
    expect(sections[1].titles[0]).toBe('Chat 0')
  })

  it('loads the next page when the end of what is loaded comes into view', async () => {
    const all = tenThousand()
    // A main that answers small pages: the first does not fill the view, so the next is asked for at once.
    const harness = await renderApp({ 'sessions.list': (input) => conversationsPage(all, { ...input, limit: 5 }) }, { viewport: SIDEBAR_VIEWPORT })
    await settle()
    await settle()
    const asked = (harness.bridge.callsTo('sessions.list') as Array<RouteInput<'sessions.list'>>).filter((input) => !input.archived)
    expect(asked.length).toBeGreaterThan(1)
    expect(asked.slice(1).every((input) => typeof input.cursor === 'string')).toBe(true)
    expect(harness.app.sessions.getState().list.length).toBe(asked.length * 5)
    // Filled, it stops: nowhere near the 2,000 pages there are.
    expect(asked.length).toBeLessThan(20)
    expect(rowsInDom()).toBeLessThan(60)
  })

  it('offers the archived conversations at once, at the top, without loading the other pages first', async () => {
    const all = tenThousand().map((summary, i) => ({ ...summary, archived: i === 7000 }))
    const harness = await renderApp({ 'sessions.list': (input) => conversationsPage(all, input) }, { viewport: SIDEBAR_VIEWPORT })
    await settle()
    fireEvent.click(screen.getByRole('button', { name: 'Show archived' }))
    await settle()
    expect(sidebarSections()[0]).toEqual({ heading: 'Archived', titles: ['Chat 7000'] })
    const asked = (harness.bridge.callsTo('sessions.list') as Array<RouteInput<'sessions.list'>>).filter((input) => !input.archived)
    expect(asked).toEqual([{ limit: 100 }])
    fireEvent.click(screen.getByRole('button', { name: 'Hide archived' }))
    await settle()
    expect(sidebarSections()[0].heading).toBe('Pinned')
  })

  it('shows the running dot and marks the open conversation', async () => {
    const notes = session('s2', 'Release notes', Date.now() - 60_000)
    const harness = await renderApp(
      { 'sessions.list': [session('s1', 'Deploy day', Date.now() - DAY * 3), notes], 'sessions.get': { session: notes, messages: [], running: false } },
      { viewport: SIDEBAR_VIEWPORT }
    )
    act(() => harness.app.sessions.getState().setRunning('s1', true))
    expect(screen.getByRole('button', { name: /^Deploy day/ }).querySelector('.running-dot')).not.toBeNull()
    fireEvent.click(screen.getByRole('button', { name: /^Release notes/ }))
    await settle()
    expect(screen.getByRole('button', { name: /^Release notes/ }).getAttribute('aria-current')).toBe('page')
    expect(sidebarSections()).toEqual([
      { heading: 'Today', titles: ['Release notes'] },
      { heading: 'Previous 7 days', titles: ['Deploy day'] }
    ])
  })

  it('moves between rows with the arrow keys, Home and End', async () => {
    const list = ['Alpha', 'Bravo', 'Charlie', 'Delta'].map((title, i) => session(`s${i}`, title, Date.now() - (i + 1) * 60_000))
    await renderApp({ 'sessions.list': list }, { viewport: SIDEBAR_VIEWPORT })
    const row = (title: string) => screen.getByRole('button', { name: new RegExp(`^${title}`) })
    row('Alpha').focus()
    fireEvent.keyDown(row('Alpha'), { key: 'ArrowDown' })
    await settle()
    expect(document.activeElement).toBe(row('Bravo'))
    fireEvent.keyDown(row('Bravo'), { key: 'End' })
    await settle()
    expect(document.activeElement).toBe(row('Delta'))
    fireEvent.keyDown(row('Delta'), { key: 'ArrowDown' })
    await settle()
    expect(document.activeElement).toBe(row('Delta'))
    fireEvent.keyDown(row('Delta'), { key: 'ArrowUp' })
    await settle()
    expect(document.activeElement).toBe(row('Charlie'))
    fireEvent.keyDown(row('Charlie'), { key: 'Home' })
    await settle()
    expect(document.activeElement).toBe(row('Alpha'))
  })
})

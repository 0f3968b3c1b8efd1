import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { session } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

interface ViewportWindow {
  happyDOM: { setViewport(viewport: { width: number; height: number }): void }
}
const setWidth = (width: number) => act(() => (window as unknown as ViewportWindow).happyDOM.setViewport({ width, height: 768 }))

afterEach(() => setWidth(1024))

const sidebar = () => screen.getByRole('complementary', { name: 'Sidebar' })
const toggle = () => within(sidebar()).getByRole('button', { name: /sidebar$/ })
const handlers = {
  'sessions.list': [session('s1', 'Deploy day'), session('s2', 'Release notes')],
  'sessions.get': { session: session('s2', 'Release notes'), messages: [], running: false }
}

describe('collapsible sidebar', () => {
  it('folds to a rail of labelled icons by its button, and stays folded after a reload', async () => {
    const first = await renderApp(handlers)
    expect(toggle().getAttribute('aria-label')).toBe('Hide sidebar')
    expect(toggle().getAttribute('aria-expanded')).toBe('true')
    fireEvent.click(toggle())
    expect(toggle().getAttribute('aria-label')).toBe('Show sidebar')
    expect(toggle().getAttribute('aria-expanded')).toBe('false')
    expect(sidebar().className).toContain('rail')
    // The rail keeps every screen one click away, each button named for screen readers.
    for (const name of ['New chat', 'Timeline', 'Inbox', 'Skills', 'Memory', 'Settings']) expect(within(sidebar()).getByRole('button', { name })).toBeTruthy()
    fireEvent.click(within(sidebar()).getByRole('button', { name: 'Memory' }))
    expect(screen.getByRole('heading', { level: 1, name: 'Memory' })).toBeTruthy()

    first.unmount()
    await renderApp(handlers)
    expect(toggle().getAttribute('aria-label')).toBe('Show sidebar')
    fireEvent.click(toggle())
    expect(toggle().getAttribute('aria-label')).toBe('Hide sidebar')
    expect(sidebar().className).not.toContain('rail')
  })

  it('Ctrl+B folds and unfolds it from the keyboard', async () => {
    await renderApp(handlers)
    fireEvent.keyDown(document.body, { key: 'b', ctrlKey: true })
    expect(toggle().getAttribute('aria-expanded')).toBe('false')
    fireEvent.keyDown(document.body, { key: 'b', metaKey: true })
    expect(toggle().getAttribute('aria-expanded')).toBe('true')
  })

  it('folded, Ctrl+K shows the whole sidebar over the screen with the search focused; Esc puts it away', async () => {
    await renderApp(handlers)
    fireEvent.click(toggle())
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true })
    await settle()
    expect(sidebar().className).toContain('peek')
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Search conversations' }))
    // Esc in the search box clears it first; a second Esc closes the sidebar and returns to its button.
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    fireEvent.keyDown(toggle(), { key: 'Escape' })
    expect(sidebar().className).toContain('rail')
    expect(document.activeElement).toBe(toggle())
  })

  it('in a narrow window it starts folded; shown over the screen, picking a conversation puts it away', async () => {
    setWidth(700)
    const harness = await renderApp(handlers)
    expect(sidebar().className).toContain('rail')
    fireEvent.click(toggle())
    expect(sidebar().className).toContain('peek')
    expect(toggle().getAttribute('aria-label')).toBe('Hide sidebar')
    fireEvent.click(within(sidebar()).getByRole('button', { name: /^Release notes/ }))
    await settle()
    expect(sidebar().className).toContain('rail')
    expect(harness.bridge.callsTo('sessions.get')).toEqual([{ sessionId: 's2' }])

    // Widening the window brings the sidebar back beside the screen (the narrow fold was not a choice).
    setWidth(1200)
    expect(sidebar().className).not.toContain('rail')
    expect(toggle().getAttribute('aria-label')).toBe('Hide sidebar')
  })
})

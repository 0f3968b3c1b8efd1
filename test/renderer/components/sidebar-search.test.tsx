import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { message, session } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const hit = {
  sessionId: 's2',
  title: 'Kubernetes upgrade',
  startedAt: Date.now() - 3600_000,
  score: 3.2,
  matchMessageId: 42,
  snippet: 'we >>>drained<<< the node <img src=x onerror=alert(1)> then >>>upgraded<<<',
  messages: []
}

const secondHit = { ...hit, sessionId: 's1', title: 'Groceries', matchMessageId: 7, snippet: '>>>drain<<< the pasta' }

async function search(query: string, hits = [hit]) {
  const harness = await renderApp({
    'sessions.list': [session('s1', 'Groceries'), session('s2', 'Kubernetes upgrade')],
    'sessions.search': { query, hits },
    'sessions.get': { session: session('s2', 'Kubernetes upgrade'), messages: [message('user', 'How do I drain?', { id: 42 })], running: false }
  })
  // The box searches once typing pauses: run that debounce on a fake clock instead of waiting it out.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  fireEvent.change(screen.getByRole('combobox', { name: 'Search conversations' }), { target: { value: query } })
  expect(harness.bridge.callsTo('sessions.search')).toEqual([])
  act(() => vi.runOnlyPendingTimers())
  vi.useRealTimers()
  await screen.findByRole('listbox', { name: 'Search results' })
  return harness
}

afterEach(() => {
  vi.useRealTimers()
})

describe('session search', () => {
  it('searches past conversations and highlights matches as elements, never HTML', async () => {
    const harness = await search('drain upgrade')
    expect(harness.bridge.callsTo('sessions.search')).toEqual([{ query: 'drain upgrade', limit: 10 }])
    const results = screen.getByRole('listbox', { name: 'Search results' })
    const marks = [...results.querySelectorAll('mark')].map((m) => m.textContent)
    expect(marks).toEqual(['drained', 'upgraded'])
    expect(results.querySelector('img')).toBeNull()
    expect(results.textContent).toContain('<img src=x onerror=alert(1)>')
    expect(results.textContent).not.toContain('>>>')
  })

  it('opens the conversation from a hit and clears the search', async () => {
    const harness = await search('drain')
    fireEvent.click(within(screen.getByRole('listbox', { name: 'Search results' })).getByRole('option'))
    await settle()
    expect(harness.bridge.callsTo('sessions.get')).toEqual([{ sessionId: 's2' }])
    expect(screen.getByRole('heading', { name: 'Kubernetes upgrade' })).toBeTruthy()
    expect(screen.getByText('How do I drain?')).toBeTruthy()
    expect((screen.getByRole('combobox') as HTMLInputElement).value).toBe('')
  })

  it('is a combobox: ↓/↑ highlight a hit (aria-activedescendant) while focus stays in the box, Enter opens it', async () => {
    const harness = await search('drain', [hit, secondHit])
    const box = screen.getByRole('combobox', { name: 'Search conversations' })
    const list = screen.getByRole('listbox', { name: 'Search results' })
    expect(box.getAttribute('aria-controls')).toBe(list.id)
    expect(box.getAttribute('aria-expanded')).toBe('true')
    expect(box.getAttribute('aria-activedescendant')).toBeNull()
    const options = within(list).getAllByRole('option')

    fireEvent.keyDown(box, { key: 'ArrowDown' })
    fireEvent.keyDown(box, { key: 'ArrowDown' })
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1].id)
    expect(options.map((option) => option.getAttribute('aria-selected'))).toEqual(['false', 'true'])
    fireEvent.keyDown(box, { key: 'ArrowDown' })
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1].id)
    fireEvent.keyDown(box, { key: 'ArrowUp' })
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0].id)
    fireEvent.keyDown(box, { key: 'ArrowUp' })
    expect(box.getAttribute('aria-activedescendant')).toBeNull()
    fireEvent.keyDown(box, { key: 'ArrowDown' })
    fireEvent.keyDown(box, { key: 'ArrowDown' })

    fireEvent.keyDown(box, { key: 'Enter' })
    await settle()
    expect(harness.bridge.callsTo('sessions.get')).toEqual([{ sessionId: 's1' }])
    expect(harness.app.sessions.getState().query).toBe('')
  })

  it('Enter opens the first hit when none is highlighted', async () => {
    const harness = await search('drain', [hit, secondHit])
    fireEvent.keyDown(screen.getByRole('combobox'), { key: 'Enter' })
    await settle()
    expect(harness.bridge.callsTo('sessions.get')).toEqual([{ sessionId: 's2' }])
  })

  it('Esc clears the search and gives focus back to where it was', async () => {
    await search('drain')
    const composer = screen.getByRole('textbox', { name: /message/i })
    const box = screen.getByRole('combobox')
    composer.focus()
    fireEvent.focus(box, { relatedTarget: composer })
    box.focus()
    fireEvent.keyDown(box, { key: 'Escape' })
    expect((box as HTMLInputElement).value).toBe('')
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(document.activeElement).toBe(composer)
  })

  it('focuses the search box on Ctrl+K from anywhere', async () => {
    await renderApp({ 'timeline.list': { entries: [], reviews: [] } })
    fireEvent.click(screen.getByRole('button', { name: 'Timeline' }))
    fireEvent.keyDown(window, { key: 'k', ctrlKey: true })
    await settle()
    expect(document.activeElement).toBe(screen.getByRole('combobox'))
  })
})

describe('sessions list', () => {
  it('lists conversations and marks one that is answering', async () => {
    const harness = await renderApp({ 'sessions.list': [session('s1', 'Groceries'), session('s2', 'Taxes')] })
    const nav = screen.getByRole('navigation', { name: 'Conversations' })
    expect(within(nav).getByText('Groceries')).toBeTruthy()
    act(() => harness.bridge.emit('chat.status', { sessionId: 's2', running: true }))
    expect(within(nav).getByLabelText('Answering')).toBeTruthy()
  })
})

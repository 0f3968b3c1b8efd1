import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { QuickApp } from '../../../renderer/src/features/quick/QuickApp'
import { message, session, turnEvents } from '../helpers/fixtures'
import { renderApp, settle, type Harness } from '../helpers/render-app'

const NOTICE = 'Incognito: this chat is not saved and Cairn will not learn from it.'
const secret = { ...session('inc-1', 'plan the surprise party'), incognito: true as const, source: 'desktop' }

afterEach(() => vi.unstubAllGlobals())

async function app(extra: Parameters<typeof renderApp>[0] = {}, options: Parameters<typeof renderApp>[1] = {}) {
  return renderApp(
    {
      'sessions.list': [session('s1', 'Deploy day')],
      'chat.send': { sessionId: 'inc-1', turnId: 't1' },
      'chat.discard': { discarded: true },
      'sessions.get': ({ sessionId }) =>
        sessionId === 'inc-1'
          ? { session: secret, messages: [message('user', 'plan the surprise party'), message('assistant', 'Sure.')], running: false, page: { hasOlder: false } }
          : { session: session('s1', 'Deploy day'), messages: [], running: false, page: { hasOlder: false } },
      ...extra
    },
    options
  )
}

async function sendIncognito(harness: Harness): Promise<void> {
  fireEvent.click(screen.getByRole('button', { name: 'Start this chat incognito (not saved, not learned from)' }))
  expect(screen.getByTestId('incognito-banner').textContent).toContain(NOTICE)
  const box = screen.getByRole('textbox', { name: 'Message' })
  fireEvent.change(box, { target: { value: 'plan the surprise party' } })
  fireEvent.keyDown(box, { key: 'Enter' })
  await settle()
  act(() => {
    for (const event of turnEvents('inc-1', 't1', [{ type: 'turn_started', userMessageId: 1 }, { type: 'turn_finished', reason: 'completed', text: 'Sure.', usage: {}, toolCalls: 0 }])) harness.bridge.emit('chat.event', event)
    harness.frames.run()
  })
  await settle()
}

describe('incognito chats in the window', () => {
  it('starts a new chat incognito from the header switch, says so, and never lists it', async () => {
    const harness = await app()
    await sendIncognito(harness)
    expect(harness.bridge.callsTo('chat.send')).toEqual([{ sessionId: null, text: 'plan the surprise party', incognito: true }])
    // Marked in the header (no rename, review or delete) and at the composer, and absent from the sidebar.
    expect(screen.getByTestId('incognito-banner').textContent).toContain(NOTICE)
    expect(screen.getByRole('button', { name: 'Close incognito chat' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull()
    expect(document.querySelector('.chat-dock.incognito')).not.toBeNull()
    expect(screen.queryAllByRole('button', { name: /plan the surprise party/ })).toEqual([])
    expect(screen.getByRole('button', { name: /^Deploy day/ })).toBeTruthy()
  })

  it('asks before closing one with messages, and discards it only when the user agrees', async () => {
    const harness = await app()
    await sendIncognito(harness)
    // happy-dom has no window.confirm: the app's confirm is the browser's, stood in for here.
    const confirm = vi.fn().mockReturnValueOnce(false).mockReturnValueOnce(true)
    vi.stubGlobal('confirm', confirm)
    fireEvent.click(screen.getByRole('button', { name: 'Close incognito chat' }))
    await settle()
    expect(confirm).toHaveBeenCalledWith('Close this incognito chat? It was never saved, so its messages will be gone.')
    expect(confirm).toHaveBeenCalledTimes(1)
    expect(harness.bridge.callsTo('chat.discard')).toEqual([])
    expect(harness.app.chat.getState().sessionId).toBe('inc-1')

    // Opening another conversation leaves it too: the same question, then it is gone.
    fireEvent.click(screen.getByRole('button', { name: /^Deploy day/ }))
    await settle()
    expect(harness.bridge.callsTo('chat.discard')).toEqual([{ sessionId: 'inc-1' }])
    expect(harness.app.chat.getState()).toMatchObject({ sessionId: 's1', incognito: false })
    expect(screen.queryByTestId('incognito-banner')).toBeNull()
  })

  it('discards its incognito chat when the window goes away', async () => {
    const harness = await app()
    await sendIncognito(harness)
    act(() => {
      window.dispatchEvent(new Event('pagehide'))
    })
    await settle()
    expect(harness.bridge.callsTo('chat.discard')).toEqual([{ sessionId: 'inc-1' }])
  })

  it('opens a new incognito chat with Ctrl+Shift+N, and a plain new chat turns it off', async () => {
    const harness = await app()
    fireEvent.keyDown(window, { key: 'N', ctrlKey: true, shiftKey: true })
    await settle()
    expect(harness.app.chat.getState()).toMatchObject({ sessionId: null, incognito: true })
    expect(screen.getByTestId('incognito-banner')).toBeTruthy()
    fireEvent.keyDown(window, { key: 'n', ctrlKey: true })
    await settle()
    expect(harness.app.chat.getState().incognito).toBe(false)
  })

  it('has the switch in the quick prompt too', async () => {
    const harness = await app({}, { ui: <QuickApp />, windowKind: 'quick' })
    fireEvent.click(screen.getByRole('button', { name: 'Start this chat incognito (not saved, not learned from)' }))
    expect(screen.getByTestId('incognito-banner').textContent).toContain(NOTICE)
    const box = screen.getByRole('textbox', { name: 'Message' })
    fireEvent.change(box, { target: { value: 'a quick secret' } })
    fireEvent.keyDown(box, { key: 'Enter' })
    await settle()
    expect(harness.bridge.callsTo('chat.send')).toEqual([{ sessionId: null, text: 'a quick secret', incognito: true }])
  })
})

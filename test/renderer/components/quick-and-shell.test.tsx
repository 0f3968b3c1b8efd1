import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { MissingToken } from '../../../renderer/src/app/App'
import { QuickApp } from '../../../renderer/src/features/quick/QuickApp'
import { memoryView, turnEvents } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

describe('quick prompt page', () => {
  async function openQuick() {
    const harness = await renderApp(
      {
        'chat.send': { sessionId: 'q1', turnId: 't1' },
        'sessions.get': () => new Promise(() => {}),
        'window.openMain': { ok: true },
        'window.hideQuick': { ok: true }
      },
      { ui: <QuickApp />, windowKind: 'quick' }
    )
    return harness
  }

  it('sends a new quick conversation, streams the answer and offers "Open in Cairn"', async () => {
    const harness = await openQuick()
    expect(screen.queryByRole('navigation')).toBeNull()
    const open = screen.getByRole('button', { name: 'Open in Cairn' }) as HTMLButtonElement
    expect(open.disabled).toBe(true)

    const box = screen.getByRole('textbox', { name: 'Message' })
    fireEvent.change(box, { target: { value: 'What is 2+2?' } })
    fireEvent.keyDown(box, { key: 'Enter' })
    await settle()
    expect(harness.bridge.callsTo('chat.send')).toEqual([{ sessionId: null, text: 'What is 2+2?' }])

    act(() => {
      for (const event of turnEvents('q1', 't1', [
        { type: 'turn_started', userMessageId: 1 },
        { type: 'text_delta', text: 'It is **4**.' }
      ])) {
        harness.bridge.emit('chat.event', event)
      }
      harness.frames.run()
    })
    expect(screen.getByText('4').tagName).toBe('STRONG')
    expect(open.disabled).toBe(false)
    fireEvent.click(open)
    await settle()
    expect(harness.bridge.callsTo('window.openMain')).toEqual([{ sessionId: 'q1' }])
  })

  it('hides on Esc', async () => {
    const harness = await openQuick()
    fireEvent.keyDown(window, { key: 'Escape' })
    await settle()
    expect(harness.bridge.callsTo('window.hideQuick')).toEqual([undefined])
  })
})

describe('window chrome', () => {
  it('shows "Reconnecting…" while the connection is down', async () => {
    const harness = await renderApp()
    expect(screen.queryByText(/Reconnecting/)).toBeNull()
    act(() => harness.app.ui.getState().setConnection('reconnecting'))
    expect(screen.getByText(/Reconnecting/)).toBeTruthy()
  })

  it('tells a browser opened without the token how to get in', () => {
    render(<MissingToken language="en" />)
    expect(screen.getByRole('heading', { name: 'Open Cairn from its link' })).toBeTruthy()
    expect(screen.getByText('cairn serve')).toBeTruthy()
  })

  it('follows the app.navigate event from main', async () => {
    const harness = await renderApp({ 'memory.get': { memory: memoryView([], 0, 100), user: memoryView([], 0, 100) } })
    act(() => harness.bridge.emit('app.navigate', { view: 'memory' }))
    await settle()
    expect(screen.getByRole('heading', { name: 'Memory' })).toBeTruthy()
  })

  it('opens an empty conversation when the application menu asks for a new chat', async () => {
    const harness = await renderApp({ 'memory.get': { memory: memoryView([], 0, 100), user: memoryView([], 0, 100) } })
    act(() => harness.bridge.emit('app.navigate', { view: 'memory' }))
    await settle()
    act(() => harness.app.chat.setState({ sessionId: 'open-one' }))
    act(() => harness.bridge.emit('app.navigate', { view: 'chat', newChat: true }))
    await settle()
    expect(harness.app.ui.getState().view).toBe('chat')
    expect(harness.app.chat.getState().sessionId).toBeNull()
  })
})

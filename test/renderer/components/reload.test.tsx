import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { UI_STORAGE_KEY } from '../../../renderer/src/stores/ui'
import { message, session, turnEvents } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

describe('reloading the window', () => {
  it('reopens the conversation that was open and catches up with the running answer', async () => {
    localStorage.setItem(UI_STORAGE_KEY, JSON.stringify({ state: { theme: 'dark', language: 'en', view: 'chat', lastSessionId: 's1' }, version: 0 }))
    const user = message('user', 'Summarise the logs')
    const harness = await renderApp(
      {
        'sessions.list': [session('s1', 'Logs')],
        'sessions.get': { session: session('s1', 'Logs'), messages: [user], running: true },
        'chat.attach': {
          running: true,
          events: turnEvents('s1', 't1', [
            { type: 'turn_started', userMessageId: user.id },
            { type: 'text_delta', text: 'The logs show ' },
            { type: 'text_delta', text: 'three restarts' }
          ])
        }
      },
      { restore: true }
    )
    await settle()
    harness.frames.run()
    await settle()
    expect(harness.bridge.callsTo('chat.attach')).toEqual([{ sessionId: 's1' }])
    expect(screen.getByRole('heading', { name: 'Logs' })).toBeTruthy()
    expect(screen.getByText('The logs show three restarts')).toBeTruthy()
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).disabled).toBe(true)
  })

  it('starts a new chat when the remembered conversation is gone', async () => {
    localStorage.setItem(UI_STORAGE_KEY, JSON.stringify({ state: { lastSessionId: 'deleted' }, version: 0 }))
    const harness = await renderApp({ 'sessions.list': [session('s1', 'Logs')] }, { restore: true })
    expect(harness.bridge.callsTo('sessions.get')).toEqual([])
    expect(screen.getByRole('heading', { name: 'New conversation' })).toBeTruthy()
  })
})

import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { config, message, session, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

describe('recalled memory under a user message', () => {
  it('says how many were recalled and, unfolded, each one with its provider', async () => {
    const recalled = [
      { provider: 'builtin' as const, id: '7', text: 'Staging deploys go through the deploy-bot account' },
      { provider: 'mem0' as const, id: 'ab-1', text: 'Prefers tea over coffee' }
    ]
    await renderApp({
      'sessions.list': [session('s1', 'Deploys')],
      'sessions.get': { session: session('s1', 'Deploys'), messages: [message('user', 'How do staging deploys work?', { recalled }), message('assistant', 'Through the bot.')], running: false }
    })
    fireEvent.click(screen.getByRole('button', { name: /^Deploys/ }))
    await settle()
    const row = screen.getByText('How do staging deploys work?').closest('.message') as HTMLElement
    expect(within(row).getByText('Recalled 2 memories')).toBeTruthy()
    expect(within(row).getByText('Staging deploys go through the deploy-bot account')).toBeTruthy()
    expect(within(row).getByText('from Cairn’s archive')).toBeTruthy()
    expect(within(row).getByText('from Mem0')).toBeTruthy()
  })
})

describe('Settings → Memory provider', () => {
  it('shows the active provider, what was last sent and a failure, live; choosing another saves memory.provider', async () => {
    const harness = await renderApp({
      'settings.get': settingsView({ config: config((c) => (c.memory.provider = 'honcho')), memoryProviderKey: { hasApiKey: false, keyHint: null, keyStorage: 'none' } }),
      'settings.update': settingsView({ config: config((c) => (c.memory.provider = 'mem0')) }),
      'memoryProvider.status': { provider: 'honcho', state: 'ready', pendingSyncs: 0, lastError: null, sent: [{ at: Date.now(), kind: 'turn', text: 'I drink tea → Noted.' }] }
    })
    act(() => harness.app.ui.getState().openSettings('learning'))
    await settle()
    const part = () => screen.getByRole('region', { name: 'Memory provider' })
    expect(within(part()).getByRole('radio', { name: 'Honcho' }).getAttribute('aria-checked')).toBe('true')
    expect(within(part()).getByText('Honcho is working.')).toBeTruthy()
    expect(within(part()).getByText('I drink tea → Noted.')).toBeTruthy()
    expect(within(part()).getByLabelText('API key')).toBeTruthy()

    act(() => harness.bridge.emit('memoryProvider.changed', { provider: 'honcho', state: 'failing', pendingSyncs: 2, lastError: { at: Date.now(), code: 'unauthorized', message: 'HTTP 401' }, sent: [] }))
    expect(within(part()).getByText('Honcho refused the key. Turns go on without it; finished turns are tried again in the background.')).toBeTruthy()
    expect(within(part()).getByText('2 finished turns waiting to be sent')).toBeTruthy()

    fireEvent.click(within(part()).getByRole('radio', { name: 'Mem0' }))
    await settle()
    expect(harness.bridge.callsTo('settings.update')).toEqual([{ patch: { memory: { provider: 'mem0' } } }])
  })

  it('with memory and the user profile both off, says nothing is recalled or sent instead of the provider’s state', async () => {
    const harness = await renderApp({
      'settings.get': settingsView({
        config: config((c) => {
          c.memory.provider = 'honcho'
          c.memory.enabled = false
          c.memory.userProfileEnabled = false
        }),
        memoryProviderKey: { hasApiKey: true, keyHint: 'hk-…', keyStorage: 'none' }
      }),
      'memoryProvider.status': null
    })
    act(() => harness.app.ui.getState().openSettings('learning'))
    await settle()
    const part = screen.getByRole('region', { name: 'Memory provider' })
    expect(within(part).getByText('Memory and the user profile are both off: nothing is recalled into conversations and nothing is sent to the provider.')).toBeTruthy()
    expect(within(part).queryByText('Honcho is working.')).toBeNull()
  })
})

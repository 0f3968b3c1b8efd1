import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { SessionSummary } from '../../../shared/ipc/domain'
import { message, session } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const question = message('user', 'hello')
const baseURL = 'https://api.example.test/v1'
const failed: SessionSummary = {
  ...session('s1', 'hello'),
  messageCount: 1,
  failedTurn: { messageId: question.id, code: 'auth', message: `${baseURL} rejected the API key (401).`, retryable: false, params: { baseURL, model: 'gpt-test' }, at: 1 }
}

async function openFailed(extra: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({
    'sessions.list': [failed],
    'sessions.get': { session: failed, messages: [question], running: false },
    'chat.regenerate': { sessionId: 's1', turnId: 't2' },
    'chat.edit': { sessionId: 's1', turnId: 't3' },
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: /^hello/ }))
  await settle()
  return harness
}

describe('a failed turn kept with its conversation', () => {
  it('is shown again when the conversation is reopened (or the window reloaded), naming its cause, with Retry and Open settings', async () => {
    const harness = await openFailed()
    const notice = screen.getByText(`The provider at ${baseURL} rejected the API key. Enter the right key in Settings.`).closest('.notice') as HTMLElement
    expect(notice).toBeTruthy()
    fireEvent.click(within(notice).getByRole('button', { name: 'Retry' }))
    await settle()
    expect(harness.bridge.callsTo('chat.regenerate')).toEqual([{ sessionId: 's1' }])
  })

  it('links to the provider section of Settings', async () => {
    const harness = await openFailed()
    fireEvent.click(screen.getByRole('button', { name: 'Open Settings' }))
    expect(harness.app.ui.getState().view).toBe('settings')
    expect(harness.app.ui.getState().settingsSection).toBe('provider')
  })

  it('stays dismissed once dismissed, though the conversation is read again', async () => {
    const harness = await openFailed()
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }))
    await harness.app.chat.getState().refresh()
    await settle()
    expect(screen.queryByText(/rejected the API key/)).toBeNull()
  })

  it('marks a conversation whose only message was not answered in the sidebar', async () => {
    await renderApp({ 'sessions.list': [failed, session('s2', 'Colours')] })
    expect(within(screen.getByRole('button', { name: /^hello/ })).getByText('Not answered')).toBeTruthy()
    expect(within(screen.getByRole('button', { name: /^Colours/ })).queryByText('Not answered')).toBeNull()
  })
})

describe('editing a sent message', () => {
  it('sends the same words again: the turn runs again', async () => {
    const harness = await openFailed()
    fireEvent.click(screen.getByRole('button', { name: 'Edit message' }))
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Edit your message' }), { key: 'Enter' })
    await settle()
    expect(harness.bridge.callsTo('chat.edit')).toEqual([{ sessionId: 's1', messageId: question.id, text: 'hello' }])
  })
})

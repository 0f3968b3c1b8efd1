import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ModelList, SessionSummary } from '../../../shared/ipc/domain'
import { QuickApp } from '../../../renderer/src/features/quick/QuickApp'
import { config, message, session, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const listed: ModelList = { baseURL: 'https://api.example.com/v1', models: ['gpt-big', 'gpt-small', 'gpt-test'], fetchedAt: 1, error: null, defaultModel: 'gpt-test' }

async function openChat(summary: SessionSummary = session('s1', 'Trip plans'), handlers: Parameters<typeof renderApp>[0] = {}) {
  let current = summary
  const harness = await renderApp({
    'sessions.list': () => [current],
    'sessions.get': () => ({ session: current, messages: [message('user', 'hello')], running: false }),
    'chat.attach': { running: false, events: [] },
    'models.list': listed,
    'sessions.setModel': ({ model }) => (current = { ...current, model }),
    ...handlers
  })
  fireEvent.click(screen.getByRole('button', { name: /Trip plans/ }))
  await settle()
  return harness
}

const modelButton = () => screen.getByTestId('model-button')

describe('the model switcher in the chat header', () => {
  it('shows the conversation\'s model and switches it from the provider\'s cached list', async () => {
    const harness = await openChat()
    expect(modelButton().textContent).toBe('gpt-test')
    expect(modelButton().getAttribute('aria-label')).toBe('Model: gpt-test. Change the model for this conversation')
    fireEvent.click(modelButton())
    await settle()
    expect(harness.bridge.callsTo('models.list')).toEqual([{}])
    const dialog = screen.getByRole('dialog', { name: 'Model for this conversation' })
    expect(within(dialog).getByText('3 models listed by https://api.example.com/v1')).toBeTruthy()
    const current = within(dialog).getByRole('button', { name: 'gpt-test in use' })
    expect(current.getAttribute('aria-current')).toBe('true')
    fireEvent.click(within(dialog).getByRole('button', { name: 'gpt-big' }))
    await settle()
    expect(harness.bridge.callsTo('sessions.setModel')).toEqual([{ sessionId: 's1', model: 'gpt-big' }])
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(modelButton().textContent).toBe('gpt-big')
    expect(screen.getByText('This conversation now answers with gpt-big.')).toBeTruthy()
  })

  it('is used from the keyboard: the box filters, arrows reach the list, Enter takes a typed name', async () => {
    const harness = await openChat()
    modelButton().focus()
    fireEvent.click(modelButton())
    await settle()
    const box = screen.getByRole('textbox', { name: 'Search, or type a model name' })
    expect(document.activeElement).toBe(box)
    fireEvent.change(box, { target: { value: 'small' } })
    const list = screen.getByRole('list', { name: 'Models the provider lists' })
    expect(within(list).getAllByRole('button').map((b) => b.textContent)).toEqual(['Use “small”', 'gpt-small', 'Use the default (gpt-test)'])
    fireEvent.keyDown(box, { key: 'ArrowDown' })
    expect(document.activeElement?.textContent).toBe('Use “small”')
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    expect(document.activeElement?.textContent).toBe('gpt-small')
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' })
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' })
    expect(document.activeElement).toBe(box)

    fireEvent.change(box, { target: { value: 'my-local-model' } })
    expect(screen.getByText('No listed model matches. Press Enter to use the name as typed.')).toBeTruthy()
    fireEvent.keyDown(box, { key: 'Enter' })
    await settle()
    expect(harness.bridge.callsTo('sessions.setModel')).toEqual([{ sessionId: 's1', model: 'my-local-model' }])
  })

  it('goes back to the default, and says when the provider lists nothing or could not be asked', async () => {
    const harness = await openChat({ ...session('s1', 'Trip plans'), model: 'gpt-big' }, { 'models.list': { ...listed, models: [], fetchedAt: null, error: 'unreachable' } })
    fireEvent.click(modelButton())
    await settle()
    expect(screen.getByText('Could not get the list of models from https://api.example.com/v1. Type the model name above, or refresh.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Refresh list' }))
    await settle()
    expect(harness.bridge.callsTo('models.list')).toEqual([{}, { refresh: true }])
    fireEvent.click(screen.getByRole('button', { name: 'Use the default (gpt-test)' }))
    await settle()
    expect(harness.bridge.callsTo('sessions.setModel')).toEqual([{ sessionId: 's1', model: null }])
    expect(modelButton().textContent).toBe('gpt-test')
  })

  it('says plainly when no model is set, and leads to Settings → Provider to choose one', async () => {
    const harness = await renderApp({
      'settings.get': settingsView({ config: config((c) => (c.provider.model = '')) }),
      'models.list': { ...listed, models: [], defaultModel: '' }
    })
    await settle()
    expect(modelButton().textContent).toBe('No model set')
    expect(modelButton().getAttribute('aria-label')).toBe('Model: No model set. Change the model for the new conversation')
    fireEvent.click(modelButton())
    await settle()
    const dialog = screen.getByRole('dialog', { name: 'Model for the new conversation' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Choose the default model in Settings' }))
    await settle()
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(harness.app.ui.getState()).toMatchObject({ view: 'settings', settingsSection: 'provider' })
  })

  it('starts a new conversation on the model picked for it', async () => {
    const harness = await renderApp({ 'models.list': listed, 'chat.send': { sessionId: 's9', turnId: 't1' }, 'sessions.get': () => new Promise(() => {}) })
    expect(modelButton().getAttribute('aria-label')).toBe('Model: gpt-test. Change the model for the new conversation')
    fireEvent.click(modelButton())
    await settle()
    expect(screen.getByRole('dialog', { name: 'Model for the new conversation' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'gpt-small' }))
    await settle()
    expect(modelButton().textContent).toBe('gpt-small')
    const box = screen.getByRole('textbox', { name: 'Message' })
    fireEvent.change(box, { target: { value: 'Plan a trip' } })
    fireEvent.keyDown(box, { key: 'Enter' })
    await settle()
    expect(harness.bridge.callsTo('chat.send')).toEqual([{ sessionId: null, text: 'Plan a trip', model: 'gpt-small' }])
  })
})

describe('the running token count', () => {
  it('shows the conversation\'s total compactly, with what was sent, cached and received on hover and focus', async () => {
    const harness = await openChat({ ...session('s1', 'Trip plans'), inputTokens: 12_400, cachedTokens: 9_000, outputTokens: 830 })
    const badge = screen.getByTestId('token-count')
    expect(badge.textContent).toBe('13.2K tokens')
    expect(badge.tabIndex).toBe(0)
    const tip = document.getElementById(badge.getAttribute('aria-describedby')!)!
    expect(tip.getAttribute('role')).toBe('tooltip')
    expect(tip.textContent).toBe('This conversation so far, as the provider reported it: 12,400 tokens sent (9,000 of them from the prompt cache), 830 received.')

    // After a turn main reports the conversation changed; the list it reloads carries the new totals.
    harness.bridge.set('sessions.list', () => [{ ...session('s1', 'Trip plans'), inputTokens: 30_000, cachedTokens: 20_000, outputTokens: 2_000 }])
    // (the reload `sessions.changed` schedules, run now rather than after its debounce)
    await act(() => harness.app.sessions.getState().load())
    expect(screen.getByTestId('token-count').textContent).toBe('32K tokens')
  })

  it('is absent before the provider reported any usage', async () => {
    await openChat()
    expect(screen.queryByTestId('token-count')).toBeNull()
  })
})

describe('the quick prompt', () => {
  it('says which model answers', async () => {
    await renderApp({ 'chat.send': { sessionId: 'q1', turnId: 't1' }, 'sessions.get': () => new Promise(() => {}) }, { ui: <QuickApp />, windowKind: 'quick' })
    expect(screen.getByTestId('quick-model').textContent).toBe('gpt-test answers')
  })
})

import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { SettingsView } from '../../../shared/ipc/domain'
import { MAX_INSTRUCTIONS_CHARS } from '../../../shared/instructions'
import { message, session, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

/** Settings against a fake main that keeps what it is sent, like the real one. */
async function openSettings(view: SettingsView = settingsView({ hasApiKey: false, keyHint: null, keyStorage: 'none' }), extra: Parameters<typeof renderApp>[0] = {}) {
  let current = view
  const harness = await renderApp({
    'settings.get': () => current,
    'settings.update': ({ patch }) => {
      const p = patch as { provider?: object; agent?: object; learning?: object }
      const c = current.config
      current = { ...current, config: { ...c, provider: { ...c.provider, ...p.provider }, agent: { ...c.agent, ...p.agent }, learning: { ...c.learning, ...p.learning } } }
      return current
    },
    'settings.setApiKey': ({ apiKey, which }) => {
      const key = { hasApiKey: Boolean(apiKey), keyHint: apiKey ? apiKey.slice(-4) : null, keyStorage: apiKey ? ('os' as const) : ('none' as const) }
      current = which === 'learning' ? { ...current, learningKey: key } : { ...current, ...key }
      return current
    },
    'settings.testConnection': { ok: true, code: 'connected', baseURL: 'https://openrouter.ai/api/v1', models: ['openai/gpt-4o'], model: 'gpt-test', status: null },
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
  await settle()
  return harness
}

const providerCard = () => screen.getByRole('region', { name: 'Model provider' })

describe('settings: one Save', () => {
  it('saves a key that passed "Test connection" with the rest, by the one Save', async () => {
    const harness = await openSettings()
    fireEvent.click(screen.getByRole('radio', { name: 'OpenRouter' }))
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'sk-or-tested-1234' } })
    expect(screen.getByTestId('key-status').textContent).toBe('Saved by Save, with the rest of this section.')
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }))
    await settle()
    expect(harness.bridge.callsTo('settings.testConnection')).toEqual([expect.objectContaining({ apiKey: 'sk-or-tested-1234' })])
    fireEvent.click(within(providerCard()).getByRole('button', { name: 'Save' }))
    await settle()
    expect(harness.bridge.callsTo('settings.update')).toEqual([{ patch: { provider: { preset: 'openrouter', baseURL: '', model: 'gpt-test' } } }])
    expect(harness.bridge.callsTo('settings.setApiKey')).toEqual([{ apiKey: 'sk-or-tested-1234' }])
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('')
    expect(screen.getByTestId('key-status').textContent).toContain('•••• 1234')
    expect((within(providerCard()).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('lets Save store a typed key alone, and Enter in the key field does the same; Discard forgets it', async () => {
    const harness = await openSettings()
    const field = screen.getByLabelText('API key') as HTMLInputElement
    const save = within(providerCard()).getByRole('button', { name: 'Save' }) as HTMLButtonElement
    expect(save.disabled).toBe(true)
    fireEvent.change(field, { target: { value: 'sk-typed-5678' } })
    expect(save.disabled).toBe(false)
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }))
    expect(field.value).toBe('')
    fireEvent.change(field, { target: { value: 'sk-typed-5678' } })
    fireEvent.keyDown(field, { key: 'Enter' })
    await settle()
    expect(harness.bridge.callsTo('settings.update')).toEqual([])
    expect(harness.bridge.callsTo('settings.setApiKey')).toEqual([{ apiKey: 'sk-typed-5678' }])
  })

  it("saves a learning endpoint's own key with the endpoint, by the same Save", async () => {
    const none = { hasApiKey: false, keyHint: null, keyStorage: 'none' as const }
    const harness = await openSettings(settingsView({ ...none, learningKey: none }))
    fireEvent.change(screen.getByLabelText('Endpoint for learning'), { target: { value: 'http://10.0.0.9:8000/v1' } })
    fireEvent.change(screen.getByLabelText('API key for learning'), { target: { value: 'sk-learn-4321' } })
    fireEvent.click(within(providerCard()).getByRole('button', { name: 'Save' }))
    await settle()
    expect(harness.bridge.callsTo('settings.update')).toEqual([{ patch: expect.objectContaining({ learning: { model: '', baseURL: 'http://10.0.0.9:8000/v1' } }) }])
    expect(harness.bridge.callsTo('settings.setApiKey')).toEqual([{ apiKey: 'sk-learn-4321', which: 'learning' }])
  })

  it('keeps a typed key in its field when saving the settings failed', async () => {
    const harness = await openSettings(undefined, { 'settings.update': () => Promise.reject(new Error('config.json is read-only')) })
    fireEvent.click(screen.getByRole('radio', { name: 'OpenRouter' }))
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'sk-kept-0000' } })
    fireEvent.click(within(providerCard()).getByRole('button', { name: 'Save' }))
    await settle()
    expect(harness.bridge.callsTo('settings.setApiKey')).toEqual([])
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('sk-kept-0000')
  })
})

describe('custom instructions', () => {
  it('saves the global instructions from Settings and counts against the limit', async () => {
    const harness = await openSettings()
    const card = screen.getByRole('region', { name: 'Custom instructions' })
    const box = within(card).getByLabelText('Instructions for every conversation') as HTMLTextAreaElement
    const save = within(card).getByRole('button', { name: 'Save instructions' }) as HTMLButtonElement
    fireEvent.change(box, { target: { value: 'x'.repeat(MAX_INSTRUCTIONS_CHARS + 2) } })
    expect(within(card).getByText('2 characters over')).toBeTruthy()
    expect(save.disabled).toBe(true)
    fireEvent.change(box, { target: { value: '  I work in TypeScript.  ' } })
    expect(save.disabled).toBe(false)
    fireEvent.click(save)
    await settle()
    expect(harness.bridge.callsTo('settings.update')).toEqual([{ patch: { agent: { instructions: 'I work in TypeScript.' } } }])
    expect(box.value).toBe('I work in TypeScript.')
    expect(within(card).getByText(/applies from the next conversation/)).toBeTruthy()
  })

  it('sets a conversation\'s own instructions, saying that saving restarts its prompt', async () => {
    let current = session('s1', 'Thesis')
    const harness = await renderApp({
      'sessions.list': () => [current],
      'sessions.get': () => ({ session: current, messages: [message('user', 'hello')], running: false }),
      'chat.attach': { running: false, events: [] },
      'sessions.setInstructions': ({ instructions }) => (current = { ...current, instructions: instructions.trim() || undefined })
    })
    fireEvent.click(screen.getByRole('button', { name: /Thesis/ }))
    await settle()
    fireEvent.click(screen.getByRole('button', { name: 'Instructions for this conversation' }))
    const dialog = screen.getByRole('dialog', { name: 'Instructions for this conversation' })
    expect(within(dialog).getByText(/Saving restarts this conversation's prompt/)).toBeTruthy()
    const box = within(dialog).getByLabelText('Instructions') as HTMLTextAreaElement
    expect(document.activeElement).toBe(box)
    fireEvent.change(box, { target: { value: 'Point out unclear sentences.' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save and restart the prompt' }))
    await settle()
    expect(harness.bridge.callsTo('sessions.setInstructions')).toEqual([{ sessionId: 's1', instructions: 'Point out unclear sentences.' }])
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByRole('button', { name: 'Instructions for this conversation (set)' })).toBeTruthy()
    expect(screen.getByText("Instructions saved. The next message uses this conversation's restarted prompt.")).toBeTruthy()
  })
})

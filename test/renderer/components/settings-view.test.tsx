import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ConnectionTest, SettingsView } from '../../../shared/ipc/domain'
import { appInfo, config, learningStatus, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

async function openSettings(view: SettingsView = settingsView(), extra: Parameters<typeof renderApp>[0] = {}) {
  let current = view
  const harness = await renderApp({
    'settings.get': () => current,
    'settings.update': ({ patch }) => {
      const p = patch as { provider?: object; ui?: object; learning?: object }
      current = { ...current, config: { ...current.config, provider: { ...current.config.provider, ...p.provider }, ui: { ...current.config.ui, ...p.ui }, learning: { ...current.config.learning, ...p.learning } } }
      return current
    },
    'settings.setApiKey': ({ apiKey }) => {
      current = { ...current, hasApiKey: Boolean(apiKey), keyHint: apiKey ? apiKey.slice(-4) : null, keyStorage: apiKey ? 'os' : 'none' }
      return current
    },
    'settings.testConnection': { ok: true, code: 'connected', baseURL: 'https://openrouter.ai/api/v1', models: ['anthropic/claude-sonnet', 'openai/gpt-4o'], model: 'gpt-test', status: null },
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
  await settle()
  return harness
}

/** Settings is in sections: shows one by its tab in the section list. */
async function showSection(name: string) {
  fireEvent.click(screen.getByRole('tab', { name }))
  await settle()
}

describe('settings: provider', () => {
  it('prefills the base URL from the preset, tests the connection, fills the model picker and saves', async () => {
    const harness = await openSettings()
    const baseURL = screen.getByLabelText('Base URL') as HTMLInputElement
    expect(baseURL.value).toBe('https://api.openai.com/v1')
    expect(baseURL.readOnly).toBe(true)

    fireEvent.click(screen.getByRole('radio', { name: 'OpenRouter' }))
    expect(baseURL.value).toBe('https://openrouter.ai/api/v1')
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }))
    await settle()
    expect(harness.bridge.callsTo('settings.testConnection')).toEqual([{ preset: 'openrouter', baseURL: 'https://openrouter.ai/api/v1', model: 'gpt-test' }])
    expect(screen.getByText(/Connected to https:\/\/openrouter.ai/)).toBeTruthy()

    const picker = screen.getByLabelText('Model') as HTMLSelectElement
    expect([...picker.options].map((o) => o.value)).toEqual(['gpt-test', 'anthropic/claude-sonnet', 'openai/gpt-4o'])
    fireEvent.change(picker, { target: { value: 'openai/gpt-4o' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await settle()
    expect(harness.bridge.callsTo('settings.update')).toEqual([{ patch: { provider: { preset: 'openrouter', baseURL: '', model: 'openai/gpt-4o' } } }])
  })

  it('words a failed connection test from its code and data, in the UI language', async () => {
    const failed: ConnectionTest = { ok: false, code: 'auth', baseURL: 'https://api.openai.com/v1', models: [], model: 'gpt-test', status: 401 }
    await renderApp({ 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }), 'settings.testConnection': failed })
    fireEvent.click(screen.getByRole('button', { name: '设置' }))
    await settle()
    fireEvent.click(screen.getByRole('button', { name: '测试连接' }))
    await settle()
    expect(screen.getByText('连接失败。')).toBeTruthy()
    expect(screen.getByText(/https:\/\/api\.openai\.com\/v1 拒绝了该 API 密钥（HTTP 401）/)).toBeTruthy()
  })

  it('lets a custom provider set its own base URL', async () => {
    const harness = await openSettings()
    fireEvent.click(screen.getByRole('radio', { name: 'Custom' }))
    const baseURL = screen.getByLabelText('Base URL') as HTMLInputElement
    expect(baseURL.readOnly).toBe(false)
    fireEvent.change(baseURL, { target: { value: 'http://10.0.0.5:8000/v1' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await settle()
    expect(harness.bridge.callsTo('settings.update')).toEqual([{ patch: { provider: { preset: 'custom', baseURL: 'http://10.0.0.5:8000/v1', model: 'gpt-test' } } }])
  })

  it('never shows the API key back: the field clears and only the last four characters appear', async () => {
    const secret = 'sk-live-THIS-IS-SECRET-9876'
    const harness = await openSettings(settingsView({ hasApiKey: false, keyHint: null, keyStorage: 'none' }))
    const field = screen.getByLabelText('API key') as HTMLInputElement
    expect(field.type).toBe('password')
    expect(field.value).toBe('')
    fireEvent.change(field, { target: { value: secret } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await settle()
    expect(harness.bridge.callsTo('settings.setApiKey')).toEqual([{ apiKey: secret }])
    expect(field.value).toBe('')
    expect(screen.getByTestId('key-status').textContent).toContain('•••• 9876')
    expect(screen.getByTestId('key-status').textContent).toContain('stored in the system keychain')
    expect(document.body.innerHTML).not.toContain('THIS-IS-SECRET')
  })

  it('warns when the key is not in a keyring, or not saved at all in browser mode', async () => {
    await openSettings(settingsView({ keyStorage: 'basic_text' }))
    expect(screen.getByText(/saved in a file that is obfuscated but not encrypted/)).toBeTruthy()
  })

  it('warns in browser mode that a key entered here lasts only until the server stops', async () => {
    await openSettings(settingsView({ keyStorage: 'memory' }), { 'app.info': appInfo({ mode: 'browser' }) })
    expect(screen.getByText(/In browser mode a key entered here is not saved/)).toBeTruthy()
  })
})

describe('settings: remembering typed keys in browser mode', () => {
  it('says how long a typed key is kept, and remembers it on this computer when asked', async () => {
    const file = '/home/me/.cairn/secrets.local.json'
    const view = settingsView({ hasApiKey: true, keyHint: '1234', keyStorage: 'memory', rememberSecrets: { remember: false, file } })
    const harness = await openSettings(view, {
      'app.info': appInfo({ mode: 'browser' }),
      'settings.rememberSecrets': ({ remember }) => ({ ...view, keyStorage: remember ? 'file' : 'memory', rememberSecrets: { remember, file } })
    })
    expect(screen.getByText(/a key typed here is kept only until “cairn serve” stops, unless you remember it on this computer/)).toBeTruthy()
    const remember = screen.getByRole('switch', { name: 'Remember on this computer' })
    expect(remember.getAttribute('aria-checked')).toBe('false')
    expect(screen.getByText(/Saved in \/home\/me\/\.cairn\/secrets\.local\.json, readable only by your user account; never synced/)).toBeTruthy()
    fireEvent.click(remember)
    await settle()
    expect(harness.bridge.callsTo('settings.rememberSecrets')).toEqual([{ remember: true }])
    expect(screen.getByRole('switch', { name: 'Remember on this computer' }).getAttribute('aria-checked')).toBe('true')
    expect(screen.getByTestId('key-status').textContent).toContain('remembered on this computer')
    expect(screen.queryByText(/kept only until/)).toBeNull()
  })
})

describe('settings: learning and appearance', () => {
  it('saves learning switches and intervals via settings.update', async () => {
    const harness = await openSettings()
    await showSection('Learning')
    fireEvent.click(screen.getByRole('switch', { name: 'Create new skills' }))
    await settle()
    const interval = screen.getByLabelText('Memory review every') as HTMLInputElement
    fireEvent.change(interval, { target: { value: '5' } })
    fireEvent.blur(interval)
    await settle()
    expect(harness.bridge.callsTo('settings.update')).toEqual([{ patch: { learning: { allowSkillCreation: false } } }, { patch: { learning: { memoryNudgeInterval: 5 } } }])
  })

  it('shows paused learning with a Resume button', async () => {
    const harness = await openSettings(undefined, {
      'learning.status': learningStatus({ paused: true, pausedReason: { code: 'failures', count: 3, latest: 'The review took longer than its budget.' } }),
      'learning.resume': learningStatus()
    })
    await showSection('Learning')
    const section = screen.getByRole('region', { name: 'Learning' })
    expect(within(section).getByText(/the last 3 reviews crashed/)).toBeTruthy()
    fireEvent.click(within(section).getByRole('button', { name: 'Resume' }))
    await settle()
    expect(harness.bridge.callsTo('learning.resume')).toHaveLength(1)
    expect(within(section).queryByText(/the last 3 reviews crashed/)).toBeNull()
  })

  it('applies the theme at once and saves it', async () => {
    const harness = await openSettings()
    await showSection('Appearance')
    fireEvent.click(screen.getByRole('radio', { name: 'Dark' }))
    expect(harness.app.ui.getState().theme).toBe('dark')
    await settle()
    expect(harness.bridge.callsTo('settings.update')).toEqual([{ patch: { ui: { theme: 'dark' } } }])
  })

  it('switches the language of every string at once and saves it', async () => {
    const harness = await openSettings()
    await showSection('Appearance')
    expect(screen.getByRole('button', { name: 'Timeline' })).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'zh-CN' } })
    await settle()
    expect(screen.getByRole('button', { name: '时间线' })).toBeTruthy()
    expect(screen.getByRole('heading', { name: '设置' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Timeline' })).toBeNull()
    expect(harness.bridge.callsTo('settings.update')).toEqual([{ patch: { ui: { language: 'zh-CN' } } }])
  })

  it('follows a language change made in another window', async () => {
    const harness = await openSettings()
    const config = settingsView().config
    act(() => harness.bridge.emit('settings.changed', { config: { ...config, ui: { ...config.ui, language: 'zh-CN' } } }))
    await settle()
    expect(screen.getByRole('button', { name: '记忆' })).toBeTruthy()
  })

  it('records the global shortcut in the desktop app only', async () => {
    const harness = await openSettings()
    await showSection('Appearance')
    const button = screen.getByRole('button', { name: 'Change the quick prompt shortcut' })
    fireEvent.click(button)
    fireEvent.keyDown(button, { key: 'j', code: 'KeyJ', ctrlKey: true, altKey: true })
    await settle()
    expect(harness.bridge.callsTo('settings.update')).toEqual([{ patch: { ui: { shortcut: 'CommandOrControl+Alt+J' } } }])
  })
})

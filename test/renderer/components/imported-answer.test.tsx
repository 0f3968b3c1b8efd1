import { act, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { DisplayMessage } from '../../../shared/ipc/domain'
import { config, message, session, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

function routes(messages: DisplayMessage[], language: 'en' | 'zh-CN' = 'en') {
  return {
    'settings.get': settingsView({ config: config((c) => (c.ui.language = language)) }),
    'sessions.list': { sessions: [{ ...session('s1', 'Choosing a database'), source: 'import:chatgpt', model: null }], nextCursor: null },
    'sessions.get': { session: { ...session('s1', 'Choosing a database'), source: 'import:chatgpt', model: null }, messages, running: false, page: { hasOlder: false } }
  }
}

const imported = (): DisplayMessage[] => [
  message('user', 'Postgres or SQLite?'),
  message('assistant', 'SQLite: one file.', { model: 'o3', importedFrom: 'chatgpt' }),
  message('user', 'And the import from Claude?'),
  message('assistant', 'Claude said hello.', { importedFrom: 'claude' }),
  message('user', 'And now?'),
  message('assistant', 'Still SQLite.', { model: 'scripted' })
]

describe('an imported answer says where it came from', () => {
  it('shows “ChatGPT · o3” under an imported answer, the app alone without a model, and nothing under Cairn’s own', async () => {
    const harness = await renderApp(routes(imported()))
    await act(async () => {
      await harness.app.chat.getState().openSession('s1')
    })
    await settle()
    const labels = screen.getAllByTestId('imported-model')
    expect(labels.map((label) => label.textContent)).toEqual(['ChatGPT · o3', 'Claude.ai'])
    expect(labels[0].getAttribute('title')).toBe('Imported from ChatGPT, written by o3. Going on here answers with your model.')
    expect(screen.getByText('Still SQLite.').closest('.message')!.querySelector('[data-testid="imported-model"]')).toBeNull()
  })

  it('in Chinese too', async () => {
    const harness = await renderApp(routes(imported(), 'zh-CN'))
    await act(async () => {
      await harness.app.chat.getState().openSession('s1')
    })
    await settle()
    const labels = screen.getAllByTestId('imported-model')
    expect(labels[0].textContent).toBe('ChatGPT · o3')
    expect(labels[0].getAttribute('title')).toBe('从 ChatGPT 导入，由 o3 撰写。在这里继续时使用你的模型回答。')
  })
})

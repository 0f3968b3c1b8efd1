import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { config, message, session, settingsView, turnEvents } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const user = message('user', 'Add 2 and 3')
const mcpRequest = {
  type: 'approval_needed' as const,
  requestId: 'm1',
  callId: 'c1',
  kind: 'mcp' as const,
  tool: 'mcp__everything__get-sum',
  summary: 'Use get-sum from everything',
  server: 'everything',
  mcpTool: 'get-sum',
  preview: '{\n  "a": 2,\n  "b": "<img src=x onerror=alert(1)>"\n}',
  scopes: ['once', 'session', 'tool']
}

async function ask(extra: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({
    'sessions.list': [session('s1', 'Sums')],
    'sessions.get': { session: session('s1', 'Sums'), messages: [user], running: false },
    'chat.approve': { accepted: true },
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: /^Sums/ }))
  await settle()
  act(() => {
    for (const event of turnEvents('s1', 't2', [{ type: 'turn_started', userMessageId: user.id }, mcpRequest])) harness.bridge.emit('chat.event', event)
    harness.frames.run()
  })
  return harness
}

describe('approval card for an MCP tool', () => {
  it('names the tool and its server, shows the arguments as plain text, and words each answer by what it grants', async () => {
    const harness = await ask()
    const card = screen.getByRole('region', { name: 'Permission needed' })
    expect(within(card).getByText('Cairn wants to use a tool from an MCP server')).toBeTruthy()
    expect(within(card).getByText('Use get-sum from everything')).toBeTruthy()
    const args = within(card).getByRole('group', { name: 'Arguments' })
    expect(args.querySelector('pre')?.textContent).toBe(mcpRequest.preview)
    // Text, never HTML.
    expect(card.querySelector('img')).toBeNull()
    expect(within(card).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Allow once',
      'Allow get-sum in this conversation',
      'Always allow get-sum from everything, with any arguments',
      'Deny'
    ])
    fireEvent.click(within(card).getByRole('button', { name: 'Always allow get-sum from everything, with any arguments' }))
    await settle()
    expect(harness.bridge.callsTo('chat.approve')).toEqual([{ sessionId: 's1', requestId: 'm1', allow: true, remember: 'tool' }])
  })

  it('says it in Chinese', async () => {
    await ask({ 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    const card = screen.getByRole('region', { name: '需要你的许可' })
    expect(within(card).getByText('使用 everything 的 get-sum')).toBeTruthy()
    expect(within(card).getByRole('button', { name: '始终允许 everything 的 get-sum（任何参数）' })).toBeTruthy()
  })
})

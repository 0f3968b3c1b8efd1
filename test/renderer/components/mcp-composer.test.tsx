import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { McpPromptInfo } from '../../../shared/mcp'
import { config, message, session, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const prompts: McpPromptInfo[] = [
  { server: 'everything', name: 'simple-prompt', description: 'A prompt without arguments', arguments: [] },
  { server: 'everything', name: 'args-prompt', description: 'A prompt with arguments', arguments: [{ name: 'city', required: true }, { name: 'state' }] }
]
const withServers = settingsView({ config: config((c) => (c.mcpServers = { everything: { command: 'node' } })) })

async function openChat(extra: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({
    'settings.get': withServers,
    'sessions.list': [session('s1', 'Tools day')],
    'sessions.get': { session: session('s1', 'Tools day'), messages: [message('user', 'Earlier')], running: false },
    'chat.send': { sessionId: 's1', turnId: 't2' },
    'mcp.prompts': prompts,
    'mcp.getPrompt': ({ name, arguments: args }) => ({ text: name === 'simple-prompt' ? 'This is a simple prompt.' : `Weather in ${args?.city}` }),
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: /^Tools day/ }))
  await settle()
  return harness
}

const box = () => screen.getByLabelText('Message') as HTMLTextAreaElement

describe('MCP in the composer', () => {
  it('offers the servers’ prompts on "/" and fills the composer with the picked one', async () => {
    const harness = await openChat()
    fireEvent.change(box(), { target: { value: '/' } })
    await settle()
    // One menu with the saved prompts (none here): the servers' prompts, then "Manage prompts…" (issue 29, part F).
    const list = screen.getByRole('listbox', { name: 'Prompts' })
    expect(within(list).getAllByRole('option').map((option) => option.querySelector('.slash-menu-name')?.textContent)).toEqual(['/everything:simple-prompt', '/everything:args-prompt', 'Manage prompts…'])
    expect(box().getAttribute('role')).toBe('combobox')

    fireEvent.change(box(), { target: { value: '/simple' } })
    await settle()
    fireEvent.keyDown(box(), { key: 'Enter' })
    await settle()
    expect(harness.bridge.callsTo('mcp.getPrompt')).toEqual([{ server: 'everything', name: 'simple-prompt', arguments: {} }])
    expect(box().value).toBe('This is a simple prompt.')
    // Enter picked the prompt; nothing was sent.
    expect(harness.bridge.callsTo('chat.send')).toEqual([])
  })

  it('asks for a prompt’s arguments in a small form, requiring the required ones', async () => {
    const harness = await openChat()
    fireEvent.change(box(), { target: { value: '/' } })
    await settle()
    fireEvent.keyDown(box(), { key: 'ArrowDown' })
    fireEvent.keyDown(box(), { key: 'Enter' })
    const form = screen.getByRole('dialog', { name: 'Prompt /everything:args-prompt' })
    const use = within(form).getByRole('button', { name: 'Use prompt' }) as HTMLButtonElement
    expect(use.disabled).toBe(true)
    fireEvent.change(within(form).getByLabelText(/^city/), { target: { value: 'Paris' } })
    fireEvent.click(use)
    await settle()
    expect(harness.bridge.callsTo('mcp.getPrompt')).toEqual([{ server: 'everything', name: 'args-prompt', arguments: { city: 'Paris' } }])
    expect(box().value).toBe('Weather in Paris')
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('Esc closes the menu and keeps the text; a message that matches no prompt gets no menu', async () => {
    await openChat()
    fireEvent.change(box(), { target: { value: '/' } })
    await settle()
    fireEvent.keyDown(box(), { key: 'Escape' })
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(box().value).toBe('/')
    fireEvent.change(box(), { target: { value: '/etc/hosts' } })
    await settle()
    expect(screen.queryByRole('listbox')).toBeNull()
  })

  it('attaches a resource’s text from an MCP server as a text file', async () => {
    const harness = await openChat({
      'mcp.resources': [{ server: 'everything', uri: 'demo://resource/static/document/architecture.md', name: 'architecture.md', mimeType: 'text/markdown' }],
      'mcp.readResource': { name: 'architecture.md', mimeType: 'text/markdown', text: '# Architecture' }
    })
    fireEvent.click(screen.getByRole('button', { name: 'Attach from MCP server' }))
    await settle()
    const dialog = screen.getByRole('dialog', { name: 'Attach a resource from an MCP server' })
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Attach architecture.md' })))
    await settle()
    expect(harness.bridge.callsTo('mcp.readResource')).toEqual([{ server: 'everything', uri: 'demo://resource/static/document/architecture.md' }])
    const form = box().closest('form')!
    await waitFor(() => expect(within(form).queryAllByRole('listitem').map((chip) => chip.textContent)).toEqual(['architecture.mdText · 14 B']))
    fireEvent.change(box(), { target: { value: 'Summarise it' } })
    fireEvent.keyDown(box(), { key: 'Enter' })
    await settle()
    const sent = harness.bridge.callsTo('chat.send')[0] as { attachments: Array<{ name: string; mime: string; data: string }> }
    expect(sent.attachments).toEqual([{ name: 'architecture.md', mime: 'text/markdown', data: btoa('# Architecture') }])
  })

  it('reloads the conversation’s tools after saying it restarts the prompt cache', async () => {
    const harness = await openChat({ 'chat.reloadTools': { ok: true } })
    fireEvent.click(screen.getByRole('button', { name: 'Reload tools' }))
    const dialog = screen.getByRole('dialog', { name: 'Reload tools' })
    expect(within(dialog).getByText(/prompt cache starts again/)).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reload tools' }))
    await settle()
    expect(harness.bridge.callsTo('chat.reloadTools')).toEqual([{ sessionId: 's1' }])
  })

  it('shows neither MCP button while no server is configured', async () => {
    await openChat({ 'settings.get': settingsView() })
    expect(screen.queryByRole('button', { name: 'Attach from MCP server' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Reload tools' })).toBeNull()
  })
})

import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { IpcError } from '../../../shared/ipc/define'
import type { McpPromptInfo } from '../../../shared/mcp'
import type { PromptFileProblem, SavedPrompt } from '../../../shared/prompts'
import { config, message, session, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const saved: SavedPrompt[] = [
  { name: 'standup', description: 'Daily standup notes', variables: [{ name: 'team', description: 'Which team', default: 'Platform' }, { name: 'day' }], body: 'Standup for {{team}} on {{day}}.' },
  { name: 'tldr', description: 'Shorten the last answer', variables: [], body: 'Give me the short version.' }
]
const mcpPrompts: McpPromptInfo[] = [{ server: 'everything', name: 'simple-prompt', description: 'A prompt without arguments', arguments: [] }]
const problems: PromptFileProblem[] = [{ file: 'prompts/broken.md', issue: 'front_matter', detail: 'bad indentation' }]

async function openChat(extra: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({
    'settings.get': settingsView({ config: config((c) => (c.mcpServers = { everything: { command: 'node' } })) }),
    'sessions.list': [session('s1', 'Prompts day')],
    'sessions.get': { session: session('s1', 'Prompts day'), messages: [message('user', 'Earlier')], running: false },
    'chat.send': { sessionId: 's1', turnId: 't2' },
    'mcp.prompts': mcpPrompts,
    'mcp.getPrompt': { text: 'This is a simple prompt.' },
    'prompts.list': { prompts: saved, problems },
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: /^Prompts day/ }))
  await settle()
  return harness
}

const box = () => screen.getByLabelText('Message') as HTMLTextAreaElement
const typeInBox = async (value: string) => {
  fireEvent.change(box(), { target: { value } })
  await settle()
}
const menu = () => screen.getByRole('listbox', { name: 'Prompts' })
const optionNames = () => within(menu()).getAllByRole('option').map((option) => option.querySelector('.slash-menu-name')?.textContent)
const activeName = () => document.getElementById(box().getAttribute('aria-activedescendant')!)?.querySelector('.slash-menu-name')?.textContent

describe('the / menu: saved prompts beside the MCP servers’ prompts', () => {
  it('groups saved prompts, MCP prompts and "Manage prompts…", filters as you type, and moves with ↑/↓', async () => {
    await openChat()
    await typeInBox('/')
    expect(within(menu()).getAllByRole('group').map((group) => group.getAttribute('aria-labelledby') ? document.getElementById(group.getAttribute('aria-labelledby')!)?.textContent : 'manage')).toEqual([
      'Saved prompts',
      'From MCP servers',
      'manage'
    ])
    expect(optionNames()).toEqual(['/standup', '/tldr', '/everything:simple-prompt', 'Manage prompts…'])
    expect(activeName()).toBe('/standup')
    fireEvent.keyDown(box(), { key: 'ArrowUp' })
    expect(activeName()).toBe('Manage prompts…')
    fireEvent.keyDown(box(), { key: 'ArrowDown' })
    fireEvent.keyDown(box(), { key: 'ArrowDown' })
    expect(activeName()).toBe('/tldr')
    await typeInBox('/short')
    expect(optionNames()).toEqual(['/tldr', 'Manage prompts…'])
    fireEvent.keyDown(box(), { key: 'Escape' })
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(box().value).toBe('/short')
  })

  it('asks for a saved prompt’s variables with defaults prefilled, and Enter puts the filled text in the box without sending', async () => {
    const harness = await openChat()
    await typeInBox('/stand')
    fireEvent.keyDown(box(), { key: 'Enter' })
    const form = screen.getByRole('dialog', { name: 'Fill in “standup”' })
    const team = within(form).getByLabelText(/^team/) as HTMLInputElement
    expect(team.value).toBe('Platform')
    expect(document.activeElement).toBe(team)
    fireEvent.change(within(form).getByLabelText(/^day/), { target: { value: 'Monday' } })
    fireEvent.submit(team.closest('form')!)
    await settle()
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(box().value).toBe('Standup for Platform on Monday.')
    expect(harness.bridge.callsTo('chat.send')).toEqual([])
  })

  it('inserts a prompt without variables at once; MCP prompts still come from their server', async () => {
    const harness = await openChat()
    await typeInBox('/tl')
    fireEvent.keyDown(box(), { key: 'Tab' })
    await settle()
    expect(box().value).toBe('Give me the short version.')
    await typeInBox('/simple')
    fireEvent.keyDown(box(), { key: 'Enter' })
    await settle()
    expect(harness.bridge.callsTo('mcp.getPrompt')).toEqual([{ server: 'everything', name: 'simple-prompt', arguments: {} }])
    expect(box().value).toBe('This is a simple prompt.')
  })
})

describe('the Prompt library dialog', () => {
  it('opens from "Manage prompts…", lists prompts and unreadable files, creates one with its variables found in the text', async () => {
    const harness = await openChat({ 'prompts.save': ({ previousName: _previous, ...prompt }) => prompt })
    await typeInBox('/')
    fireEvent.mouseDown(within(menu()).getByText('Manage prompts…'))
    await settle()
    const dialog = screen.getByRole('dialog', { name: 'Prompt library' })
    expect(box().value).toBe('')
    expect(within(dialog).getByText('/standup')).toBeTruthy()
    expect(within(dialog).getByText(/prompts\/broken\.md: its front matter is not valid YAML \(bad indentation\)/)).toBeTruthy()

    fireEvent.click(within(dialog).getByRole('button', { name: 'New prompt' }))
    const editor = screen.getByRole('dialog', { name: 'New prompt' })
    fireEvent.change(within(editor).getByLabelText(/^Name/), { target: { value: 'Code Review' } })
    fireEvent.change(within(editor).getByLabelText(/^Prompt/), { target: { value: 'Review {{file}} for {{ concern }}.' } })
    expect(within(editor).getAllByRole('textbox', { name: /^Default for/ }).map((input) => input.getAttribute('aria-label'))).toEqual(['Default for file', 'Default for concern'])
    fireEvent.change(within(editor).getByLabelText('Default for concern'), { target: { value: 'naming' } })
    fireEvent.click(within(editor).getByRole('button', { name: 'Save prompt' }))
    await settle()
    expect(harness.bridge.callsTo('prompts.save')).toEqual([
      { name: 'code-review', description: '', body: 'Review {{file}} for {{ concern }}.', variables: [{ name: 'file' }, { name: 'concern', default: 'naming' }] }
    ])
    expect(screen.getByRole('dialog', { name: 'Prompt library' })).toBeTruthy()
  })

  it('edits under the same name and deletes after asking; a refusal is shown in words', async () => {
    const harness = await openChat({
      'prompts.save': () => {
        throw IpcError.of('CONFLICT', 'prompts.exists', { name: 'tldr' })
      },
      'prompts.delete': { ok: true }
    })
    // Ctrl/Cmd+Shift+L opens the library from anywhere (it is listed with the shortcuts).
    harness.app.ui.getState().navigate('memory')
    await settle()
    fireEvent.keyDown(window, { key: 'L', ctrlKey: true, shiftKey: true })
    await settle()
    const dialog = screen.getByRole('dialog', { name: 'Prompt library' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Edit tldr' }))
    const editor = screen.getByRole('dialog', { name: 'Edit “tldr”' })
    fireEvent.click(within(editor).getByRole('button', { name: 'Save prompt' }))
    await settle()
    expect(harness.bridge.callsTo('prompts.save')[0]).toMatchObject({ name: 'tldr', previousName: 'tldr' })
    expect(within(editor).getByRole('alert').textContent).toContain('There is already a prompt named "tldr"')
    fireEvent.click(within(editor).getByRole('button', { name: 'Back to the list' }))
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Prompt library' })).getByRole('button', { name: 'Delete tldr' }))
    expect(harness.bridge.callsTo('prompts.delete')).toEqual([])
    const confirm = screen.getByRole('group', { name: 'Delete tldr' })
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete tldr' }))
    await settle()
    expect(harness.bridge.callsTo('prompts.delete')).toEqual([{ name: 'tldr' }])
  })
})

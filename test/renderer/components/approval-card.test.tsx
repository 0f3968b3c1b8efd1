import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { englishLeft, textWithout } from '../helpers/english'
import type { RouteHandlers } from '../helpers/fake-transport'
import { config, message, session, settingsView, turnEvents } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

/** Read and fetch approvals: worded for what they do, and offering only the answers the request allows. */

const user = message('user', 'Summarise the README')
const chinese = { 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) }

const readRequest = {
  type: 'approval_needed' as const,
  requestId: 'r1',
  callId: 'c1',
  kind: 'read' as const,
  tool: 'read_file',
  summary: 'Read /home/ada/private/credentials.env (outside the workspace /home/ada/Cairn)',
  path: '/home/ada/private/credentials.env',
  folder: '/home/ada/private',
  scopes: ['once', 'session', 'folder']
}
const fetchRequest = {
  type: 'approval_needed' as const,
  requestId: 'r2',
  callId: 'c2',
  kind: 'fetch' as const,
  tool: 'fetch_url',
  summary: 'Fetch http://127.0.0.1:8123/c?page=2',
  url: 'http://127.0.0.1:8123/c?page=2',
  host: '127.0.0.1:8123',
  scopes: ['once', 'session', 'host']
}
const carryingRequest = {
  ...fetchRequest,
  requestId: 'r3',
  url: 'http://127.0.0.1:8123/c?k=sk-live-4Rt9ZpW2xLm7Qv',
  summary: 'Fetch http://127.0.0.1:8123/c?k=sk-live-4Rt9ZpW2xLm7Qv; the address carries "sk-live-4Rt9ZpW2xLm7Qv", text read in this turn',
  carriedData: 'sk-live-4Rt9ZpW2xLm7Qv',
  scopes: ['once']
}

async function openChat(extra: RouteHandlers = {}) {
  const harness = await renderApp({
    'sessions.list': [session('s1', 'Reading day')],
    'sessions.get': { session: session('s1', 'Reading day'), messages: [user], running: false },
    'chat.approve': { accepted: true },
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: /^Reading day/ }))
  await settle()
  return harness
}

function ask(harness: Awaited<ReturnType<typeof openChat>>, ...requests: Array<Record<string, unknown> & { type: 'approval_needed' }>) {
  act(() => {
    for (const event of turnEvents('s1', 't2', [{ type: 'turn_started', userMessageId: user.id }, ...requests])) harness.bridge.emit('chat.event', event)
    harness.frames.run()
  })
}

const buttons = (card: HTMLElement) => within(card).getAllByRole('button').map((button) => button.textContent)

describe('approval cards for reads and fetches', () => {
  it('a read outside the workspace names the real path and offers its folder "always"', async () => {
    const harness = await openChat()
    ask(harness, readRequest)
    const card = screen.getByRole('region', { name: 'Permission needed' })
    expect(within(card).getByText('Cairn wants to read outside the workspace')).toBeTruthy()
    expect(within(card).getByText('Read /home/ada/private/credentials.env')).toBeTruthy()
    expect(buttons(card)).toEqual(['Allow once', 'Allow reading this file for this conversation', 'Always allow reading in /home/ada/private', 'Deny'])
    fireEvent.click(within(card).getByRole('button', { name: 'Always allow reading in /home/ada/private' }))
    await settle()
    // The folder is the request's own: the answer only says "folder".
    expect(harness.bridge.callsTo('chat.approve')).toEqual([{ sessionId: 's1', requestId: 'r1', allow: true, remember: 'folder' }])
  })

  it('words "this conversation" by what it covers: the file read, or the folder and everything in it', async () => {
    const harness = await openChat()
    // A folder listed: this conversation covers it and below; "always" the same folder.
    ask(harness, { ...readRequest, tool: 'list_dir', path: '/srv/data', folder: '/srv/data', readsFolder: true })
    expect(buttons(screen.getByRole('region', { name: 'Permission needed' }))).toEqual([
      'Allow once',
      'Allow reading this folder and everything in it for this conversation',
      'Always allow reading in /srv/data',
      'Deny'
    ])
  })

  it('offers no folder for a file right in the home folder, and only "once" for listing the home folder', async () => {
    const harness = await openChat()
    ask(
      harness,
      { ...readRequest, requestId: 'r4', path: '/home/ada/.bashrc', folder: undefined, scopes: ['once', 'session'] },
      { ...readRequest, requestId: 'r5', tool: 'list_dir', path: '/home/ada', folder: undefined, readsFolder: true, scopes: ['once'] }
    )
    const [file, home] = screen.getAllByRole('region', { name: 'Permission needed' })
    expect(buttons(file)).toEqual(['Allow once', 'Allow reading this file for this conversation', 'Deny'])
    expect(buttons(home)).toEqual(['Allow once', 'Deny'])
  })

  it.each([
    ['list_dir', 'List the folder /home/ada/private/credentials.env'],
    ['search_files', 'Search in /home/ada/private/credentials.env']
  ])('words %s by what it does', async (tool, title) => {
    const harness = await openChat()
    ask(harness, { ...readRequest, tool })
    expect(within(screen.getByRole('region', { name: 'Permission needed' })).getByText(title)).toBeTruthy()
  })

  it('a fetch names the host, shows the whole address and offers that host "always"', async () => {
    const harness = await openChat()
    ask(harness, fetchRequest)
    const card = screen.getByRole('region', { name: 'Permission needed' })
    expect(within(card).getByText('Cairn wants to fetch a web address')).toBeTruthy()
    expect(within(card).getByText('Fetch from 127.0.0.1:8123')).toBeTruthy()
    expect(within(card).getByText('http://127.0.0.1:8123/c?page=2')).toBeTruthy()
    expect(buttons(card)).toEqual(['Allow once', 'Allow fetching from 127.0.0.1:8123 for this conversation', 'Always allow fetching from 127.0.0.1:8123', 'Deny'])
    fireEvent.click(within(card).getByRole('button', { name: 'Always allow fetching from 127.0.0.1:8123' }))
    await settle()
    expect(harness.bridge.callsTo('chat.approve')).toEqual([{ sessionId: 's1', requestId: 'r2', allow: true, remember: 'host' }])
  })

  it('a fetch that carries data read this turn says so and offers only "once"', async () => {
    const harness = await openChat()
    ask(harness, carryingRequest)
    const card = screen.getByRole('region', { name: 'Permission needed' })
    expect(within(card).getByRole('note').textContent).toBe(
      'This address contains “sk-live-4Rt9ZpW2xLm7Qv”, which Cairn read during this turn: allowing it could send that data to 127.0.0.1:8123. It is asked every time.'
    )
    expect(buttons(card)).toEqual(['Allow once', 'Deny'])
  })

  it('says all of it in Chinese', async () => {
    const harness = await openChat(chinese)
    ask(harness, carryingRequest)
    let card = screen.getByRole('region', { name: '需要你的许可' })
    expect(within(card).getByText('Cairn 想要获取一个网址')).toBeTruthy()
    expect(within(card).getByText('从 127.0.0.1:8123 获取')).toBeTruthy()
    expect(buttons(card)).toEqual(['允许一次', '拒绝'])
    expect(englishLeft(textWithout(card, '.approval-path, .approval-tool, kbd'), ['sk-live-4Rt9ZpW2xLm7Qv'])).toEqual([])

    act(() => {
      harness.bridge.emit('chat.event', turnEvents('s1', 't2', [{ type: 'approval_resolved', requestId: 'r3', allowed: false, remembered: 'once' }])[0])
      for (const event of turnEvents('s1', 't2', [readRequest, fetchRequest])) harness.bridge.emit('chat.event', event)
      harness.frames.run()
    })
    const [read, fetch] = screen.getAllByRole('region', { name: '需要你的许可' })
    card = read
    expect(within(card).getByText('读取 /home/ada/private/credentials.env')).toBeTruthy()
    expect(buttons(read)).toEqual(['允许一次', '本次对话内允许读取这个文件', '始终允许读取 /home/ada/private', '拒绝'])
    expect(buttons(fetch)).toEqual(['允许一次', '本次对话内允许从 127.0.0.1:8123 获取', '始终允许从 127.0.0.1:8123 获取', '拒绝'])
    for (const region of [read, fetch]) expect(englishLeft(textWithout(region, '.approval-path, .approval-tool, kbd'), ['/home/ada/private/credentials.env', '/home/ada/private'])).toEqual([])
  })
})

describe('approval cards for commands', () => {
  const commandRequest = {
    type: 'approval_needed' as const,
    requestId: 'c1',
    callId: 'cc1',
    kind: 'command' as const,
    tool: 'run_command',
    summary: 'Run `npm test` in /home/ada/Cairn',
    command: 'npm test',
    cwd: '/home/ada/Cairn',
    prefix: 'npm test',
    scopes: ['once', 'session', 'prefix']
  }

  it.each([
    ['npm test', 'Allow "npm test" for this conversation, with more arguments but no options', 'Always allow "npm test", with more arguments but no options'],
    ['git log', 'Allow "git log" for this conversation, without options that write files or run programs', 'Always allow "git log" without options that write files or run programs'],
    ['rm -rf build', 'Allow exactly "rm -rf build" for this conversation', 'Always allow exactly "rm -rf build"']
  ])('"this conversation" for `%s` names the prefix it grants, under the rule of its "always"', async (prefix, session, always) => {
    const harness = await openChat()
    ask(harness, { ...commandRequest, command: prefix, prefix })
    const card = screen.getByRole('region', { name: 'Permission needed' })
    expect(buttons(card)).toEqual(['Allow once', session, always, 'Deny'])
    fireEvent.click(within(card).getByRole('button', { name: session }))
    await settle()
    expect(harness.bridge.callsTo('chat.approve')).toEqual([{ sessionId: 's1', requestId: 'c1', allow: true, remember: 'session' }])
  })

  it('offers only "once" for a command without a prefix or run outside the workspace', async () => {
    const harness = await openChat()
    ask(
      harness,
      { ...commandRequest, command: '$(printf rm) -rf x', prefix: undefined, scopes: ['once'] },
      { ...commandRequest, requestId: 'c2', cwd: '/tmp/secret', outsideWorkspace: true, prefix: undefined, scopes: ['once'] }
    )
    const cards = screen.getAllByRole('region', { name: 'Permission needed' })
    expect(cards.map(buttons)).toEqual([
      ['Allow once', 'Deny'],
      ['Allow once', 'Deny']
    ])
  })

  it('says it in Chinese', async () => {
    const harness = await openChat(chinese)
    ask(harness, commandRequest)
    const card = screen.getByRole('region', { name: '需要你的许可' })
    expect(buttons(card)).toEqual(['允许一次', '本次对话内允许“npm test”（可加参数，但不可加选项）', '始终允许“npm test”（可加参数，但不可加选项）', '拒绝'])
  })
})

describe('an approval card for a command built to mislead', () => {
  it('writes out carriage returns, escapes and bidi overrides instead of letting them hide what runs', async () => {
    const harness = await openChat()
    const command = 'ls -la ./docs/\r\u001b[2Kls -la ./docs/\u202e; touch pwned'
    ask(harness, { type: 'approval_needed', requestId: 'r9', callId: 'c9', kind: 'command', tool: 'run_command', summary: 'Run it', command, cwd: '/home/ada/Cairn', preview: command, scopes: ['once'] })
    const card = screen.getByRole('region', { name: 'Permission needed' })
    const shown = within(card).getAllByText(/touch pwned/).map((element) => element.textContent)
    expect(shown).toContain('ls -la ./docs/\\r\\x1b[2Kls -la ./docs/\\u202e; touch pwned')
    expect(card.textContent).not.toMatch(/[\r\u001b\u202e]/)
  })
})

import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { englishLeft } from '../helpers/english'
import { config, message, session, settingsView, turnEvents } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

/** Tool calls read as what they did: a terminal, a diff, a page, a summary; never raw JSON. */

const user = message('user', 'Fix the tests')

async function openChat(extra: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({
    'sessions.list': [session('s1', 'Fixing day')],
    'sessions.get': { session: session('s1', 'Fixing day'), messages: [user], running: false },
    'chat.approve': { accepted: true },
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: /^Fixing day/ }))
  await settle()
  return harness
}

type Harness = Awaited<ReturnType<typeof openChat>>

function emit(harness: Harness, events: Array<Record<string, unknown> & { type: string }>) {
  act(() => {
    for (const event of turnEvents('s1', 't2', events as Parameters<typeof turnEvents>[2])) harness.bridge.emit('chat.event', event)
    harness.frames.run()
  })
}

function call(harness: Harness, name: string, args: Record<string, unknown>, result?: Record<string, unknown>, ok = true) {
  const callId = `c-${name}`
  emit(harness, [
    { type: 'turn_started', userMessageId: user.id },
    { type: 'assistant_message', messageId: 50, content: '', toolCallCount: 1 },
    { type: 'tool_call_started', callId, name, arguments: JSON.stringify(args) },
    ...(result ? [{ type: 'tool_call_finished', callId, name, ok, result: JSON.stringify(result), durationMs: 40, messageId: 51 }] : [])
  ])
}

const row = (title: string | RegExp) => screen.getByRole('button', { name: title }).closest('.tool-call') as HTMLElement

describe('a command', () => {
  const stdout = Array.from({ length: 30 }, (_, i) => `test ${i + 1} passed`).join('\n')

  it('renders as a terminal block: command, output, errors, exit code and duration, folded when long', async () => {
    const harness = await openChat()
    call(harness, 'run_command', { command: 'npm test' }, { success: true, exit_code: 1, signal: null, timed_out: false, stdout, stderr: 'warn: 1 flaky\n', duration_ms: 2345, cwd: '.' })
    const block = row(/Ran a command/)
    expect(within(block).getByRole('button', { name: /Ran a command/ }).getAttribute('aria-expanded')).toBe('true')
    expect(block.querySelector('.terminal-command')!.textContent).toBe('$ npm test')
    expect(within(block).getByText('exit 1').className).toContain('bad')
    expect(within(block).getByText('2.3 s')).toBeTruthy()
    expect(within(block).getByText('warn: 1 flaky')).toBeTruthy()
    const output = block.querySelector('.terminal-stdout')!
    expect(output.textContent).toContain('test 12 passed')
    expect(output.textContent).not.toContain('test 13 passed')
    expect(block.textContent).not.toContain('\\n')
    expect(block.textContent).not.toContain('"exit_code"')
    fireEvent.click(within(block).getByRole('button', { name: 'Show all 30 lines' }))
    expect(output.textContent).toContain('test 30 passed')
    fireEvent.click(within(block).getByRole('button', { name: /Ran a command/ }))
    expect(block.querySelector('.terminal')).toBeNull()
  })

  it('says "Waiting for your approval" (not "Running…") until answered, takes focus, and answers from the keyboard', async () => {
    const harness = await openChat()
    call(harness, 'run_command', { command: 'rm -rf build' })
    emit(harness, [{ type: 'approval_needed', requestId: 'r1', callId: 'c-run_command', kind: 'command', tool: 'run_command', summary: 'Run', command: 'rm -rf build', cwd: '/w', prefix: 'rm' }])
    const pending = row(/Run a command/)
    expect(within(pending).getByText('Waiting for your approval')).toBeTruthy()
    expect(within(pending).queryByText('Running…')).toBeNull()
    const card = screen.getByRole('region', { name: 'Permission needed' })
    expect(document.activeElement).toBe(card)
    expect(card.querySelector('.approval-keys')!.textContent).toBe('Enter Allow once · Esc Deny')
    fireEvent.keyDown(card, { key: 'Enter' })
    await settle()
    expect(harness.bridge.callsTo('chat.approve')).toEqual([{ sessionId: 's1', requestId: 'r1', allow: true, remember: 'once' }])
    emit(harness, [{ type: 'approval_resolved', requestId: 'r1', allowed: true, remembered: 'once' }])
    expect(within(row(/Run a command/)).getByText('Running…')).toBeTruthy()
  })

  it('Esc on the card denies, and does not stop the turn', async () => {
    const harness = await openChat({ 'chat.cancel': { cancelled: true } })
    call(harness, 'write_file', { path: 'notes.md', content: 'x' })
    emit(harness, [{ type: 'approval_needed', requestId: 'r2', callId: 'c-write_file', kind: 'write', tool: 'write_file', summary: 'Write', path: 'notes.md', preview: 'x' }])
    fireEvent.keyDown(screen.getByRole('region', { name: 'Permission needed' }), { key: 'Escape' })
    await settle()
    expect(harness.bridge.callsTo('chat.approve')).toEqual([{ sessionId: 's1', requestId: 'r2', allow: false }])
    expect(harness.bridge.callsTo('chat.cancel')).toEqual([])
  })
})

describe('files and pages', () => {
  it('shows an edit as a diff and a new file as all added', async () => {
    const harness = await openChat()
    call(harness, 'edit_file', { path: 'docs/notes.md', old_string: 'debug: true', new_string: 'debug: false' }, { success: true, path: 'docs/notes.md', replacements: 1, diff: '…' })
    const edit = row(/Edited notes\.md/)
    expect(edit.querySelector('.diff-line.del')!.textContent).toContain('debug: true')
    expect(edit.querySelector('.diff-line.add')!.textContent).toContain('debug: false')

    call(harness, 'write_file', { path: 'plan.md', content: '# Plan\nShip it\n' }, { success: true, path: 'plan.md', bytes_written: 15, created: true })
    const created = row(/Created plan\.md/)
    expect(within(created).getByText('New file')).toBeTruthy()
    expect([...created.querySelectorAll('.diff-line.add .code')].map((cell) => cell.textContent)).toEqual(['# Plan', 'Ship it'])
  })

  it('shows a fetch as title, excerpt and address', async () => {
    const harness = await openChat()
    call(harness, 'fetch_url', { url: 'https://example.com/guide' }, { success: true, url: 'https://example.com/guide', final_url: 'https://example.com/guide/', status: 200, title: 'The Guide', content: 'Step one.\n\nStep two.', truncated: false })
    const fetched = row(/Fetched example\.com/)
    fireEvent.click(within(fetched).getByRole('button', { name: /Fetched example\.com/ }))
    expect(fetched.querySelector('.fetched-title')!.textContent).toBe('The Guide')
    expect(fetched.querySelector('.fetched-excerpt')!.textContent).toBe('Step one. Step two.')
    expect(fetched.querySelector('.tool-address')!.textContent).toBe('https://example.com/guide/')
  })

  it('sums up reads and searches on one line, folded', async () => {
    const harness = await openChat()
    call(harness, 'read_file', { path: 'package.json' }, { success: true, path: 'package.json', content: '{\n  "name": "demo"\n}', start_line: 1, end_line: 3, total_lines: 3, truncated: false })
    const read = row(/Read package\.json/)
    expect(within(read).getByText('3 lines')).toBeTruthy()
    expect(read.querySelector('.tool-call-body')).toBeNull()
    call(harness, 'search_files', { content: 'TODO' }, { success: true, path: '.', matches: ['a.ts:3: // TODO'], files_with_matches: 1, scanned_files: 9, count: 1, truncated: false })
    const search = row(/Searched for “TODO”/)
    expect(within(search).getByText('1 match in 1 file')).toBeTruthy()
    fireEvent.click(within(search).getByRole('button', { name: /Searched/ }))
    expect(within(search).getByText('a.ts:3: // TODO')).toBeTruthy()
  })

  it('says what a failed call went wrong with, in its own words', async () => {
    const harness = await openChat()
    call(harness, 'read_file', { path: 'missing.txt' }, { success: false, error: 'File not found: missing.txt.' }, false)
    const failed = row(/Read missing\.txt/)
    expect(within(failed).getByText('Failed')).toBeTruthy()
    fireEvent.click(within(failed).getByRole('button', { name: /Read missing/ }))
    expect(within(failed).getByText('File not found: missing.txt.')).toBeTruthy()
  })
})

describe('memory, skills and other tools', () => {
  it('words memory and skill changes', async () => {
    const harness = await openChat()
    call(harness, 'memory', { action: 'add', target: 'user', content: 'Prefers pnpm' }, { success: true })
    const memory = row(/Saved to your profile/)
    fireEvent.click(within(memory).getByRole('button', { name: /Saved/ }))
    expect(memory.querySelector('.memory-ops')!.textContent).toBe('AddedPrefers pnpm')
    call(harness, 'skill_manage', { action: 'patch', name: 'deploy-blog', old_string: 'flyctl deploy', new_string: 'flyctl deploy --ha=false' }, { success: true })
    expect(row(/Edited the skill deploy-blog/)).toBeTruthy()
  })

  it('says a memory add that was already saved added nothing', async () => {
    const harness = await openChat()
    call(harness, 'memory', { action: 'add', target: 'user', content: 'Prefers pnpm' }, { success: true, duplicate: true, message: 'Entry already exists' })
    const memory = row(/Already in your profile/)
    fireEvent.click(within(memory).getByRole('button', { name: /Already in/ }))
    expect(memory.querySelector('.memory-ops')!.textContent).toBe('Already saved, nothing addedPrefers pnpm')
  })

  it('lists the conversations a past-conversation search found, matches highlighted', async () => {
    const harness = await openChat()
    call(harness, 'session_search', { query: 'deploy blog' }, { success: true, count: 1, sessions: [{ session_id: 's9', title: 'Blog hosting', snippet: 'we >>>deploy<<< with\nflyctl' }] })
    const search = row(/Searched past conversations/)
    expect(within(search).getByText('deploy blog')).toBeTruthy()
    fireEvent.click(within(search).getByRole('button', { name: /Searched past/ }))
    expect(within(search).getByText('1 conversation found')).toBeTruthy()
    expect(within(search).getByText('Blog hosting')).toBeTruthy()
    expect(within(search).getByText('deploy').tagName).toBe('MARK')
    expect(search.textContent).not.toContain('>>>')
  })

  it('shows an unknown tool’s fields by name, nested ones too, with text as text', async () => {
    const harness = await openChat()
    call(harness, 'mystery_tool', { note: 'line one\nline two' }, { success: true, items: [{ body: 'a\nb' }] })
    const other = row(/Used mystery_tool/)
    fireEvent.click(within(other).getByRole('button', { name: /Used mystery_tool/ }))
    expect(within(other).getByText('note')).toBeTruthy()
    expect([...other.querySelectorAll('.tool-field pre')].map((pre) => pre.textContent)).toEqual(['line one\nline two', 'true', 'a\nb'])
    expect(other.textContent).not.toContain('\\n')
  })

  it('names an MCP tool by its server, directly or through mcp_call, and shows its text result as text', async () => {
    const harness = await openChat()
    call(harness, 'mcp__everything__echo', { message: 'hi' }, undefined)
    expect(row(/Use echo from everything/)).toBeTruthy()
    emit(harness, [{ type: 'tool_call_finished', callId: 'c-mcp__everything__echo', name: 'mcp__everything__echo', ok: true, result: 'Echo: hi\nsecond line', durationMs: 5, messageId: 52 }])
    const used = row(/Used echo from everything/)
    fireEvent.click(within(used).getByRole('button', { name: /Used echo from everything/ }))
    expect(used.textContent).toContain('Echo: hi')
    expect(used.textContent).not.toContain('\\n')
    call(harness, 'mcp_call', { name: 'mcp__files__read_text_file', arguments: { path: 'a.txt' } }, { success: true })
    expect(row(/Used read_text_file from files/)).toBeTruthy()
  })

  it('links a call whose MCP server failed to the Tools section of Settings (issue 29)', async () => {
    const harness = await openChat()
    call(harness, 'mcp__files__read_text_file', { path: 'a.txt' }, { success: false, error: 'The MCP server "files" is not running.', server_failed: 'files' }, false)
    const failed = row(/read_text_file from files/)
    expect(failed.textContent).toContain('The MCP server "files" is not available. See its status and log in Settings.')
    fireEvent.click(within(failed).getByRole('button', { name: 'Open Settings' }))
    expect(harness.app.ui.getState().settingsSection).toBe('tools')
    expect(harness.app.ui.getState().view).toBe('settings')
  })

  it('speaks Chinese', async () => {
    const harness = await openChat({ 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    call(harness, 'run_command', { command: 'npm test' }, { success: true, exit_code: 0, signal: null, timed_out: false, stdout: 'ok', stderr: '', duration_ms: 12, cwd: '.' })
    const block = row(/运行了命令/)
    expect(within(block).getByText('退出码 0')).toBeTruthy()
    expect(englishLeft(block.querySelector('.tool-call-name')!.textContent!)).toEqual([])
  })
})

import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { FakeFailure } from '../helpers/fake-transport'
import { appInfo, config, learned, message, session, settingsView, turnEvents } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const user = message('user', 'Please deploy')
const noModel = { problem: 'no_model', preset: 'openai', baseURL: 'https://api.openai.com/v1' }
const writeDiff = '===================================================================\n--- a/config/app.yml\n+++ b/config/app.yml\n@@ -1,1 +1,1 @@\n-debug: true\n+debug: false\n'

async function openChat(extra: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({
    'sessions.list': [session('s1', 'Deploy day')],
    'sessions.get': { session: session('s1', 'Deploy day'), messages: [user], running: false },
    'chat.send': { sessionId: 's1', turnId: 't2' },
    'chat.cancel': { cancelled: true },
    'chat.approve': { accepted: true },
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: /^Deploy day/ }))
  await settle()
  return harness
}

function emit(harness: Awaited<ReturnType<typeof openChat>>, events: ReturnType<typeof turnEvents>) {
  act(() => {
    for (const event of events) harness.bridge.emit('chat.event', event)
    harness.frames.run()
  })
}

describe('composer', () => {
  it('sends on Enter and adds a line on Shift+Enter', async () => {
    const harness = await openChat()
    const box = screen.getByRole('textbox', { name: 'Message' })
    fireEvent.change(box, { target: { value: 'first line' } })
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true })
    expect(harness.bridge.callsTo('chat.send')).toEqual([])

    fireEvent.keyDown(box, { key: 'Enter' })
    await settle()
    expect(harness.bridge.callsTo('chat.send')).toEqual([{ sessionId: 's1', text: 'first line' }])
    expect((box as HTMLTextAreaElement).value).toBe('')
    expect(screen.getByText('first line')).toBeTruthy()
  })

  it('does not send while an input method is composing', async () => {
    const harness = await openChat()
    const box = screen.getByRole('textbox', { name: 'Message' })
    fireEvent.change(box, { target: { value: 'ni hao' } })
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true })
    expect(harness.bridge.callsTo('chat.send')).toEqual([])
  })

  it('rests while Cairn answers; Esc and the Stop button cancel the turn', async () => {
    const harness = await openChat()
    emit(harness, turnEvents('s1', 't2', [{ type: 'turn_started', userMessageId: user.id }, { type: 'text_delta', text: 'Working on **it**' }]))
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement
    expect(box.disabled).toBe(true)
    expect(screen.getByText('it').tagName).toBe('STRONG')

    fireEvent.keyDown(window, { key: 'Escape' })
    await settle()
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }))
    await settle()
    expect(harness.bridge.callsTo('chat.cancel')).toEqual([{ sessionId: 's1' }, { sessionId: 's1' }])
  })
})

describe('answers', () => {
  it('offers regenerate on the last answer only and copy on each', async () => {
    const harness = await openChat({
      'sessions.get': { session: session('s1', 'Deploy day'), messages: [user, message('assistant', 'First'), message('user', 'again'), message('assistant', 'Second')], running: false },
      'chat.regenerate': { sessionId: 's1', turnId: 't3' }
    })
    expect(screen.getAllByRole('button', { name: 'Copy' })).toHaveLength(2)
    const regenerate = screen.getAllByRole('button', { name: 'Answer again' })
    expect(regenerate).toHaveLength(1)
    fireEvent.click(regenerate[0])
    await settle()
    expect(harness.bridge.callsTo('chat.regenerate')).toEqual([{ sessionId: 's1' }])
    expect(screen.queryByText('Second')).toBeNull()
  })

  it('folds tool calls to a line in plain words and unfolds them to what they did', async () => {
    const harness = await openChat()
    emit(harness, turnEvents('s1', 't2', [
      { type: 'turn_started', userMessageId: user.id },
      { type: 'assistant_message', messageId: 50, content: '', toolCallCount: 1 },
      { type: 'tool_call_started', callId: 'c1', name: 'read_file', arguments: '{"path":"deploy.yml"}' },
      { type: 'tool_call_finished', callId: 'c1', name: 'read_file', ok: true, result: '{"success":true,"path":"deploy.yml","content":"stages: 3","total_lines":1}', durationMs: 12, messageId: 51 }
    ]))
    const toggle = screen.getByRole('button', { name: /Read deploy\.yml/ })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByText(/stages: 3/)).toBeNull()
    fireEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(screen.getByText('stages: 3')).toBeTruthy()
  })
})

describe('approvals', () => {
  const approval = {
    type: 'approval_needed' as const,
    requestId: 'r1',
    callId: 'c1',
    kind: 'command' as const,
    tool: 'run_command',
    summary: 'Run the test suite',
    command: 'npm test -- --watch=false',
    cwd: '/work/app',
    prefix: 'npm test'
  }

  it.each([
    ['Allow once', { allow: true, remember: 'once' }],
    ['Allow "npm test" for this conversation, with more arguments but no options', { allow: true, remember: 'session' }],
    ['Always allow "npm test", with more arguments but no options', { allow: true, remember: 'prefix', prefix: 'npm test' }],
    ['Deny', { allow: false }]
  ])('"%s" answers chat.approve with the matching decision', async (label, decision) => {
    const harness = await openChat()
    emit(harness, turnEvents('s1', 't2', [{ type: 'turn_started', userMessageId: user.id }, approval]))
    const card = screen.getByRole('region', { name: 'Permission needed' })
    // Worded from the request's data (the core's English summary is for the CLI).
    expect(within(card).getByText('Run `npm test -- --watch=false` in /work/app')).toBeTruthy()
    expect(within(card).queryByText('Run the test suite')).toBeNull()
    expect(within(card).getByText('npm test -- --watch=false')).toBeTruthy()
    fireEvent.click(within(card).getByRole('button', { name: label }))
    await settle()
    expect(harness.bridge.callsTo('chat.approve')).toEqual([{ sessionId: 's1', requestId: 'r1', ...decision }])
    emit(harness, turnEvents('s1', 't2', [{ type: 'approval_resolved', requestId: 'r1', allowed: true, remembered: 'once' }]))
    expect(screen.queryByRole('region', { name: 'Permission needed' })).toBeNull()
  })

  it('shows a file write with its path and diff preview, without "always allow"', async () => {
    const harness = await openChat()
    emit(harness, turnEvents('s1', 't2', [
      { type: 'turn_started', userMessageId: user.id },
      { type: 'approval_needed', requestId: 'r2', callId: 'c2', kind: 'write', tool: 'write_file', summary: 'Update the config', path: 'config/app.yml', preview: writeDiff }
    ]))
    const card = screen.getByRole('region', { name: 'Permission needed' })
    expect(within(card).getByText('Overwrite app.yml (+1 −1 lines)')).toBeTruthy()
    expect(within(card).getByText('config/app.yml')).toBeTruthy()
    expect(within(card).getByText('+debug: false').className).toBe('add')
    expect(within(card).queryByRole('button', { name: /Always allow/ })).toBeNull()
  })
})

describe('errors and status', () => {
  it('shows a provider error from the turn inline and retries by answering again', async () => {
    const harness = await openChat({ 'chat.regenerate': { sessionId: 's1', turnId: 't3' } })
    emit(harness, turnEvents('s1', 't2', [
      { type: 'turn_started', userMessageId: user.id },
      { type: 'retry', attempt: 1, delayMs: 2000, reason: 'https://api.example.com/v1 is rate-limiting requests (429).', discardPartial: false }
    ]))
    expect(screen.getByText(/trying again \(attempt 1\) in 2 s/)).toBeTruthy()
    harness.bridge.set('sessions.get', { session: session('s1', 'Deploy day'), messages: [user], running: false })
    emit(harness, turnEvents('s1', 't2', [
      { type: 'error', code: 'rate_limited', message: 'https://api.example.com/v1 is rate-limiting requests (429: slow down).', retryable: true },
      { type: 'turn_finished', reason: 'failed', text: '', usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }, toolCalls: 0 }
    ]))
    await settle()
    const alert = screen.getByRole('alert')
    // Worded by its code, with the provider's own words underneath.
    expect(alert.textContent).toContain('The provider is rate-limiting requests. Try again in a moment.')
    expect(within(alert).getByText('https://api.example.com/v1 is rate-limiting requests (429: slow down).')).toBeTruthy()
    expect(screen.queryByText(/trying again/)).toBeNull()
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }))
    await settle()
    expect(harness.bridge.callsTo('chat.regenerate')).toEqual([{ sessionId: 's1' }])
  })

  it('keeps the message when sending fails with a provider problem and offers Settings', async () => {
    const harness = await openChat({
      'chat.send': () => {
        throw new FakeFailure('PROVIDER', 'No model is chosen. Pick one in Settings, set provider.model in config.json, or set CAIRN_MODEL.', noModel)
      }
    })
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement
    fireEvent.change(box, { target: { value: 'hello?' } })
    fireEvent.keyDown(box, { key: 'Enter' })
    await settle()
    expect(box.value).toBe('hello?')
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('No model is chosen. Pick one in Settings.')
    expect(alert.textContent).not.toContain('CAIRN_MODEL')
    fireEvent.click(within(alert).getByRole('button', { name: 'Open Settings' }))
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeTruthy()
    expect(harness.app.ui.getState().view).toBe('settings')
  })

  it('shows a "Learned" chip when this conversation’s review saved something, linking to the timeline', async () => {
    const harness = await openChat({ 'timeline.list': { entries: [], reviews: [] } })
    act(() =>
      harness.bridge.emit('review.event', {
        type: 'review_finished',
        reviewId: 'rv1',
        sessionId: 's1',
        outcome: { summary: learned({ memory: 1 }), entries: [], skillOutcomes: [], finalText: '', iterations: 2, toolCalls: 1, refusedCalls: [] }
      })
    )
    const chip = screen.getByRole('button', { name: /Learned: Memory updated/ })
    fireEvent.click(chip)
    await settle()
    expect(screen.getByRole('heading', { name: 'Learning timeline' })).toBeTruthy()
  })

  it('words the chip in the UI language from what the review saved', async () => {
    const harness = await openChat({ 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    const summary = learned({ user: 1, skills: [{ name: 'deploy', verb: 'created' }] })
    act(() =>
      harness.bridge.emit('review.event', {
        type: 'review_finished',
        reviewId: 'rv1',
        sessionId: 's1',
        outcome: { summary, entries: [], skillOutcomes: [], finalText: '', iterations: 2, toolCalls: 1, refusedCalls: [] }
      })
    )
    expect(screen.getByRole('button', { name: '已学到：用户资料已更新 · 已创建技能“deploy”' })).toBeTruthy()
  })
})

describe('first run', () => {
  it('shows a setup card naming what is missing, with a way to Settings', async () => {
    await renderApp({ 'app.info': appInfo({ providerProblem: { code: 'no_key', preset: 'openai', baseURL: 'https://api.openai.com/v1' } }) })
    expect(screen.getByRole('heading', { name: 'Connect a model to get started' })).toBeTruthy()
    expect(screen.getByText(/No API key for https:\/\/api.openai.com\/v1/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Open Settings' }))
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeTruthy()
  })

  it('offers a running Ollama with one click and picks its first model', async () => {
    const harness = await renderApp({
      'app.info': appInfo({ providerProblem: { code: 'no_model', preset: 'ollama', baseURL: 'http://127.0.0.1:11434/v1' } }),
      'settings.detectLocal': { ollama: true, lmstudio: false },
      'settings.update': (input) => {
        const view = harness.app.settings.getState().view!
        const provider = { ...view.config.provider, ...(input.patch.provider as object) }
        return { ...view, config: { ...view.config, provider } }
      },
      'settings.testConnection': { ok: true, code: 'connected', baseURL: 'http://127.0.0.1:11434/v1', models: ['llama3.2', 'qwen2.5'], model: null, status: null }
    })
    harness.app.settings.setState((s) => ({ view: s.view && { ...s.view, config: { ...s.view.config, provider: { ...s.view.config.provider, model: '' } } } }))
    await settle()
    fireEvent.click(screen.getByRole('button', { name: 'Use Ollama' }))
    await settle()
    const updates = harness.bridge.callsTo('settings.update')
    expect(updates[0]).toEqual({ patch: { provider: { preset: 'ollama', baseURL: '' } } })
    expect(harness.bridge.callsTo('settings.testConnection')).toEqual([{ preset: 'ollama' }])
    expect(updates[1]).toEqual({ patch: { provider: { model: 'llama3.2' } } })
  })
})

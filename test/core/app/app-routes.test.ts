import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/agent-events'
import { ipcRoutes } from '../../../shared/ipc/contract'
import { dispatch } from '../../../electron/core/app/router'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { isReviewRequest } from '../../helpers/review-fixture'

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const SKILL = `---
name: rotate-logs
description: Rotate and compress the app's log files without losing lines.
---
# Rotate logs
1. Run logrotate with the app's config.
`

describe('the request router', () => {
  it('answers unknown and prototype route names with ROUTE_NOT_FOUND, never by accident', async () => {
    fx = await appFixture()
    for (const route of ['nope', '__proto__', 'constructor', 'toString', 42]) {
      const result = await dispatch(fx.app.handlers, route, {}, { sender: 'browser' })
      expect(result).toMatchObject({ ok: false, error: { code: 'ROUTE_NOT_FOUND' } })
    }
  })

  it('checks answers against the contract unless told not to (a packaged app, where it is the hot path)', async () => {
    const drifted = { 'app.info': async () => ({ version: 42 }) } as unknown as Parameters<typeof dispatch>[0]
    const checked = await dispatch(drifted, 'app.info', undefined, { sender: 'browser' }, { checkOutputs: true })
    expect(checked).toMatchObject({ ok: false, error: { code: 'INTERNAL', message: expect.stringContaining('the answer to app.info broke the contract') } })
    expect(await dispatch(drifted, 'app.info', undefined, { sender: 'browser' }, { checkOutputs: false })).toEqual({ ok: true, data: { version: 42 } })
  })

  it('validates every input and says which field is wrong', async () => {
    fx = await appFixture()
    const result = await fx.call('memory.add', { target: 'everyone', content: 'x' } as never)
    expect(result).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    if (!result.ok) expect(result.error.message).toMatch(/memory\.add: target/)
    const url = await fx.call('shell.openExternal', { url: 'javascript:alert(1)' })
    expect(url.ok).toBe(false)
  })

  it('has a handler for every route, each answering with a valid envelope', async () => {
    fx = await appFixture()
    expect(Object.keys(fx.app.handlers).sort()).toEqual(Object.keys(ipcRoutes).sort())
    const safeInputs: Record<string, unknown> = {
      'app.info': undefined,
      'sessions.list': {},
      'timeline.list': {},
      'skills.list': undefined,
      'memory.get': undefined,
      'settings.get': undefined,
      'learning.status': undefined,
      'settings.detectLocal': undefined
    }
    for (const [route, input] of Object.entries(safeInputs)) {
      const result = await dispatch(fx.app.handlers, route, input, { sender: 'browser' })
      expect(result.ok, `${route}: ${JSON.stringify(result)}`).toBe(true)
    }
  })
})

describe('chat over the contract', () => {
  it('streams a turn as events, lists the session, and lets a late window catch up', async () => {
    fx = await appFixture()
    fx.server.enqueue({ text: 'Hello from Cairn.', chunkDelayMs: 30 })
    const { sessionId, turnId } = await fx.ok('chat.send', { sessionId: null, text: 'hello' })
    expect(turnId).toBeTruthy()
    // A window opened once the answer is streaming (the turn may first wait up to 300 ms for recall).
    await fx.waitFor('chat.event', (event) => (event as AgentEvent).type === 'text_delta')
    const attached = await fx.ok('chat.attach', { sessionId })
    expect(attached.running).toBe(true)
    expect(attached.events[0]).toMatchObject({ type: 'turn_started', turnId })
    await fx.waitFor('chat.status', (s) => s.sessionId === sessionId && !s.running)
    const deltas = fx.events
      .filter((e) => e.name === 'chat.event' && (e.payload as AgentEvent).type === 'text_delta')
      .map((e) => (e.payload as Extract<AgentEvent, { type: 'text_delta' }>).text)
    expect(deltas.join('')).toBe('Hello from Cairn.')
    const list = await fx.ok('sessions.list', {})
    expect(list.sessions.map((s) => s.id)).toEqual([sessionId])
    const detail = await fx.ok('sessions.get', { sessionId })
    expect(detail.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hello'],
      ['assistant', 'Hello from Cairn.']
    ])
  })

  it('refuses a second message while a turn runs, and stops on cancel', async () => {
    fx = await appFixture()
    fx.server.enqueue({ text: 'one two three four five six seven eight', chunkDelayMs: 200 })
    const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'count slowly' })
    const busy = await fx.call('chat.send', { sessionId, text: 'again' })
    expect(busy).toMatchObject({ ok: false, error: { code: 'BUSY' } })
    expect(await fx.ok('chat.cancel', { sessionId })).toEqual({ cancelled: true })
    const finished = await fx.waitFor('chat.event', (e) => e.type === 'turn_finished')
    expect(finished).toMatchObject({ reason: 'cancelled' })
  })

  it('regenerates the last answer in place', async () => {
    fx = await appFixture()
    fx.server.enqueue({ text: 'First try.' }, { text: 'Second try.' })
    const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'say something' })
    await fx.waitFor('chat.status', (s) => !s.running)
    fx.events.length = 0
    await fx.ok('chat.regenerate', { sessionId })
    await fx.waitFor('chat.status', (s) => !s.running)
    const detail = await fx.ok('sessions.get', { sessionId })
    expect(detail.messages.map((m) => m.content)).toEqual(['say something', 'Second try.'])
  })

  it('asks for approval over the contract and runs the command once allowed', async () => {
    fx = await appFixture()
    fx.server.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo approved-run' } }] }, { text: 'Done.' })
    const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'run it' })
    const approval = (await fx.waitFor('chat.event', (e) => e.type === 'approval_needed')) as Extract<AgentEvent, { type: 'approval_needed' }>
    expect(approval).toMatchObject({ kind: 'command', command: 'echo approved-run' })
    expect(await fx.ok('chat.approve', { sessionId, requestId: approval.requestId, allow: true })).toEqual({ accepted: true })
    const result = (await fx.waitFor('chat.event', (e) => e.type === 'tool_call_finished')) as Extract<AgentEvent, { type: 'tool_call_finished' }>
    expect(result.result).toContain('approved-run')
  })

  it('uses a corrected API key in a conversation that is already open', async () => {
    fx = await appFixture({ server: { apiKey: 'sk-right' } })
    await fx.ok('settings.setApiKey', { apiKey: 'sk-wrong' })
    const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'hello' })
    const failed = await fx.waitFor('chat.event', (e) => e.type === 'error')
    expect(failed).toMatchObject({ code: 'auth' })
    await fx.waitFor('chat.status', (s) => !s.running)
    await fx.ok('settings.setApiKey', { apiKey: 'sk-right' })
    fx.server.enqueue({ text: 'Now it works.' })
    await fx.ok('chat.send', { sessionId, text: 'hello again' })
    const done = await fx.waitFor('chat.event', (e) => e.type === 'turn_finished' && e.reason === 'completed')
    expect(done).toMatchObject({ text: 'Now it works.' })
  })

  it('explains what is missing before the first chat when no provider is set', async () => {
    fx = await appFixture({ configured: false })
    const info = await fx.ok('app.info')
    const problem = { code: 'no_model', preset: 'openai', baseURL: 'https://api.openai.com/v1' }
    expect(info.providerProblem).toEqual(problem)
    // The refusal keeps English for logs and the CLI, and carries the problem for the renderer to word.
    const result = await fx.call('chat.send', { sessionId: null, text: 'hi' })
    expect(result).toEqual({
      ok: false,
      error: { code: 'PROVIDER', message: expect.stringMatching(/^No model is chosen/), params: { problem: 'no_model', preset: 'openai', baseURL: 'https://api.openai.com/v1' } }
    })
  })
})

describe('the API key', () => {
  it('is only sent to the server it was saved for, not to a URL typed into the connection test', async () => {
    fx = await appFixture({ server: { apiKey: 'sk-saved-key' } })
    await fx.ok('settings.setApiKey', { apiKey: 'sk-saved-key' })
    expect(await fx.ok('settings.testConnection', {})).toMatchObject({ ok: true })
    // Same server, other origin (localhost vs 127.0.0.1): the saved key must not go there.
    const elsewhere = fx.server.url.replace('127.0.0.1', 'localhost')
    const refused = await fx.ok('settings.testConnection', { baseURL: elsewhere })
    expect(refused.ok).toBe(false)
    expect(refused).toMatchObject({ code: 'auth', status: 401, baseURL: elsewhere })
    // No key at all goes there: not the saved one, not a stand-in.
    expect(fx.server.requests.at(-1)!.headers.authorization).toBeUndefined()
    expect(await fx.ok('settings.testConnection', { baseURL: elsewhere, apiKey: 'sk-saved-key' })).toMatchObject({ ok: true })
  })
})

describe('learning, memory, skills and settings over the contract', () => {
  it('shows a review on the timeline and reverts one of its changes', async () => {
    const review = [
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Likes concise answers.' } }] },
      { text: 'Saved the preference.' }
    ]
    fx = await appFixture({ server: { respond: (req) => (isReviewRequest(req) ? review.shift() : { text: 'Sure.' }) } })
    const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'I prefer concise answers, please.' })
    const done = await fx.waitFor('review.event', (e) => e.type === 'review_finished')
    expect(done).toMatchObject({ sessionId, outcome: { summary: { saved: true, user: { added: 1, replaced: 0, removed: 0 }, skills: [] } } })
    const timeline = await fx.ok('timeline.list', {})
    expect(timeline.entries[0]).toMatchObject({ kind: 'memory.add', source: 'review', after: 'Likes concise answers.' })
    expect(timeline.reviews[0]).toMatchObject({ sessionId, status: 'done', summary: { saved: true, user: { added: 1, replaced: 0, removed: 0 }, skills: [] } })
    const reverted = await fx.ok('timeline.revert', { id: timeline.entries[0].id })
    expect(reverted.ok).toBe(true)
    expect(readFileSync(join(fx.home, 'memories', 'USER.md'), 'utf8')).toBe('')
  })

  it('edits memory by hand, recorded as the user', async () => {
    fx = await appFixture()
    await fx.ok('memory.add', { target: 'memory', content: 'The NAS is at 10.0.0.5' })
    await fx.ok('memory.replace', { target: 'memory', oldText: '10.0.0.5', content: 'The NAS is at 10.0.0.9' })
    const view = await fx.ok('memory.get')
    expect(view.memory).toMatchObject({ entries: ['The NAS is at 10.0.0.9'], limit: 2200, enabled: true })
    // The replaced wording is kept in the memory archive (issue 28), as the user's change too.
    expect(fx.core.ledger.list().map((r) => [r.kind, r.source])).toEqual([
      ['archive.add', 'user'],
      ['memory.replace', 'user'],
      ['memory.add', 'user']
    ])
    await fx.ok('memory.remove', { target: 'memory', text: 'NAS' })
    expect((await fx.ok('memory.get')).memory.entries).toEqual([])
  })

  it('lists skills with figures, shows one without counting a use, and returns its history for the diff viewer', async () => {
    fx = await appFixture()
    await fx.core.skills.create({ name: 'rotate-logs', category: 'ops', content: SKILL }, { source: 'user' })
    await fx.core.skills.patch({ name: 'rotate-logs', old_string: "with the app's config", new_string: 'with `-f` and the app config' }, { source: 'user' })
    const list = await fx.ok('skills.list')
    expect(list.skills[0]).toMatchObject({ name: 'rotate-logs', category: 'ops', readOnly: false, stats: { viewCount: 0, stale: false } })
    const detail = await fx.ok('skills.get', { name: 'rotate-logs' })
    expect(detail.content).toContain('with `-f` and the app config')
    expect(fx.core.skills.getUsage('rotate-logs')?.viewCount ?? 0).toBe(0)
    const history = await fx.ok('skills.history', { name: 'rotate-logs' })
    expect(history.map((h) => h.kind)).toEqual(['skill.patch', 'skill.create'])
    expect(history[0].before).toContain("with the app's config")
  })

  it('saves settings to config.json, never returns the key, and tests the connection', async () => {
    fx = await appFixture({ server: { models: ['scripted', 'other-model'] } })
    const updated = await fx.ok('settings.update', { patch: { ui: { theme: 'dark', language: 'zh-CN' }, learning: { skillNudgeInterval: 15 } } })
    expect(updated.config.ui).toMatchObject({ theme: 'dark', language: 'zh-CN' })
    expect(JSON.parse(readFileSync(join(fx.home, 'config.json'), 'utf8')).learning.skillNudgeInterval).toBe(15)
    const bad = await fx.call('settings.update', { patch: { learning: { memoryNudgeInterval: -1 } } })
    expect(bad).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    const keyed = await fx.ok('settings.setApiKey', { apiKey: 'sk-secret-1234' })
    expect(keyed).toMatchObject({ hasApiKey: true, keyHint: '1234', keyStorage: 'memory' })
    expect(JSON.stringify(keyed)).not.toContain('sk-secret')
    const test = await fx.ok('settings.testConnection', { baseURL: `${fx.server.url}/chat/completions` })
    expect(test).toMatchObject({ ok: true, models: ['other-model', 'scripted'] })
    expect(test).toMatchObject({ code: 'connected', baseURL: fx.server.url })
    const wrong = await fx.ok('settings.testConnection', { model: 'gpt-9' })
    expect(wrong.ok).toBe(false)
    expect(wrong).toMatchObject({ code: 'model_missing', model: 'gpt-9' })
  })
})

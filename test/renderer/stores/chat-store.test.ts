import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/agent-events'
import type { ReviewSummary } from '../../../shared/review-outcome'
import { createClient } from '../../../renderer/src/ipc/client'
import { preloadTransport } from '../../../renderer/src/ipc/transport'
import { createChatStore } from '../../../renderer/src/stores/chat'
import { buildItems } from '../../../renderer/src/stores/chat-items'
import { FakeBridge, FakeFailure, type RouteHandlers } from '../helpers/fake-transport'
import { learned, message, session, turnEvents } from '../helpers/fixtures'
import { manualFrames } from '../helpers/render-app'

function setup(handlers: RouteHandlers = {}) {
  const bridge = new FakeBridge(handlers)
  const frames = manualFrames()
  const client = createClient(preloadTransport(bridge))
  const chat = createChatStore({ client, frames })
  bridge.on('chat.event', (event) => chat.getState().handleEvent(event as AgentEvent))
  return { bridge, frames, chat }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('chat store: streaming', () => {
  it('buffers text deltas and writes them once per animation frame, reassembled in order', async () => {
    const user = message('user', 'Tell me a story')
    const { bridge, frames, chat } = setup({ 'sessions.get': { session: session('s1', 'Story'), messages: [user], running: false } })
    await chat.getState().openSession('s1')
    let updates = 0
    chat.subscribe(() => updates++)

    const deltas = ['Once', ' upon', ' a', ' time', ', a', ' cairn', '.']
    for (const event of turnEvents('s1', 't1', [{ type: 'turn_started', userMessageId: user.id }, ...deltas.map((text) => ({ type: 'text_delta' as const, text }))])) {
      bridge.emit('chat.event', event)
    }
    // turn_started is one update; the seven deltas are still waiting for the frame.
    expect(updates).toBe(1)
    expect(chat.getState().streaming).toBe('')
    expect(frames.pending()).toBe(1)

    frames.run()
    expect(updates).toBe(2)
    expect(chat.getState().streaming).toBe('Once upon a time, a cairn.')

    bridge.emit('chat.event', turnEvents('s1', 't1', [{ type: 'text_delta', text: ' The end.' }])[0])
    frames.run()
    expect(chat.getState().streaming).toBe('Once upon a time, a cairn. The end.')
  })

  it('flushes pending text before a completed message, then keeps the message immutable', async () => {
    const user = message('user', 'Hi')
    const { bridge, frames, chat } = setup({ 'sessions.get': { session: session('s1', 'Hi'), messages: [user], running: false } })
    await chat.getState().openSession('s1')
    for (const event of turnEvents('s1', 't1', [
      { type: 'turn_started', userMessageId: user.id },
      { type: 'text_delta', text: 'Hel' },
      { type: 'text_delta', text: 'lo!' },
      { type: 'assistant_message', messageId: 99, content: 'Hello!', toolCallCount: 0 }
    ])) {
      bridge.emit('chat.event', event)
    }
    expect(frames.pending()).toBe(0)
    const items = chat.getState().items
    expect(items.map((i) => i.kind)).toEqual(['user', 'assistant'])
    expect(items[1]).toMatchObject({ id: 99, text: 'Hello!' })
    expect(chat.getState().streaming).toBe('')

    // A tool call later in the turn leaves the earlier rows as the very same objects.
    bridge.emit('chat.event', turnEvents('s1', 't1', [{ type: 'tool_call_started', callId: 'c1', name: 'read_file', arguments: '{"path":"a"}' }])[0])
    expect(chat.getState().items[0]).toBe(items[0])
    expect(chat.getState().items[1]).toBe(items[1])
  })

  it('drops streamed text when a retry discards it, and shows the retry', async () => {
    const { bridge, frames, chat } = setup({ 'sessions.get': { session: session('s1', 'x'), messages: [], running: false } })
    await chat.getState().openSession('s1')
    for (const event of turnEvents('s1', 't1', [
      { type: 'turn_started', userMessageId: 1 },
      { type: 'text_delta', text: 'half an ans' },
      { type: 'retry', attempt: 2, delayMs: 1500, reason: '503 overloaded', discardPartial: true }
    ])) {
      bridge.emit('chat.event', event)
    }
    frames.run()
    expect(chat.getState().streaming).toBe('')
    expect(chat.getState().retrying).toEqual({ attempt: 2, delayMs: 1500, reason: '503 overloaded' })
    bridge.emit('chat.event', turnEvents('s1', 't1', [{ type: 'text_delta', text: 'Full answer' }])[0])
    frames.run()
    expect(chat.getState().retrying).toBeNull()
    expect(chat.getState().streaming).toBe('Full answer')
  })

  it('keeps text streamed before a stop as an interrupted answer', async () => {
    const { bridge, frames, chat } = setup({ 'sessions.get': { session: session('s1', 'x'), messages: [], running: false } })
    await chat.getState().openSession('s1')
    bridge.set('sessions.get', () => new Promise(() => {})) // the follow-up refresh never answers here
    for (const event of turnEvents('s1', 't1', [
      { type: 'turn_started', userMessageId: 1 },
      { type: 'text_delta', text: 'Partial thou' }
    ])) {
      bridge.emit('chat.event', event)
    }
    bridge.emit('chat.event', turnEvents('s1', 't1', [{ type: 'turn_finished', reason: 'cancelled', text: '', usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }, toolCalls: 0 }])[0])
    expect(frames.pending()).toBe(0)
    const last = chat.getState().items.at(-1)
    expect(last).toMatchObject({ kind: 'assistant', text: 'Partial thou', interrupted: true })
    expect(chat.getState().running).toBe(false)
  })
})

describe('chat store: attach', () => {
  it('replays the running turn after a reload, then continues live without doubling text', async () => {
    const user = message('user', 'Deploy it')
    const replay = turnEvents('s1', 't1', [
      { type: 'turn_started', userMessageId: user.id },
      { type: 'text_delta', text: 'Checking ' },
      { type: 'text_delta', text: 'the config' },
      { type: 'approval_needed', requestId: 'r1', callId: 'c1', kind: 'command', tool: 'run_command', summary: 'Run the deploy', command: 'make deploy', prefix: 'make' }
    ])
    const { bridge, frames, chat } = setup({
      'sessions.get': { session: session('s1', 'Deploy'), messages: [user], running: true },
      'chat.attach': () => {
        // A live event that main sent while the attach was being answered: it is in the replay too.
        bridge.emit('chat.event', replay[3])
        return { running: true, events: replay }
      }
    })
    await chat.getState().openSession('s1')
    frames.run()
    const state = chat.getState()
    expect(state.running).toBe(true)
    expect(state.streaming).toBe('Checking the config')
    expect(state.approvals.map((a) => a.requestId)).toEqual(['r1'])
    expect(state.items.filter((i) => i.kind === 'user')).toHaveLength(1)

    bridge.emit('chat.event', turnEvents('s1', 't1', [{ type: 'text_delta', text: '…' }])[0])
    frames.run()
    expect(chat.getState().streaming).toBe('Checking the config…')
  })
})

describe('chat store: approvals', () => {
  it('shows an approval until it is resolved, and clears any left when the turn ends', async () => {
    const { bridge, chat } = setup({ 'sessions.get': { session: session('s1', 'x'), messages: [], running: false } })
    await chat.getState().openSession('s1')
    bridge.set('sessions.get', () => new Promise(() => {}))
    const events = turnEvents('s1', 't1', [
      { type: 'turn_started', userMessageId: 1 },
      { type: 'approval_needed', requestId: 'r1', callId: 'c1', kind: 'write', tool: 'write_file', summary: 'Write notes.md', path: 'notes.md', preview: '+hello' },
      { type: 'approval_needed', requestId: 'r2', callId: 'c2', kind: 'command', tool: 'run_command', summary: 'List', command: 'ls' }
    ])
    for (const event of events) bridge.emit('chat.event', event)
    expect(chat.getState().approvals.map((a) => a.requestId)).toEqual(['r1', 'r2'])
    bridge.emit('chat.event', turnEvents('s1', 't1', [{ type: 'approval_resolved', requestId: 'r1', allowed: true, remembered: 'once' }])[0])
    expect(chat.getState().approvals.map((a) => a.requestId)).toEqual(['r2'])
    bridge.emit('chat.event', turnEvents('s1', 't1', [{ type: 'turn_finished', reason: 'cancelled', text: '', usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }, toolCalls: 0 }])[0])
    expect(chat.getState().approvals).toEqual([])
  })
})

describe('chat store: sending', () => {
  it('adopts the new conversation from events that arrive before chat.send answers', async () => {
    const { bridge, frames, chat } = setup({
      'sessions.get': () => new Promise(() => {})
    })
    bridge.set('chat.send', () => {
      for (const event of turnEvents('new1', 't1', [
        { type: 'turn_started', userMessageId: 7 },
        { type: 'text_delta', text: 'Hi there' }
      ])) {
        bridge.emit('chat.event', event)
      }
      return { sessionId: 'new1', turnId: 't1' }
    })
    await chat.getState().send('Hello')
    frames.run()
    const state = chat.getState()
    expect(state.sessionId).toBe('new1')
    expect(state.items).toMatchObject([{ kind: 'user', id: 7, text: 'Hello', pending: false }])
    expect(state.streaming).toBe('Hi there')
    expect(state.running).toBe(true)
    expect(bridge.callsTo('chat.send')).toEqual([{ sessionId: null, text: 'Hello' }])
  })

  it('puts the text back and offers a retry when the provider is not set up', async () => {
    const { bridge, chat } = setup({
      'chat.send': () => {
        throw new FakeFailure('PROVIDER', 'No API key for https://api.openai.com/v1.')
      }
    })
    await chat.getState().send('Are you there?')
    let state = chat.getState()
    expect(state.items).toEqual([])
    expect(state.draft).toBe('Are you there?')
    expect(state.error).toMatchObject({ code: 'PROVIDER', message: 'No API key for https://api.openai.com/v1.', plan: { kind: 'send', text: 'Are you there?' } })

    bridge.set('chat.send', { sessionId: 's9', turnId: 't9' })
    bridge.set('sessions.get', () => new Promise(() => {}))
    await chat.getState().retry()
    state = chat.getState()
    expect(state.error).toBeNull()
    expect(state.draft).toBe('')
    expect(bridge.callsTo('chat.send')).toHaveLength(2)
    expect(bridge.callsTo('chat.send')[1]).toMatchObject({ text: 'Are you there?' })
  })

  it('shows a learned note only for this conversation and only when something was saved', async () => {
    const { chat } = setup({ 'sessions.get': { session: session('s1', 'x'), messages: [], running: false } })
    await chat.getState().openSession('s1')
    const finished = (sessionId: string, summary: ReviewSummary) =>
      chat.getState().handleReview({
        type: 'review_finished',
        reviewId: 'rv',
        sessionId,
        outcome: { summary, entries: [], skillOutcomes: [], finalText: '', iterations: 1, toolCalls: 0, refusedCalls: [] }
      })
    finished('s1', learned())
    expect(chat.getState().learned).toBeNull()
    finished('other', learned({ memory: 1 }))
    expect(chat.getState().learned).toBeNull()
    finished('s1', learned({ memory: 1 }))
    expect(chat.getState().learned).toEqual({ reviewId: 'rv', summary: learned({ memory: 1 }) })
  })
})

describe('buildItems', () => {
  it('pairs tool calls with their results and folds compacted messages into one row', () => {
    const items = buildItems([
      message('user', 'old question', { compacted: true }),
      message('assistant', 'old answer', { compacted: true }),
      message('summary', 'They talked about X.'),
      message('user', 'Read a.txt'),
      message('assistant', '', { toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}' }] }),
      message('tool', '{"success":false,"error":"not found"}', { toolCallId: 'c1', toolName: 'read_file' }),
      message('assistant', 'It does not exist.'),
      message('system', 'hidden')
    ])
    expect(items.map((i) => i.kind)).toEqual(['compacted', 'summary', 'user', 'tool', 'assistant'])
    expect(items[0]).toMatchObject({ kind: 'compacted', items: [{ kind: 'user' }, { kind: 'assistant' }] })
    expect(items[3]).toMatchObject({ kind: 'tool', name: 'read_file', result: '{"success":false,"error":"not found"}', ok: false })
  })

  it("counts the tokens a tool spent on its own model calls (search summaries) into the turn's answer, under the answer's model", () => {
    const items = buildItems([
      message('user', 'How did we fix the 502?'),
      message('assistant', '', { model: 'gpt-chat', usage: { promptTokens: 1000, completionTokens: 20, cachedTokens: 100 }, toolCalls: [{ id: 'c1', name: 'session_search', arguments: '{}' }] }),
      message('tool', '{"success":true}', { toolCallId: 'c1', toolName: 'session_search', usage: { promptTokens: 1400, completionTokens: 90, cachedTokens: 0 } }),
      message('assistant', 'Port 8080.', { model: 'gpt-chat', usage: { promptTokens: 1100, completionTokens: 10, cachedTokens: 900 } })
    ])
    expect(items.at(-1)).toMatchObject({ kind: 'assistant', model: 'gpt-chat', usage: { promptTokens: 3500, completionTokens: 120, cachedTokens: 1000 } })
  })
})

describe('refresh after a turn', () => {
  it('reloads from main when the turn ends and keeps unchanged rows as the same objects', async () => {
    const user = message('user', 'Q')
    const answer = message('assistant', 'A')
    const { bridge, chat } = setup({ 'sessions.get': { session: session('s1', 'x'), messages: [user], running: false } })
    await chat.getState().openSession('s1')
    const before = chat.getState().items[0]
    bridge.set('sessions.get', { session: session('s1', 'x'), messages: [user, answer], running: false })
    bridge.emit('chat.event', turnEvents('s1', 't1', [{ type: 'turn_finished', reason: 'completed', text: 'A', usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }, toolCalls: 0 }])[0])
    await flush()
    expect(chat.getState().items.map((i) => i.kind)).toEqual(['user', 'assistant'])
    expect(chat.getState().items[0]).toBe(before)
  })
})

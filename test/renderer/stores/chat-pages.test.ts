import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/agent-events'
import type { DisplayMessage, LearnedReview } from '../../../shared/ipc/domain'
import type { RouteInput } from '../../../shared/ipc/contract'
import { createClient } from '../../../renderer/src/ipc/client'
import { preloadTransport } from '../../../renderer/src/ipc/transport'
import { createChatStore } from '../../../renderer/src/stores/chat'
import type { ChatItem } from '../../../renderer/src/stores/chat-items'
import { FakeBridge, FakeFailure } from '../helpers/fake-transport'
import { learned, session, turnEvents } from '../helpers/fixtures'
import { manualFrames } from '../helpers/render-app'

/** Main's side of a long conversation: the shown path, paged the way `sessions.get` / `sessions.messages` page it. */
class History {
  messages: DisplayMessage[] = []
  notes: LearnedReview[] = []
  running = false

  constructor(turns: number) {
    for (let turn = 1; turn <= turns; turn++) {
      this.add('user', `question ${turn}`)
      this.add('assistant', `answer ${turn}`)
    }
  }

  add(role: DisplayMessage['role'], content: string, extra: Partial<DisplayMessage> = {}): DisplayMessage {
    const id = this.messages.length + 1
    const added: DisplayMessage = { id, role, content, toolCalls: null, toolCallId: null, toolName: null, createdAt: id * 1000, finishReason: null, compacted: false, hint: null, ...extra }
    this.messages.push(added)
    return added
  }

  get = (input: RouteInput<'sessions.get'>) => {
    const messages = this.messages.slice(-(input.limit ?? 100))
    return { session: session('s1', 'Long'), messages, running: this.running, learned: this.notes, page: { hasOlder: messages.length < this.messages.length } }
  }

  page = (input: RouteInput<'sessions.messages'>) => {
    const at = (id: number) => this.messages.findIndex((m) => m.id === id)
    let from: number
    if (input.before !== undefined) from = Math.max(0, at(input.before) - input.limit)
    else if (input.after !== undefined) from = at(input.after) + 1
    else {
      if (at(input.around!) < 0) throw new FakeFailure('NOT_FOUND', 'not on the shown path')
      from = Math.max(0, Math.min(at(input.around!) - Math.floor((input.limit - 1) / 2), this.messages.length - input.limit))
    }
    const to = input.before !== undefined ? at(input.before) : from + input.limit
    const messages = this.messages.slice(from, Math.min(to, this.messages.length))
    return { messages, hasOlder: from > 0, hasNewer: from + messages.length < this.messages.length }
  }
}

function setup(history: History, options: { olderPages?: boolean } = {}) {
  const bridge = new FakeBridge({
    // The other version of answer 50: its words instead.
    'chat.showVersion': () => {
      const at = history.messages.findIndex((m) => m.content === 'answer 50')
      history.messages[at] = { ...history.messages[at], content: 'answer 50, again', versions: { position: 1, total: 2, previous: null, next: 7 } }
      return { ok: true }
    },
    'sessions.get': history.get,
    'sessions.messages': history.page,
    'chat.send': { sessionId: 's1', turnId: 't9' },
    'chat.attach': () => ({ running: history.running, events: [] })
  })
  const chat = createChatStore({ client: createClient(preloadTransport(bridge)), frames: manualFrames(), ...options })
  bridge.on('chat.event', (event) => chat.getState().handleEvent(event as AgentEvent))
  return { bridge, chat }
}

const texts = (items: ChatItem[]) => items.map((item) => ('text' in item ? item.text : item.kind))
const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('chat store: paged history', () => {
  it('opens on the last page and prepends older pages until the first message, nothing repeated', async () => {
    const history = new History(200)
    const { bridge, chat } = setup(history)
    await chat.getState().openSession('s1')
    expect(chat.getState().items).toHaveLength(100)
    expect(texts(chat.getState().items).at(-1)).toBe('answer 200')
    expect(chat.getState()).toMatchObject({ hasOlder: true, hasNewer: false, loadingOlder: false })

    const newest = chat.getState().items[0]
    const loading = chat.getState().loadOlder()
    expect(chat.getState().loadingOlder).toBe(true)
    await loading
    expect(chat.getState().items).toHaveLength(200)
    // The rows already shown are the same objects: only the new page renders.
    expect(chat.getState().items[100]).toBe(newest)
    await chat.getState().loadOlder()
    await chat.getState().loadOlder()
    expect(chat.getState()).toMatchObject({ hasOlder: false, loadingOlder: false })
    expect(texts(chat.getState().items)).toEqual(history.messages.map((m) => m.content))
    // Nothing older to ask for.
    const asked = bridge.callsTo('sessions.messages').length
    await chat.getState().loadOlder()
    expect(bridge.callsTo('sessions.messages')).toHaveLength(asked)
  })

  it('opens a search hit deep in the conversation on the page around it, then pages down to the end', async () => {
    const history = new History(1000)
    const { chat } = setup(history)
    await chat.getState().openSession('s1', { focusMessageId: 801 })
    const state = chat.getState()
    expect(state).toMatchObject({ focusMessageId: 801, hasOlder: true, hasNewer: true })
    expect(state.items.some((item) => item.kind === 'user' && item.id === 801)).toBe(true)
    expect(texts(state.items)).not.toContain('answer 1000')

    for (let page = 0; page < 20 && chat.getState().hasNewer; page++) await chat.getState().loadNewer()
    expect(chat.getState().hasNewer).toBe(false)
    expect(texts(chat.getState().items).at(-1)).toBe('answer 1000')

    // A hit on the last page needs no second request; one not on the shown path opens at the end.
    await chat.getState().openSession('s1', { focusMessageId: 1999 })
    expect(chat.getState().hasNewer).toBe(false)
    await chat.getState().openSession('s1', { focusMessageId: 99_999 })
    expect(chat.getState()).toMatchObject({ status: 'ready', hasNewer: false })
    expect(texts(chat.getState().items).at(-1)).toBe('answer 1000')
  })

  it('refreshes only the newest page after a turn, keeping the older pages loaded', async () => {
    const history = new History(100)
    const { bridge, chat } = setup(history)
    await chat.getState().openSession('s1')
    await chat.getState().loadOlder()
    const oldest = chat.getState().items[0]
    expect(texts([oldest])).toEqual(['question 1'])

    const asked = history.add('user', 'question 101')
    history.add('assistant', 'answer 101')
    bridge.emit('chat.event', turnEvents('s1', 't1', [{ type: 'turn_started', userMessageId: asked.id }])[0])
    bridge.emit('chat.event', turnEvents('s1', 't1', [{ type: 'turn_finished', reason: 'completed', text: 'answer 101', usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }, toolCalls: 0 }])[0])
    await flush()
    const items = chat.getState().items
    expect(items).toHaveLength(202)
    expect(items[0]).toBe(oldest)
    expect(texts(items).slice(-2)).toEqual(['question 101', 'answer 101'])
    // Only the newest page was read again.
    expect(bridge.callsTo('sessions.get').at(-1)).toEqual({ sessionId: 's1' })
    expect(bridge.callsTo('sessions.messages')).toHaveLength(1)
  })

  it('jumps to the newest page before sending from deep in the conversation', async () => {
    const history = new History(500)
    const { bridge, chat } = setup(history)
    await chat.getState().openSession('s1', { focusMessageId: 101 })
    expect(chat.getState().hasNewer).toBe(true)
    expect(await chat.getState().send('one more thing')).toBe(true)
    const state = chat.getState()
    expect(state.hasNewer).toBe(false)
    expect(texts(state.items).slice(-2)).toEqual(['answer 500', 'one more thing'])
    expect(bridge.callsTo('chat.send')).toHaveLength(1)
  })

  it('sends nothing when the newest page cannot be loaded, and says why', async () => {
    const history = new History(500)
    const { bridge, chat } = setup(history)
    await chat.getState().openSession('s1', { focusMessageId: 101 })
    bridge.set('sessions.get', () => {
      throw new FakeFailure('INTERNAL', 'state.db is locked')
    })
    expect(await chat.getState().send('one more thing')).toBe(false)
    expect(chat.getState().error).toMatchObject({ message: 'state.db is locked' })
    expect(chat.getState().hasNewer).toBe(true)
    expect(bridge.callsTo('chat.send')).toEqual([])
  })

  it('edits a message on a deep page in place: what followed, loaded or not, is another version', async () => {
    const history = new History(500)
    const { bridge, chat } = setup(history)
    bridge.set('chat.edit', { sessionId: 's1', turnId: 't5' })
    await chat.getState().openSession('s1', { focusMessageId: 101 })
    await chat.getState().editAndResend(101, 'question 51, better put')
    const state = chat.getState()
    expect(state.hasNewer).toBe(false)
    expect(texts(state.items).slice(-2)).toEqual(['answer 50', 'question 51, better put'])
    expect(bridge.callsTo('chat.edit')).toEqual([{ sessionId: 's1', messageId: 101, text: 'question 51, better put' }])
  })

  it('keeps a running turn off the deep page and takes it up at the newest page', async () => {
    const history = new History(500)
    history.running = true
    const { bridge, chat } = setup(history)
    await chat.getState().openSession('s1', { focusMessageId: 101 })
    expect(chat.getState()).toMatchObject({ running: true, hasNewer: true })
    const shown = chat.getState().items
    bridge.emit('chat.event', turnEvents('s1', 't1', [{ type: 'assistant_message', messageId: 5000, content: 'live words', toolCallCount: 0 }])[0])
    expect(chat.getState().items).toBe(shown)
    expect(bridge.callsTo('chat.attach')).toHaveLength(0)
    while (chat.getState().hasNewer) await chat.getState().loadNewer()
    expect(bridge.callsTo('chat.attach')).toHaveLength(1)
  })

  it('joins a tool call and its result across a page boundary', async () => {
    const history = new History(60)
    history.add('user', 'look it up')
    history.add('assistant', '', { toolCalls: [{ id: 'c1', name: 'web_search', arguments: '{"q":"x"}' }] })
    history.add('tool', '{"ok":true}', { toolCallId: 'c1', toolName: 'web_search' })
    for (let n = 0; n < 99; n++) history.add('assistant', `more ${n}`)
    const { chat } = setup(history)
    await chat.getState().openSession('s1')
    // The last page starts with the result alone: it shows as a tool row without its call's arguments.
    expect(chat.getState().items[0]).toMatchObject({ kind: 'tool', callId: 'c1', arguments: '' })
    await chat.getState().loadOlder()
    const tools = chat.getState().items.filter((item) => item.kind === 'tool')
    expect(tools).toEqual([expect.objectContaining({ callId: 'c1', arguments: '{"q":"x"}', result: '{"ok":true}' })])
  })

  it('shows what a review learned only once the messages around it are loaded', async () => {
    const history = new History(200)
    // Reviewed after turn 10 (long before the last page) and after the last turn.
    history.notes = [
      { reviewId: 'early', at: 20_500, summary: learned({ memory: 1 }), requested: false },
      { reviewId: 'late', at: 999_999, summary: learned({ user: 1 }), requested: false }
    ]
    const { chat } = setup(history)
    await chat.getState().openSession('s1')
    expect(chat.getState().learnedNotes.map((n) => n.reviewId)).toEqual(['late'])
    while (chat.getState().hasOlder) await chat.getState().loadOlder()
    expect(chat.getState().learnedNotes.map((n) => n.reviewId)).toEqual(['early', 'late'])

    await chat.getState().openSession('s1', { focusMessageId: 101 })
    expect(chat.getState().learnedNotes).toEqual([])
  })

  it('reaches the first message in big pages, or at once with a jump to the start, then pages back down to the end', async () => {
    const history = new History(1000)
    const { bridge, chat } = setup(history)
    await chat.getState().openSession('s1')
    await chat.getState().loadOlder(500)
    expect(chat.getState().items).toHaveLength(600)
    // More than a route gives is asked as the most it gives.
    await chat.getState().loadOlder(5000)
    expect(bridge.callsTo('sessions.messages').at(-1)).toMatchObject({ limit: 500 })
    expect(chat.getState().items).toHaveLength(1100)

    await chat.getState().openSession('s1')
    expect(await chat.getState().loadOldest()).toBe(true)
    expect(chat.getState()).toMatchObject({ hasOlder: false, hasNewer: true, loadingOlder: false })
    expect(texts(chat.getState().items).slice(0, 2)).toEqual(['question 1', 'answer 1'])
    expect(chat.getState().items).toHaveLength(100)
    // At the start already: nothing to ask for.
    expect(await chat.getState().loadOldest()).toBe(false)
    while (chat.getState().hasNewer) await chat.getState().loadNewer()
    expect(texts(chat.getState().items)).toEqual(history.messages.map((m) => m.content))
  })

  it('does not leave a running turn behind for the first page', async () => {
    const history = new History(300)
    history.running = true
    const { bridge, chat } = setup(history)
    await chat.getState().openSession('s1')
    const asked = bridge.callsTo('sessions.messages').length
    expect(await chat.getState().loadOldest()).toBe(false)
    expect(bridge.callsTo('sessions.messages')).toHaveLength(asked)
    expect(texts(chat.getState().items).at(-1)).toBe('answer 300')
  })

  it('switches the version of an answer deep in the history in place, keeping the pages before it', async () => {
    const history = new History(300)
    history.messages[99] = { ...history.messages[99], versions: { position: 2, total: 2, previous: 7, next: null } }
    const { bridge, chat } = setup(history)
    await chat.getState().openSession('s1')
    while (chat.getState().hasOlder) await chat.getState().loadOlder()
    const before = chat.getState().items
    await chat.getState().showVersion(7)
    const after = chat.getState().items
    expect(texts(after).slice(98, 101)).toEqual(['question 50', 'answer 50, again', 'question 51'])
    // What precedes the fork is untouched (the same rows: the list keeps its place); what follows is its first page.
    expect(after.slice(0, 99)).toEqual(before.slice(0, 99))
    expect(after[0]).toBe(before[0])
    expect(chat.getState()).toMatchObject({ hasOlder: false, hasNewer: true })
    expect(bridge.callsTo('sessions.messages').at(-1)).toEqual({ sessionId: 's1', after: history.messages[98].id, limit: 100 })
    expect(bridge.callsTo('sessions.get')).toHaveLength(1)
  })

  it('shows only the newest page where older pages are not read (the quick window)', async () => {
    const history = new History(300)
    const { bridge, chat } = setup(history, { olderPages: false })
    await chat.getState().openSession('s1')
    expect(chat.getState()).toMatchObject({ hasOlder: true })
    await chat.getState().loadOlder()
    expect(chat.getState().items).toHaveLength(100)
    expect(bridge.callsTo('sessions.messages')).toEqual([])
  })
})

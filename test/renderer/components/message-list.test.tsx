import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { DisplayMessage } from '../../../shared/ipc/domain'
import { learned, message, session, turnEvents } from '../helpers/fixtures'
import { renderApp, settle, type Harness } from '../helpers/render-app'
import { markdownBlocks } from '../../../renderer/src/components/Markdown'

/** A long conversation: only what is on screen (plus a margin) reaches the DOM, whatever its length. */

const NARROW = { viewportHeight: 600, itemHeight: 60 }

function history(turns: number): DisplayMessage[] {
  return Array.from({ length: turns }, (_, turn) => [message('user', `question ${turn + 1}`), message('assistant', `answer ${turn + 1}`)]).flat()
}

/** A fake main that pages the history the way the contract says. */
function pagedRoutes(all: DisplayMessage[], page = 100) {
  const at = (id: number) => all.findIndex((m) => m.id === id)
  return {
    'sessions.list': { sessions: [session('s1', 'Long one')], nextCursor: null },
    'sessions.get': { session: session('s1', 'Long one'), messages: all.slice(-page), running: false, page: { hasOlder: all.length > page } },
    'sessions.messages': (input: { before?: number; after?: number; around?: number; limit: number }) => {
      if (input.before !== undefined) {
        const end = at(input.before)
        const start = Math.max(0, end - input.limit)
        return { messages: all.slice(start, end), hasOlder: start > 0, hasNewer: true }
      }
      if (input.after !== undefined) {
        const start = at(input.after) + 1
        return { messages: all.slice(start, start + input.limit), hasOlder: true, hasNewer: start + input.limit < all.length }
      }
      const middle = at(input.around!)
      const start = Math.max(0, middle - input.limit / 2)
      return { messages: all.slice(start, start + input.limit), hasOlder: start > 0, hasNewer: start + input.limit < all.length }
    }
  }
}

async function open(harness: Harness, focusMessageId?: number): Promise<void> {
  await act(async () => {
    await harness.app.chat.getState().openSession('s1', focusMessageId === undefined ? {} : { focusMessageId })
  })
  await settle()
}

const shownMessages = () => [...document.querySelectorAll<HTMLElement>('[data-message-id]')]

describe('a long conversation', () => {
  it('opens at its last message with a bounded DOM, and loads older pages as you scroll up', async () => {
    const all = history(1000)
    const harness = await renderApp(pagedRoutes(all), { viewport: NARROW })
    await open(harness)
    const shown = shownMessages()
    expect(shown.length).toBeGreaterThan(0)
    expect(shown.length).toBeLessThan(60)
    expect(screen.getByText('answer 1000')).toBeTruthy()
    expect(screen.queryByText('question 1')).toBeNull()
    expect(harness.app.chat.getState().items).toHaveLength(100)

    // At the very top of what is loaded (faster than the prefetch), the previous page comes in front, a big one.
    const scroller = document.querySelector<HTMLElement>('.message-scroll')!
    await act(async () => {
      scroller.scrollTop = 0
      fireEvent.scroll(scroller)
    })
    await waitFor(() => expect(harness.bridge.callsTo('sessions.messages')[0]).toEqual({ sessionId: 's1', before: all[1900].id, limit: 500 }))
    await settle()
    expect(harness.app.chat.getState().items.length).toBeGreaterThanOrEqual(600)
    expect(shownMessages().length).toBeLessThan(60)
  })

  it('goes to the first message of the conversation with Home in the list', async () => {
    const all = history(1000)
    const harness = await renderApp(pagedRoutes(all), { viewport: NARROW })
    await open(harness)
    const scroller = document.querySelector<HTMLElement>('.message-scroll')!
    await act(async () => {
      fireEvent.keyDown(scroller, { key: 'Home' })
    })
    await waitFor(() => expect(screen.getByText('question 1')).toBeTruthy())
    expect(harness.bridge.callsTo('sessions.messages')).toContainEqual({ sessionId: 's1', after: 0, limit: 100 })
    expect(harness.app.chat.getState()).toMatchObject({ hasOlder: false, hasNewer: true })
    expect(shownMessages().length).toBeLessThan(60)
  })

  it('keeps focus in the list when the focused message scrolls out and its row unmounts', async () => {
    const harness = await renderApp(pagedRoutes(history(1000)), { viewport: NARROW })
    await open(harness)
    const last = screen.getByText('answer 1000').closest<HTMLElement>('.message')!
    within(last).getByRole('button', { name: 'Copy' }).focus()
    const scroller = document.querySelector<HTMLElement>('.message-scroll')!
    await act(async () => {
      scroller.scrollTop = 2000
      fireEvent.scroll(scroller)
    })
    await waitFor(() => expect(screen.queryByText('answer 1000')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(scroller))
  })

  it('puts each learned note where it happened, as a row of its own', async () => {
    const [ask, answer, later] = [message('user', 'I always use pnpm', { createdAt: 1000 }), message('assistant', 'Noted.', { createdAt: 2000 }), message('user', 'Now deploy', { createdAt: 5000 })]
    const harness = await renderApp({
      'sessions.list': { sessions: [session('s1', 'Notes')], nextCursor: null },
      'sessions.get': { session: session('s1', 'Notes'), messages: [ask, answer, later], running: false, learned: [{ reviewId: 'rv1', at: 3000, summary: learned({ memory: 1 }), requested: false }] }
    })
    await open(harness)
    const cells = [...document.querySelectorAll('.message-cell')].map((cell) => (cell.querySelector('aside') ? 'note' : (cell.textContent ?? '').slice(0, 10)))
    expect(cells).toEqual(['I always u', 'Noted.', 'note', 'Now deploy'])
  })
})

describe('rendering cost', () => {
  const user = message('user', 'Show me')

  async function openShort(messages: DisplayMessage[] = [user]) {
    const harness = await renderApp({
      'sessions.list': { sessions: [session('s1', 'Code')], nextCursor: null },
      'sessions.get': { session: session('s1', 'Code'), messages, running: false }
    })
    await open(harness)
    return harness
  }

  it('streams an answer as plain code and highlights it once the answer is finished', async () => {
    const harness = await openShort()
    act(() => {
      for (const event of turnEvents('s1', 't2', [{ type: 'turn_started', userMessageId: user.id }, { type: 'text_delta', text: 'Here:\n\n```js\nconst x = 1\n' }])) harness.bridge.emit('chat.event', event)
      harness.frames.run()
    })
    const live = document.querySelector('.message.streaming')!
    expect(live.querySelector('code')!.textContent).toBe('const x = 1')
    expect(live.querySelector('.hljs-keyword')).toBeNull()

    harness.bridge.set('sessions.get', { session: session('s1', 'Code'), messages: [user, message('assistant', 'Here:\n\n```js\nconst x = 1\n```')], running: false })
    act(() => {
      for (const event of turnEvents('s1', 't2', [{ type: 'assistant_message', messageId: 90, content: 'Here:\n\n```js\nconst x = 1\n```', toolCallCount: 0 }, { type: 'turn_finished', reason: 'stop' }])) {
        harness.bridge.emit('chat.event', event)
      }
    })
    await settle()
    expect(document.querySelector('.message.streaming')).toBeNull()
    expect(document.querySelector('.message.assistant .hljs-keyword')?.textContent).toBe('const')
  })

  it('folds a long code block to its first lines, unhighlighted until shown whole', async () => {
    const code = Array.from({ length: 500 }, (_, i) => `const line${i} = ${i}`).join('\n')
    await openShort([user, message('assistant', `\`\`\`js\n${code}\n\`\`\``)])
    const block = document.querySelector<HTMLElement>('.code-block')!
    expect(block.querySelector('code')!.textContent!.split('\n')).toHaveLength(30)
    expect(block.querySelector('.hljs-keyword')).toBeNull()
    fireEvent.click(within(block).getByRole('button', { name: 'Show all 500 lines' }))
    expect(block.querySelector('code')!.textContent).toBe(code)
    expect(block.querySelectorAll('.hljs-keyword')).toHaveLength(500)
  })

  it('shows a 1 MB tool output folded: only its head reaches the DOM', async () => {
    const stdout = 'x'.repeat(1_000_000)
    const call = { id: 'c1', name: 'run_command', arguments: JSON.stringify({ command: 'cat big.log' }) }
    await openShort([
      user,
      message('assistant', '', { toolCalls: [call] }),
      message('tool', JSON.stringify({ success: true, exit_code: 0, stdout, stderr: '' }), { toolCallId: 'c1', toolName: 'run_command' })
    ])
    const output = document.querySelector('.terminal-stdout')!
    expect(output.textContent!.length).toBeLessThan(5000)
    fireEvent.click(screen.getByRole('button', { name: 'Show all 1,000,000 characters' }))
    expect(document.querySelector('.terminal-stdout')!.textContent).toHaveLength(1_000_000)
  })
})

describe('streamed markdown in blocks', () => {
  it('cuts at blank lines but never inside a fenced code block, so each block parses alone', () => {
    const text = 'First paragraph\nstill first\n\n```py\nx = 1\n\ny = 2\n```\n\n- a\n- b\n\nTail being writ'
    expect(markdownBlocks(text)).toEqual(['First paragraph\nstill first\n', '```py\nx = 1\n\ny = 2\n```\n', '- a\n- b\n', 'Tail being writ'])
    expect(markdownBlocks(text).join('\n')).toBe(text)
  })
})

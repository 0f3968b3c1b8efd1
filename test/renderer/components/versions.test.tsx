import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { message, session } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const question = message('user', 'Name a colour')
const answer = message('assistant', 'Blue.', {
  model: 'gpt-test',
  usage: { promptTokens: 1200, completionTokens: 30, cachedTokens: 1000 },
  versions: { position: 2, total: 3, previous: 11, next: 12 }
})

async function openChat(messages = [question, answer], extra: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({
    'sessions.list': [session('s1', 'Colours')],
    'sessions.get': { session: session('s1', 'Colours'), messages, running: false },
    'chat.edit': { sessionId: 's1', turnId: 't2' },
    'chat.showVersion': { ok: true },
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: /^Colours/ }))
  await settle()
  return harness
}

describe('answer versions', () => {
  it('shows which version is shown and switches to the one before or after', async () => {
    const harness = await openChat()
    const group = screen.getByRole('group', { name: 'Version 2 of 3' })
    expect(within(group).getByText('2/3')).toBeTruthy()
    fireEvent.click(within(group).getByRole('button', { name: 'Previous version' }))
    await settle()
    fireEvent.click(within(group).getByRole('button', { name: 'Next version' }))
    await settle()
    expect(harness.bridge.callsTo('chat.showVersion')).toEqual([
      { sessionId: 's1', branchId: 11 },
      { sessionId: 's1', branchId: 12 }
    ])
  })

  it('disables the arrow at either end', async () => {
    await openChat([question, { ...answer, versions: { position: 1, total: 2, previous: null, next: 40 } }])
    const group = screen.getByRole('group', { name: 'Version 1 of 2' })
    expect((within(group).getByRole('button', { name: 'Previous version' }) as HTMLButtonElement).disabled).toBe(true)
    expect((within(group).getByRole('button', { name: 'Next version' }) as HTMLButtonElement).disabled).toBe(false)
  })

  it('names the model and the tokens of the answer', async () => {
    await openChat()
    const facts = screen.getByLabelText(/Answered by gpt-test/)
    expect(facts.getAttribute('title')).toBe('Answered by gpt-test · 1,200 in · 30 out · 1,000 of the input from the cache')
  })
})

describe('editing a sent message', () => {
  it('opens the message in place and sends the new words in its place, dropping what followed from view', async () => {
    const harness = await openChat()
    fireEvent.click(screen.getByRole('button', { name: 'Edit message' }))
    const editor = screen.getByRole('textbox', { name: 'Edit your message' }) as HTMLTextAreaElement
    expect(editor.value).toBe('Name a colour')
    fireEvent.change(editor, { target: { value: 'Name a fruit' } })
    fireEvent.keyDown(editor, { key: 'Enter' })
    await settle()
    expect(harness.bridge.callsTo('chat.edit')).toEqual([{ sessionId: 's1', messageId: question.id, text: 'Name a fruit' }])
    expect(screen.getByText('Name a fruit')).toBeTruthy()
    expect(screen.queryByText('Blue.')).toBeNull()
  })

  it('cancels on Esc without sending anything', async () => {
    const harness = await openChat()
    fireEvent.click(screen.getByRole('button', { name: 'Edit message' }))
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Edit your message' }), { key: 'Escape' })
    expect(screen.queryByRole('textbox', { name: 'Edit your message' })).toBeNull()
    expect(screen.getByText('Name a colour')).toBeTruthy()
    expect(harness.bridge.callsTo('chat.edit')).toEqual([])
  })

  it('offers no edit for a message condensed away', async () => {
    await openChat([{ ...question, compacted: true }, message('user', 'Later question')])
    fireEvent.click(screen.getByRole('button', { name: /earlier message condensed/ }))
    expect(screen.getByText('Name a colour')).toBeTruthy()
    expect(screen.getAllByRole('button', { name: 'Edit message' })).toHaveLength(1)
  })

  it('opens the last message for editing with ↑ in an empty composer, and not when there is a draft', async () => {
    await openChat([question, answer, message('user', 'And a fruit?')])
    const box = screen.getByRole('textbox', { name: 'Message' })
    fireEvent.change(box, { target: { value: 'draft' } })
    fireEvent.keyDown(box, { key: 'ArrowUp' })
    expect(screen.queryByRole('textbox', { name: 'Edit your message' })).toBeNull()
    fireEvent.change(box, { target: { value: '' } })
    fireEvent.keyDown(box, { key: 'ArrowUp' })
    expect((screen.getByRole('textbox', { name: 'Edit your message' }) as HTMLTextAreaElement).value).toBe('And a fruit?')
  })
})

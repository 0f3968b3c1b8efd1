import { fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { shortcutActionFor, shortcutGroups } from '../../../renderer/src/app/shortcuts'
import { message, session } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const question = message('user', 'How do I deploy?')
const answer = message('assistant', 'Run `make deploy` from the repo root.')

async function openConversation(messages = [question, answer]) {
  const harness = await renderApp({
    'sessions.list': [session('s1', 'Deploy day')],
    'sessions.get': { session: session('s1', 'Deploy day'), messages, running: false }
  })
  fireEvent.click(screen.getByRole('button', { name: /^Deploy day/ }))
  await settle()
  return harness
}

const press = (key: string, init: KeyboardEventInit = {}, target: Element = document.body) => fireEvent.keyDown(target, { key, ...init })

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard')
})

describe('keyboard shortcuts', () => {
  it('Ctrl+N leaves the open conversation for a new chat, from any screen', async () => {
    const harness = await openConversation()
    expect(screen.getByText('How do I deploy?')).toBeTruthy()
    press(',', { ctrlKey: true })
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy()

    press('n', { ctrlKey: true })
    await settle()
    expect(screen.queryByRole('heading', { level: 1, name: 'Settings' })).toBeNull()
    expect(screen.queryByText('How do I deploy?')).toBeNull()
    expect(harness.app.chat.getState().sessionId).toBeNull()
  })

  it('Ctrl+, and Cmd+, open Settings even while typing in the message box', async () => {
    await openConversation()
    const box = screen.getByRole('textbox', { name: /message/i })
    press(',', { metaKey: true }, box)
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy()
  })

  it('Ctrl+Shift+C copies the last answer and says so', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    await openConversation([question, message('assistant', 'First answer'), message('user', 'And rollback?'), answer])
    press('C', { ctrlKey: true, shiftKey: true })
    await settle()
    expect(writeText).toHaveBeenCalledWith('Run `make deploy` from the repo root.')
    expect(screen.getByText('Copied the last answer')).toBeTruthy()
  })

  it('says there is nothing to copy in a conversation without an answer, and copies nothing', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    await openConversation([question])
    press('c', { metaKey: true, shiftKey: true })
    await settle()
    expect(writeText).not.toHaveBeenCalled()
    expect(screen.getByText('There is no answer to copy in this conversation yet.')).toBeTruthy()
  })

  it('shows a clear error when the clipboard refuses', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn().mockRejectedValue(new Error('Write permission denied.')) }, configurable: true })
    await openConversation()
    press('C', { ctrlKey: true, shiftKey: true })
    await settle()
    expect(screen.getByRole('alert').textContent).toContain('Could not copy the answer: Write permission denied.')
  })

  it('? opens the shortcuts dialog listing every group, Esc closes it; ? typed in a field is just text', async () => {
    await openConversation()
    const box = screen.getByRole('textbox', { name: /message/i })
    press('?', { shiftKey: true }, box)
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull()

    press('?', { shiftKey: true })
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' })
    for (const group of ['Everywhere', 'Chat', 'A tool waiting for approval', 'Inbox', 'Memory']) expect(within(dialog).getByRole('region', { name: group })).toBeTruthy()
    const line = (label: string) => within(dialog).getByText(label).closest('.shortcut-line')?.textContent
    expect(line('New chat')).toContain('CtrlN')
    expect(line('Copy the last answer')).toContain('CtrlShiftC')
    expect(line('Show these shortcuts')).toBe('Show these shortcuts?orCtrl/')
    expect(line('Edit your last message (in an empty message box)')).toContain('↑')
    expect(line('Approve')).toContain('A')

    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull()

    press('/', { ctrlKey: true }, box)
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy()
    press('/', { ctrlKey: true })
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull()
  })

  it('lists the quick-prompt shortcut from Settings in the desktop app', async () => {
    await openConversation()
    press('?')
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' })
    expect(within(dialog).getByText('Open the quick prompt, from any app').closest('.shortcut-line')?.textContent).toContain('CtrlShiftSpace')
  })

  it('acts on exactly the window-wide keys the help lists', () => {
    const listed = shortcutGroups.flatMap((group) => group.shortcuts).filter((shortcut) => shortcut.action)
    expect(listed.map((shortcut) => shortcut.action).sort()).toEqual(['back', 'copyAnswer', 'forward', 'help', 'newChat', 'newIncognitoChat', 'promptLibrary', 'search', 'settings', 'sidebar'])
    const event = (key: string, mods: Partial<KeyboardEvent> = {}) => ({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods })
    expect(shortcutActionFor(event('n', { ctrlKey: true }), true)).toBe('newChat')
    // Shift makes it another shortcut (issue 28: a new incognito chat), not Ctrl+N with a stray modifier.
    expect(shortcutActionFor(event('N', { ctrlKey: true, shiftKey: true }), false)).toBe('newIncognitoChat')
    expect(shortcutActionFor(event('n', { ctrlKey: true, altKey: true }), false)).toBeNull()
    expect(shortcutActionFor(event('n'), false)).toBeNull()
    expect(shortcutActionFor(event('c', { metaKey: true }), false)).toBeNull()
    expect(shortcutActionFor(event('?', { shiftKey: true }), false)).toBe('help')
    expect(shortcutActionFor(event('?', { shiftKey: true }), true)).toBeNull()
    // Chrome's autofill sends keydown events without a key: they are nobody's shortcut.
    expect(shortcutActionFor({ ...event('n', { ctrlKey: true }), key: undefined as unknown as string }, false)).toBeNull()
  })
})

import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { MemoryStoreView } from '../../../shared/ipc/domain'
import { config, memoryView, message, NOW, session, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const hour = 60 * 60 * 1000
const iso = (at: number) => new Date(at).toISOString()

function user(pinned: boolean): MemoryStoreView {
  return memoryView(['Prefers pnpm', 'Lives in Lisbon', 'Name is Ana'], 60, 2100, [
    { source: 'review', updatedAt: iso(Date.now() - 2 * hour), createdAt: iso(Date.now() - 2 * hour), sessionId: 's1', reviewId: 'rv1', ledgerId: 3, pinned },
    { source: 'user', updatedAt: iso(Date.now() - 3 * 24 * hour), createdAt: iso(Date.now() - 5 * 24 * hour), ledgerId: 2 },
    {}
  ])
}

async function openMemory(extra: Parameters<typeof renderApp>[0] = {}) {
  let pinned = false
  const harness = await renderApp({
    'sessions.list': [session('s1', 'Set up the repo', NOW)],
    'sessions.get': { session: session('s1', 'Set up the repo', NOW), messages: [message('user', 'hello')], running: false },
    'memory.get': () => ({ memory: memoryView([], 0, 2200), user: user(pinned) }),
    'memory.setPinned': (input) => {
      pinned = input.pinned
      return { ok: true as const }
    },
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: /^(Memory|记忆)$/ }))
  await settle()
  return harness
}

const entry = (text: string) => screen.getByText(text).closest('li') as HTMLElement

describe('memory: where each entry came from, and pins', () => {
  it('shows who wrote each entry and when, with a link to the conversation it came from', async () => {
    const harness = await openMemory()
    expect(within(entry('Prefers pnpm')).getByText('Learned by a review 2 hours ago')).toBeTruthy()
    expect(within(entry('Lives in Lisbon')).getByText('Written by you 3 days ago')).toBeTruthy()
    expect(within(entry('Lives in Lisbon')).getByText('first saved 5 days ago')).toBeTruthy()
    expect(within(entry('Name is Ana')).getByText('Written by hand')).toBeTruthy()

    fireEvent.click(within(entry('Prefers pnpm')).getByRole('button', { name: 'From “Set up the repo”' }))
    await settle()
    expect(harness.bridge.callsTo('sessions.get')).toEqual([{ sessionId: 's1' }])
    expect(screen.getByRole('heading', { name: 'Set up the repo' })).toBeTruthy()
  })

  it('pins and unpins an entry through memory.setPinned', async () => {
    const harness = await openMemory()
    const pin = within(entry('Prefers pnpm')).getByRole('button', { name: 'Pinned' })
    expect(pin.getAttribute('aria-pressed')).toBe('false')
    fireEvent.click(pin)
    await settle()
    expect(harness.bridge.callsTo('memory.setPinned')).toEqual([{ target: 'user', text: 'Prefers pnpm', pinned: true }])
    expect(within(entry('Prefers pnpm')).getByRole('button', { name: 'Pinned' }).getAttribute('aria-pressed')).toBe('true')
    expect(within(entry('Prefers pnpm')).getByText('Pinned', { selector: '.badge' })).toBeTruthy()

    fireEvent.click(within(entry('Prefers pnpm')).getByRole('button', { name: 'Pinned' }))
    await settle()
    expect(harness.bridge.callsTo('memory.setPinned')).toEqual([
      { target: 'user', text: 'Prefers pnpm', pinned: true },
      { target: 'user', text: 'Prefers pnpm', pinned: false }
    ])
  })

  it('words provenance in Chinese', async () => {
    await openMemory({ 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    expect(within(entry('Name is Ana')).getByText('手动写入')).toBeTruthy()
    expect(within(entry('Prefers pnpm')).getByText('2小时前由回顾学到')).toBeTruthy()
  })
})

import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { MemoryStoreView } from '../../../shared/ipc/domain'
import { config, memoryView, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const hour = 60 * 60 * 1000
const iso = (at: number) => new Date(at).toISOString()

function user(hiddenAt: number | null): MemoryStoreView {
  return memoryView(['Lost their job in March', 'Lives in Lisbon'], 60, 2100, [
    { hidden: hiddenAt !== null, hiddenAt: hiddenAt === null ? null : iso(hiddenAt) },
    { hidden: false, hiddenAt: null }
  ])
}

async function openMemory(extra: Parameters<typeof renderApp>[0] = {}) {
  let hiddenAt: number | null = null
  const changes: Array<{ entry: string; hidden: boolean; at: string }> = []
  const harness = await renderApp({
    'memory.get': () => ({ memory: memoryView([], 0, 2200), user: user(hiddenAt) }),
    'memory.setHidden': (input) => {
      hiddenAt = input.hidden ? Date.now() - 2 * hour : null
      changes.unshift({ entry: input.text, hidden: input.hidden, at: iso(Date.now() - (input.hidden ? 2 * hour : 0)) })
      return { ok: true as const }
    },
    'memory.visibilityHistory': () => changes,
    'memory.history': () => [],
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: /^(Memory|记忆)$/ }))
  await settle()
  return harness
}

const entry = (text: string) => screen.getByText(text).closest('li') as HTMLElement

describe('memory: "Don\'t bring this up"', () => {
  it('hides an entry, keeps it listed and greyed with the way back, says usage still counts it, and brings it back', async () => {
    const harness = await openMemory()
    const toggle = within(entry('Lost their job in March')).getByRole('button', { name: "Don't bring this up" })
    expect(toggle.getAttribute('aria-pressed')).toBe('false')
    expect(screen.queryByText(/still counted/)).toBeNull()
    toggle.focus()
    fireEvent.click(toggle)
    await settle()
    expect(harness.bridge.callsTo('memory.setHidden')).toEqual([{ target: 'user', text: 'Lost their job in March', hidden: true }])
    const row = entry('Lost their job in March')
    expect(row.className).toContain('hidden-entry')
    expect(within(row).getByRole('button', { name: "Don't bring this up" }).getAttribute('aria-pressed')).toBe('true')
    expect(within(row).getByText('Hidden')).toBeTruthy()
    expect(within(row).getByText('Left out of new conversations')).toBeTruthy()
    expect(screen.getByText('1 hidden entry: still counted, since hidden entries stay in the file.')).toBeTruthy()

    // Its history says when the user decided so.
    fireEvent.click(within(row).getByRole('button', { name: 'History' }))
    await settle()
    expect(within(entry('Lost their job in March')).getByText('You asked not to bring it up')).toBeTruthy()

    fireEvent.click(within(entry('Lost their job in March')).getByRole('button', { name: 'Bring it up again' }))
    await settle()
    expect(harness.bridge.callsTo('memory.setHidden').at(-1)).toEqual({ target: 'user', text: 'Lost their job in March', hidden: false })
    expect(entry('Lost their job in March').className).not.toContain('hidden-entry')
    expect(within(entry('Lost their job in March')).getByText('You brought it up again')).toBeTruthy()
  })

  it('words it in Chinese', async () => {
    await openMemory({ 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    fireEvent.click(within(entry('Lost their job in March')).getByRole('button', { name: '不要再提起' }))
    await settle()
    expect(within(entry('Lost their job in March')).getByText('已隐藏')).toBeTruthy()
    expect(within(entry('Lost their job in March')).getByRole('button', { name: '重新提起' })).toBeTruthy()
  })
})

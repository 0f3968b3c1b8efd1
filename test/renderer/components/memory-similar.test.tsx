import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { RouteOutput } from '../../../shared/ipc/contract'
import { config, memoryView, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const day = 24 * 60 * 60 * 1000
const iso = (at: number) => new Date(at).toISOString()

async function openMemory(addAnswer: RouteOutput<'memory.add'>, extra: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({
    'memory.get': {
      memory: memoryView([], 0, 2200),
      user: memoryView(['Prefers pnpm over npm for Node projects', 'Lives in Lisbon'], 60, 2100, [
        { source: 'review', updatedAt: iso(Date.now() - 40 * day), createdAt: iso(Date.now() - 40 * day), confirmedAt: iso(Date.now() - 2 * day), ledgerId: 3 },
        { source: 'user', updatedAt: iso(Date.now() - 3 * day), createdAt: iso(Date.now() - 3 * day), confirmedAt: null, ledgerId: 4 }
      ])
    },
    'memory.add': addAnswer,
    'memory.replace': { success: true },
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: /^(Memory|记忆)$/ }))
  await settle()
  return { harness, user: screen.getByRole('region', { name: /^(About you|关于你)$/ }) }
}

const entry = (text: string) => screen.getByText(text).closest('li') as HTMLElement

async function typeAndAdd(user: HTMLElement, text: string, button = 'Add') {
  fireEvent.change(within(user).getByRole('textbox'), { target: { value: text } })
  fireEvent.click(within(user).getByRole('button', { name: button }))
  await settle()
}

describe('memory: dates and repeated entries', () => {
  it('shows when an entry was last confirmed, apart from when it was saved', async () => {
    await openMemory({ success: true })
    expect(within(entry('Prefers pnpm over npm for Node projects')).getByText('last confirmed 2 days ago')).toBeTruthy()
    expect(within(entry('Lives in Lisbon')).queryByText(/last confirmed/)).toBeNull()
  })

  it('says so when the entry is already saved word for word', async () => {
    const { user } = await openMemory({ success: true, message: 'Entry already exists', duplicate: true })
    await typeAndAdd(user, 'Lives in Lisbon')
    expect(screen.getByText('This entry is already saved, word for word. Nothing was added; it now counts as confirmed.')).toBeTruthy()
  })

  it('shows the entry a reworded add repeats, and replaces it or adds anyway on request', async () => {
    const similar = { kind: 'near_duplicate' as const, entry: 'Prefers pnpm over npm for Node projects' }
    const { harness, user } = await openMemory({ success: false, error: 'Not added: …', similar })
    await typeAndAdd(user, 'Uses pnpm, not npm, for Node projects')
    expect(screen.getByText('Not added: an entry already says nearly the same.')).toBeTruthy()
    expect(screen.queryByText('Not added: …')).toBeNull() // the model's English is not shown to a person
    fireEvent.click(screen.getByRole('button', { name: 'Replace that entry with yours' }))
    await settle()
    expect(harness.bridge.callsTo('memory.replace')).toEqual([
      { target: 'user', oldText: 'Prefers pnpm over npm for Node projects', content: 'Uses pnpm, not npm, for Node projects' }
    ])

    await typeAndAdd(user, 'Prefers pnpm for Node work')
    fireEvent.click(screen.getByRole('button', { name: 'Add anyway' }))
    await settle()
    expect(harness.bridge.callsTo('memory.add').at(-1)).toEqual({ target: 'user', content: 'Prefers pnpm for Node work', allowSimilar: true })
  })

  it('words the dates and a contradiction in Chinese', async () => {
    const similar = { kind: 'contradiction' as const, entry: 'Lives in Lisbon' }
    const { user } = await openMemory({ success: false, error: 'Not added', similar }, { 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    expect(within(entry('Prefers pnpm over npm for Node projects')).getByText(/^最近确认于/)).toBeTruthy()
    await typeAndAdd(user, 'Lives in Porto', '添加')
    expect(screen.getByText('未添加：它与已保存的一条记忆相矛盾。')).toBeTruthy()
    expect(screen.getByRole('button', { name: '用你的这条替换它' })).toBeTruthy()
  })
})

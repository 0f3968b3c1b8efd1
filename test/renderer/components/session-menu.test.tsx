import { fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SessionSummary } from '../../../shared/ipc/domain'
import { message, session } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'
import { moreButton, sectionTitles } from '../helpers/sidebar'

const DAY = 86_400_000

/** A list the fake main keeps, so the reload after `sessions.changed` sees what the routes changed. */
function conversations(...items: SessionSummary[]) {
  const list = [...items]
  const patch = (id: string, change: Partial<SessionSummary>) => {
    const at = list.findIndex((s) => s.id === id)
    list[at] = { ...list[at], ...change }
    return list[at]
  }
  return {
    'sessions.list': () => structuredClone(list),
    'sessions.setFlags': ({ sessionId, pinned, archived }: { sessionId: string; pinned?: boolean; archived?: boolean }) =>
      patch(sessionId, { ...(pinned === undefined ? {} : { pinned }), ...(archived === undefined ? {} : { archived }) }),
    'sessions.delete': ({ sessionId }: { sessionId: string }) => {
      list.splice(list.findIndex((s) => s.id === sessionId), 1)
      return { ok: true as const }
    }
  }
}


async function openMenu(title: string) {
  fireEvent.click(moreButton(title))
  return screen.getByRole('menu', { name: `Actions for “${title}”` })
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the conversation menu in the sidebar', () => {
  it('pins a conversation to the top and archives one behind the Archived toggle', async () => {
    const harness = await renderApp(conversations(session('s1', 'Groceries', Date.now() - 3 * DAY), session('s2', 'Taxes', Date.now() - 60_000)))
    expect(sectionTitles('Previous 7 days')).toEqual(['Groceries'])

    fireEvent.click(within(await openMenu('Groceries')).getByRole('menuitem', { name: 'Pin' }))
    await settle()
    expect(harness.bridge.callsTo('sessions.setFlags')).toEqual([{ sessionId: 's1', pinned: true }])
    expect(sectionTitles('Pinned')).toEqual(['Groceries'])
    expect(sectionTitles('Previous 7 days')).toBeNull()

    fireEvent.click(within(await openMenu('Taxes')).getByRole('menuitem', { name: 'Archive' }))
    await settle()
    expect(sectionTitles('Today')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Show archived' }))
    await settle()
    expect(sectionTitles('Archived')).toEqual(['Taxes'])
    fireEvent.click(within(await openMenu('Taxes')).getByRole('menuitem', { name: 'Unarchive' }))
    await settle()
    expect(sectionTitles('Today')).toEqual(['Taxes'])
    expect(screen.queryByRole('button', { name: /archived/ })).toBeNull()
  })

  it('is keyboard reachable: arrows move, Escape closes and gives focus back; right-click opens it too', async () => {
    await renderApp(conversations(session('s1', 'Groceries')))
    const menu = await openMenu('Groceries')
    const items = within(menu).getAllByRole('menuitem')
    expect(items.map((i) => i.textContent)).toEqual(['Pin', 'Archive', 'Export as Markdown…', 'Export as JSON…', 'Delete…'])
    expect(document.activeElement).toBe(items[0])
    fireEvent.keyDown(menu, { key: 'ArrowDown' })
    expect(document.activeElement).toBe(items[1])
    fireEvent.keyDown(menu, { key: 'ArrowUp' })
    fireEvent.keyDown(menu, { key: 'ArrowUp' })
    expect(document.activeElement).toBe(items[4])
    fireEvent.keyDown(menu, { key: 'Escape' })
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(moreButton('Groceries'))

    fireEvent.contextMenu(screen.getByRole('button', { name: /^Groceries/ }))
    expect(screen.getByRole('menu', { name: 'Actions for “Groceries”' })).toBeTruthy()
  })

  it('asks before deleting and says what stays and what goes', async () => {
    const harness = await renderApp(conversations(session('s1', 'Groceries'), session('s2', 'Taxes')))
    fireEvent.click(within(await openMenu('Groceries')).getByRole('menuitem', { name: 'Delete…' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete “Groceries”?' })
    expect(dialog.textContent).toContain('The conversation, its messages and its search index are removed.')
    expect(dialog.textContent).toContain('memory entries and skills are kept, and the Timeline keeps every change it made')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(harness.bridge.callsTo('sessions.delete')).toEqual([])

    fireEvent.click(within(await openMenu('Groceries')).getByRole('menuitem', { name: 'Delete…' }))
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete conversation' }))
    await settle()
    expect(harness.bridge.callsTo('sessions.delete')).toEqual([{ sessionId: 's1' }])
    expect(screen.queryByRole('button', { name: /^Groceries/ })).toBeNull()
    expect(screen.getByRole('button', { name: /^Taxes/ })).toBeTruthy()
  })

  it('exports through a download link with the file main made', async () => {
    const harness = await renderApp({
      ...conversations(session('s1', 'Groceries')),
      'sessions.export': { fileName: 'Groceries-s1.md', mimeType: 'text/markdown', text: '# Groceries\n' }
    })
    const blobs: Blob[] = []
    // jsdom has no object URLs; the download link itself is what the test watches.
    URL.createObjectURL = (blob: Blob) => (blobs.push(blob), 'blob:groceries')
    URL.revokeObjectURL = () => {}
    const clicked: Array<{ href: string; download: string }> = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download })
    })
    fireEvent.click(within(await openMenu('Groceries')).getByRole('menuitem', { name: 'Export as Markdown…' }))
    await settle()
    expect(harness.bridge.callsTo('sessions.export')).toEqual([{ sessionId: 's1', format: 'md' }])
    expect(clicked).toEqual([{ href: 'blob:groceries', download: 'Groceries-s1.md' }])
    expect(await blobs[0].text()).toBe('# Groceries\n')
    expect(screen.getByText('Saved Groceries-s1.md')).toBeTruthy()
  })

  it('asks the same question from the chat header, and an open conversation gives way to a new chat', async () => {
    const harness = await renderApp({
      ...conversations(session('s1', 'Groceries'), session('s2', 'Taxes')),
      'sessions.get': () => ({ session: session('s1', 'Groceries'), messages: [message('user', 'milk')], running: false }),
      'chat.attach': { running: false, events: [] }
    })
    fireEvent.click(screen.getByRole('button', { name: /^Groceries/ }))
    await settle()
    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Delete conversation' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete “Groceries”?' })
    expect(dialog.textContent).toContain('The conversation, its messages and its search index are removed.')
    expect(dialog.textContent).toContain('memory entries and skills are kept, and the Timeline keeps every change it made')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(harness.bridge.callsTo('sessions.delete')).toEqual([])

    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Delete conversation' }))
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete conversation' }))
    await settle()
    expect(harness.bridge.callsTo('sessions.delete')).toEqual([{ sessionId: 's1' }])
    expect(harness.app.chat.getState().sessionId).toBeNull()
  })
})

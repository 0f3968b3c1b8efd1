import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { MemoryLedgerEntry, RevertResult } from '../../../shared/ledger'
import { config, ledger, memoryView, session, settingsView } from '../helpers/fixtures'
import { englishLeft } from '../helpers/english'
import { FakeFailure } from '../helpers/fake-transport'
import { renderApp, settle } from '../helpers/render-app'

const hour = 60 * 60 * 1000
const ago = (ms: number) => new Date(Date.now() - ms).toISOString()
const row = (id: number, fields: Parameters<typeof ledger>[1]) => ledger(id, fields) as MemoryLedgerEntry

/** What made "Prefers pnpm" what it is, newest first: a chat added it, a review reworded it, the user trimmed it. */
const versions = [
  row(12, { kind: 'memory.replace', source: 'user', before: 'Prefers pnpm for Node', after: 'Prefers pnpm', at: ago(hour) }),
  row(7, { kind: 'memory.replace', source: 'review', sessionId: 's1', before: 'Prefers npm', after: 'Prefers pnpm for Node', at: ago(2 * 24 * hour) }),
  row(3, { kind: 'memory.add', source: 'agent', before: null, after: 'Prefers npm', at: ago(5 * 24 * hour) })
]

/**
 * main's Memory screen routes over USER.md and its ledger: history follows an entry's chain of
 * versions back to its add, a restore writes the old text as a new row (source `user`).
 */
function fakeMain(restoreAnswer?: RevertResult) {
  let entries = ['Prefers pnpm', 'Lives in Lisbon']
  const rows: MemoryLedgerEntry[] = [...versions]
  const chainOf = (text: string) => {
    const chain: MemoryLedgerEntry[] = []
    let current = rows.find((r) => r.after === text)
    while (current) {
      chain.push(current)
      const { before, id } = current
      current = before === null ? undefined : rows.find((r) => r.id < id && r.after === before)
    }
    return chain
  }
  return {
    'sessions.list': [session('s1', 'Set up the repo')],
    'memory.get': () => ({ memory: memoryView([], 0, 2200), user: memoryView(entries, 40, 1375) }),
    'memory.history': ({ entry }: { entry?: string }) => chainOf(entry ?? ''),
    'memory.restore': ({ ledgerId }: { ledgerId: number }): RevertResult => {
      if (restoreAnswer) return restoreAnswer
      const from = rows.find((r) => r.id === ledgerId)!
      const restored = row(20, { kind: 'memory.replace', source: 'user', before: entries[0], after: from.after, at: ago(0) })
      entries = [from.after!, ...entries.slice(1)]
      rows.unshift(restored)
      return { ok: true, revertEntry: restored }
    }
  }
}

async function openHistory(extra: Parameters<typeof renderApp>[0] = {}, restoreAnswer?: RevertResult) {
  const harness = await renderApp({ ...fakeMain(restoreAnswer), ...extra })
  fireEvent.click(screen.getByRole('button', { name: /^(Memory|记忆)$/ }))
  await settle()
  fireEvent.click(within(entryOf('Prefers pnpm')).getByRole('button', { name: /^(History|历史)$/ }))
  await settle()
  return harness
}

const entryOf = (text: string) => screen.getByText(text, { selector: '.memory-text' }).closest('li') as HTMLElement
const historyPanel = () => screen.getByRole('region', { name: /^(Versions of this entry|这个条目的各个版本)$/ })
const versionRows = () => within(historyPanel()).getAllByRole('listitem')

describe('memory: an entry’s history', () => {
  it('lists every version of the entry, newest first: when, who, and the text', async () => {
    const harness = await openHistory()
    expect(harness.bridge.callsTo('memory.history')).toEqual([{ target: 'user', entry: 'Prefers pnpm' }])
    const button = within(entryOf('Prefers pnpm')).getByRole('button', { name: 'History' })
    expect(button.getAttribute('aria-expanded')).toBe('true')
    expect(button.getAttribute('aria-controls')).toBe(historyPanel().id)

    const [trimmed, reworded, added] = versionRows()
    expect(within(trimmed).getByText('Memory updated')).toBeTruthy()
    expect(within(trimmed).getByText('You')).toBeTruthy()
    expect(within(trimmed).getByText('1 hour ago')).toBeTruthy()
    expect(within(trimmed).getByText('Current')).toBeTruthy()
    // The current version is what the entry reads now: nothing to restore.
    expect(within(trimmed).queryByRole('button', { name: /Restore/ })).toBeNull()

    expect(within(reworded).getByText('Review')).toBeTruthy()
    expect(within(reworded).getByText('Prefers pnpm for Node')).toBeTruthy()
    expect(within(reworded).getByText('2 days ago')).toBeTruthy()
    expect(within(reworded).getByRole('button', { name: 'Restore the version from 2 days ago' })).toBeTruthy()
    expect(within(added).getByText('Memory added')).toBeTruthy()
    expect(within(added).getByText('Chat')).toBeTruthy()
    expect(within(added).getByText('Prefers npm')).toBeTruthy()

    // Closing it again.
    fireEvent.click(button)
    expect(screen.queryByRole('region', { name: 'Versions of this entry' })).toBeNull()
    expect(button.getAttribute('aria-expanded')).toBe('false')
  })

  it('compares two versions in the diff viewer', async () => {
    await openHistory()
    const [trimmed, , added] = versionRows()
    fireEvent.click(within(added).getByRole('checkbox', { name: 'Compare the version from 5 days ago' }))
    expect(within(historyPanel()).getByText('Tick one more version to compare.')).toBeTruthy()
    fireEvent.click(within(trimmed).getByRole('checkbox', { name: 'Compare the version from 1 hour ago' }))
    const compare = within(historyPanel()).getByRole('region', { name: 'Comparing two versions' })
    expect([...compare.querySelectorAll('tr[data-type="del"] .code')].map((c) => c.textContent)).toEqual(['Prefers npm'])
    expect([...compare.querySelectorAll('tr[data-type="add"] .code')].map((c) => c.textContent)).toEqual(['Prefers pnpm'])
    expect(within(compare).getByText('USER.md')).toBeTruthy()

    fireEvent.click(within(compare).getByRole('button', { name: 'Clear' }))
    expect(within(historyPanel()).queryByRole('region', { name: 'Comparing two versions' })).toBeNull()
  })

  it('restores a version after a confirm, refreshes the memory view and keeps the history open on the restored entry', async () => {
    const harness = await openHistory()
    const restore = within(versionRows()[2]).getByRole('button', { name: 'Restore the version from 5 days ago' })
    act(() => restore.focus())
    fireEvent.click(restore)
    let dialog = screen.getByRole('dialog', { name: 'Restore this version?' })
    expect(within(dialog).getByText('Prefers npm')).toBeTruthy()
    // The keyboard is in the dialog, on Cancel; Esc leaves it, back on the Restore button, with nothing written.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }))
    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(restore)
    expect(harness.bridge.callsTo('memory.restore')).toEqual([])

    const loadsBefore = harness.bridge.callsTo('memory.get').length
    fireEvent.click(restore)
    dialog = screen.getByRole('dialog', { name: 'Restore this version?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }))
    await settle()
    expect(harness.bridge.callsTo('memory.restore')).toEqual([{ ledgerId: 3 }])
    expect(harness.bridge.callsTo('memory.get').length).toBeGreaterThan(loadsBefore)
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByText('Restored the entry in About you.')).toBeTruthy()

    const entry = entryOf('Prefers npm')
    expect(screen.queryByText('Prefers pnpm', { selector: '.memory-text' })).toBeNull()
    const history = within(entry).getByRole('button', { name: 'History' })
    expect(history.getAttribute('aria-expanded')).toBe('true')
    expect(document.activeElement).toBe(history)
    await settle()
    expect(harness.bridge.callsTo('memory.history')).toContainEqual({ target: 'user', entry: 'Prefers npm' })
    const [newest] = versionRows()
    expect(within(newest).getByText('Current')).toBeTruthy()
    expect(within(newest).getByText('You')).toBeTruthy()
  })

  it('says clearly when a restore is refused, and changes nothing', async () => {
    const harness = await openHistory({}, { ok: false, code: 'conflict', error: 'USER.md changed since.' })
    fireEvent.click(within(versionRows()[1]).getByRole('button', { name: /^Restore/ }))
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }))
    await settle()
    const dialog = screen.getByRole('dialog', { name: 'Could not restore' })
    expect(within(dialog).getByRole('alert').textContent).toContain('It was changed again after this change, so Cairn left it as it is.')
    expect(within(dialog).queryByRole('button', { name: 'Restore' })).toBeNull()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    expect(harness.bridge.callsTo('memory.restore')).toEqual([{ ledgerId: 7 }])
    expect(entryOf('Prefers pnpm')).toBeTruthy()
  })

  it('shows main’s own words under a refusal it gives no code for', async () => {
    await openHistory({}, { ok: false, error: 'The user store already holds this entry as timeline entry #7 left it; nothing was changed.' })
    fireEvent.click(within(versionRows()[1]).getByRole('button', { name: /^Restore/ }))
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }))
    await settle()
    const alert = within(screen.getByRole('dialog', { name: 'Could not restore' })).getByRole('alert')
    expect(alert.textContent).toContain('Cairn could not restore this version.')
    expect(alert.textContent).toContain('already holds this entry as timeline entry #7 left it')
  })

  it('says so when no version was recorded (an entry typed into the file by hand)', async () => {
    await renderApp(fakeMain())
    fireEvent.click(screen.getByRole('button', { name: 'Memory' }))
    await settle()
    fireEvent.click(within(entryOf('Lives in Lisbon')).getByRole('button', { name: 'History' }))
    await settle()
    expect(within(historyPanel()).getByText('No recorded versions: this entry was written into the file outside Cairn.')).toBeTruthy()
  })

  it('says why the history could not be read', async () => {
    await openHistory({
      'memory.history': () => {
        throw new FakeFailure('INTERNAL', 'database is locked')
      }
    })
    expect(within(historyPanel()).getByRole('alert').textContent).toBe('Could not load the history of this entry: database is locked')
  })

  it('speaks Chinese', async () => {
    await openHistory({ 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    const panel = historyPanel()
    const shown = (panel.textContent ?? '').replace(/Prefers pnpm for Node|Prefers pnpm|Prefers npm/g, ' ')
    expect(englishLeft(shown)).toEqual([])
    expect(within(versionRows()[0]).getByText('当前')).toBeTruthy()
    expect(within(panel).getAllByRole('button', { name: /^恢复/ })).toHaveLength(2)
  })
})

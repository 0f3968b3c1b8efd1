import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ArchiveEntryView } from '../../../shared/ipc/contract-archive'
import { memoryView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const DAY = 24 * 60 * 60 * 1000

function archived(id: number, text: string, overrides: Partial<ArchiveEntryView> = {}): ArchiveEntryView {
  return { id, target: 'user', projectKey: null, text, source: 'overflow', addedAt: Date.now() - 3 * DAY, lastRecalledAt: null, recallCount: 0, hidden: false, ...overrides }
}

// "About you" has 30 characters to spare: the short entry fits back, the long one does not.
async function openMemory(entries: ArchiveEntryView[]) {
  const harness = await renderApp({
    'memory.get': { memory: memoryView([], 0, 2200), user: memoryView(['Name is Ana', 'Prefers short answers'], 90, 120) },
    'archive.list': { entries, total: entries.length },
    'archive.setHidden': { ok: true },
    'archive.remove': { ok: true, ledgerId: 9 },
    'archive.restore': { success: true },
    'memory.search': { core: [{ target: 'user', position: 2, text: 'Prefers short answers' }], archive: [entries[0]] }
  })
  fireEvent.click(screen.getByRole('button', { name: 'Memory' }))
  await settle()
  return { harness, archive: screen.getByRole('region', { name: /^Archive/ }) }
}

describe('the Memory screen’s archive', () => {
  it('lists each entry with its source and dates, hides and unhides it, and moves back only what fits', async () => {
    const { harness, archive } = await openMemory([
      archived(1, 'Grows tomatoes', { lastRecalledAt: Date.now() - DAY }),
      archived(2, 'Runs a marathon every spring and trains from January on', { source: 'retired', target: 'user' })
    ])
    expect(within(archive).getByText('2 entries')).toBeTruthy()
    const tomatoes = within(archive).getByRole('listitem', { name: 'Archived entry: Grows tomatoes' })
    expect(within(tomatoes).getByText('Memory was full')).toBeTruthy()
    expect(within(tomatoes).getByText(/^added /)).toBeTruthy()
    expect(within(tomatoes).getByText(/^last recalled /)).toBeTruthy()
    const marathon = within(archive).getByRole('listitem', { name: /Archived entry: Runs a marathon/ })
    expect(within(marathon).getByText('never recalled')).toBeTruthy()
    expect((within(marathon).getByRole('button', { name: 'Move back to memory' }) as HTMLButtonElement).disabled).toBe(true)

    fireEvent.click(within(tomatoes).getByRole('button', { name: 'Move back to memory' }))
    await settle()
    expect(harness.bridge.callsTo('archive.restore')).toEqual([{ id: 1 }])
    fireEvent.click(within(tomatoes).getByRole('button', { name: "Don't bring this up" }))
    await settle()
    expect(harness.bridge.callsTo('archive.setHidden')).toEqual([{ id: 1, hidden: true }])
  })

  it('searches memory and the archive from one box, marking where each match lives', async () => {
    const { harness } = await openMemory([archived(1, 'Grows tomatoes')])
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search memory and the archive' }), { target: { value: 'tomatoes' } })
    await new Promise((resolve) => setTimeout(resolve, 250))
    await settle()
    expect(harness.bridge.callsTo('memory.search')).toEqual([{ query: 'tomatoes' }])
    const results = screen.getByRole('region', { name: 'Search memory and the archive' })
    expect(within(results).getByText('2 matches')).toBeTruthy()
    expect(within(results).getByText('In memory')).toBeTruthy()
    expect(within(results).getByText('In the archive')).toBeTruthy()
  })

  it('shows a hidden entry with its undo, and asks before removing', async () => {
    const { harness, archive } = await openMemory([archived(3, 'Once lived in Porto', { hidden: true })])
    expect(within(archive).getByText('Hidden: Cairn will not bring this up.')).toBeTruthy()
    fireEvent.click(within(archive).getByRole('button', { name: 'Undo' }))
    await settle()
    expect(harness.bridge.callsTo('archive.setHidden')).toEqual([{ id: 3, hidden: false }])
    fireEvent.click(within(archive).getByRole('button', { name: 'Remove' }))
    const dialog = screen.getByRole('dialog', { name: 'Remove this from the archive?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }))
    await settle()
    expect(harness.bridge.callsTo('archive.remove')).toEqual([{ id: 3 }])
  })
})

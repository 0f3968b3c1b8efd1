import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { RouteInput } from '../../../shared/ipc/contract'
import { FakeFailure } from '../helpers/fake-transport'
import { config, learningStatus, proposal, settingsView, type ProposalItem } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

/** main's `inbox.list` over `count` pending proposals: newest (highest id) first, `limit` at a time, older than `beforeId`. */
function manyPending(count: number, options: { failOlder?: boolean } = {}) {
  let pending: ProposalItem[] = Array.from({ length: count }, (_, index) => proposal(index + 1, { after: `fact ${index + 1}`, createdAt: 1_000_000 + index }))
  return {
    'inbox.list': ({ limit = 200, beforeId }: RouteInput<'inbox.list'>) => {
      if (beforeId !== undefined && options.failOlder) throw new FakeFailure('INTERNAL', 'database is locked')
      const older = pending.filter((p) => beforeId === undefined || p.id < beforeId).sort((a, b) => b.id - a.id)
      return { proposals: older.slice(0, limit), pending: pending.length }
    },
    'inbox.reject': ({ id }: { id: number }) => {
      const found = pending.find((p) => p.id === id)!
      pending = pending.filter((p) => p.id !== id)
      return { ok: true as const, proposal: { ...found, state: 'rejected' as const, decidedAt: Date.now() }, ledgerEntry: null }
    }
  }
}

async function openInbox(handlers: Parameters<typeof renderApp>[0]) {
  const harness = await renderApp(handlers)
  fireEvent.click(screen.getByRole('button', { name: /^(Inbox|待办)/ }))
  await settle()
  return harness
}

const cards = () => screen.getAllByRole('article')
const sidebar = () => screen.getByRole('navigation', { name: 'Sections' })

// Each test renders a page of 200 cards: slower than most under a busy CPU.
describe('the Inbox with more proposals than one page', { timeout: 15_000 }, () => {
  it('says how many of the pending proposals are shown, loads the older ones on request, and agrees with the badge', async () => {
    const harness = await openInbox({ ...manyPending(230), 'learning.status': learningStatus({ pendingProposals: 230, oldestPendingAt: Date.now() }) })
    expect(harness.bridge.callsTo('inbox.list')).toEqual([{ states: ['pending'], limit: 200 }])
    expect(cards()).toHaveLength(200)
    // The header counts what waits, as the badge does, not what was loaded.
    expect(within(sidebar()).getByRole('button', { name: 'Inbox, 230 waiting' })).toBeTruthy()
    expect(screen.getByText('230 waiting')).toBeTruthy()
    expect(screen.getByText('Showing 200 of 230')).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }))
    await settle()
    expect(harness.bridge.callsTo('inbox.list')).toEqual([
      { states: ['pending'], limit: 200 },
      { states: ['pending'], limit: 200, beforeId: 31 }
    ])
    expect(cards()).toHaveLength(230)
    expect(screen.queryByText(/^Showing/)).toBeNull()
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
    // The keyboard goes on to the first proposal the page brought: one review's proposals read in the
    // order it made them, so the older ones it brought come first in their group.
    expect(document.activeElement?.getAttribute('data-proposal-id')).toBe('1')
  })

  it('keeps the pages already loaded when the list reloads after a decision', async () => {
    const harness = await openInbox(manyPending(230))
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }))
    await settle()
    fireEvent.click(within(screen.getByRole('article', { name: /Remember/, current: true })).getByRole('button', { name: 'Reject' }))
    await settle()
    expect(screen.getByText('229 waiting')).toBeTruthy()
    await harness.app.inbox.getState().load()
    await settle()
    expect(harness.bridge.callsTo('inbox.list').at(-1)).toEqual({ states: ['pending'], limit: 229 })
    expect(cards()).toHaveLength(229)
    expect(screen.queryByText(/^Showing/)).toBeNull()
  })

  it('says why older proposals did not load, and lets the user try again', async () => {
    await openInbox(manyPending(205, { failOlder: true }))
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }))
    await settle()
    expect(screen.getByText('Could not load more proposals: database is locked')).toBeTruthy()
    expect(cards()).toHaveLength(200)
    expect(screen.getByText('Showing 200 of 205')).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Load more' }) as HTMLButtonElement).disabled).toBe(false)
  })

  it('speaks Chinese', async () => {
    await openInbox({ ...manyPending(201), 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    expect(screen.getByText('显示 200 / 201 项')).toBeTruthy()
    expect(screen.getByRole('button', { name: '加载更多' })).toBeTruthy()
  })
})

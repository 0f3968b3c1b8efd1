import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ReviewOutcome } from '../../../shared/review-outcome'
import { learned, learningStatus, proposal } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const DAY = 24 * 60 * 60 * 1000
const sidebar = () => screen.getByRole('navigation', { name: 'Sections' })

function finished(outcome: Partial<ReviewOutcome>) {
  return {
    type: 'review_finished' as const,
    reviewId: 'rv1',
    sessionId: 's1',
    outcome: { summary: learned(), entries: [], skillOutcomes: [], finalText: '', iterations: 2, toolCalls: 1, refusedCalls: [], ...outcome }
  }
}

describe('the Inbox is never silent', () => {
  it('shows how many proposals wait on the sidebar, kept live by inbox.changed', async () => {
    const harness = await renderApp({ 'learning.status': learningStatus({ pendingProposals: 3, oldestPendingAt: Date.now() - 60_000 }) })
    const inbox = within(sidebar()).getByRole('button', { name: 'Inbox, 3 waiting' })
    expect(within(inbox).getByTestId('inbox-badge').textContent).toBe('3')

    harness.bridge.set('learning.status', learningStatus({ pendingProposals: 5, oldestPendingAt: Date.now() - 60_000 }))
    act(() => harness.bridge.emit('inbox.changed', { pending: 5 }))
    expect(within(sidebar()).getByTestId('inbox-badge').textContent).toBe('5')

    harness.bridge.set('learning.status', learningStatus())
    act(() => harness.bridge.emit('inbox.changed', { pending: 0 }))
    await settle()
    expect(within(sidebar()).queryByTestId('inbox-badge')).toBeNull()
    expect(within(sidebar()).getByRole('button', { name: 'Inbox' })).toBeTruthy()
  })

  it('reminds the user when the oldest proposal has waited more than a day, and not before', async () => {
    await renderApp({
      'learning.status': learningStatus({ pendingProposals: 2, oldestPendingAt: Date.now() - 2 * DAY }),
      'inbox.list': { proposals: [proposal(1)], pending: 2 }
    })
    const reminder = screen.getByRole('button', { name: /2 suggestions have waited since 2 days ago/ })
    fireEvent.click(reminder)
    await settle()
    expect(screen.getByRole('heading', { name: 'Inbox' })).toBeTruthy()
    // On the Inbox itself it says so too.
    expect(screen.getAllByText(/2 suggestions have waited since 2 days ago/).length).toBe(2)
    expect(screen.getByText(/Cairn keeps them until you approve or reject them/)).toBeTruthy()
  })

  it('does not remind for a proposal made today', async () => {
    await renderApp({ 'learning.status': learningStatus({ pendingProposals: 1, oldestPendingAt: Date.now() - 3 * 60 * 60 * 1000 }) })
    expect(screen.queryByText(/waited since/)).toBeNull()
  })

  it('toasts when a review proposes changes, and the toast opens the Inbox', async () => {
    const harness = await renderApp({ 'inbox.list': { proposals: [proposal(1), proposal(2)], pending: 2 } })
    act(() => harness.bridge.emit('review.event', finished({ proposals: [1, 2], summary: { ...learned(), proposed: 2 } })))
    const toast = screen.getByText('Cairn has 2 suggestions waiting for you').closest('.toast') as HTMLElement
    fireEvent.click(within(toast).getByRole('button', { name: 'Review' }))
    await settle()
    expect(screen.getByRole('heading', { name: 'Inbox' })).toBeTruthy()
    expect(screen.getAllByRole('article')).toHaveLength(2)
  })

  it('says nothing about the Inbox when a review proposed nothing', async () => {
    const harness = await renderApp()
    act(() => harness.bridge.emit('review.event', finished({ summary: learned({ memory: 1 }) })))
    expect(screen.queryByText(/waiting for you/)).toBeNull()
  })

  it('opens the Inbox on the proposal main asks for (the tray item)', async () => {
    const harness = await renderApp({ 'inbox.list': { proposals: [proposal(1), proposal(2, { target: 'memories/MEMORY.md' })], pending: 2 } })
    act(() => harness.bridge.emit('app.navigate', { view: 'inbox', proposalId: 2 }))
    await settle()
    expect(screen.getByRole('heading', { name: 'Inbox' })).toBeTruthy()
    const wanted = screen.getByRole('article', { name: 'Remember in Environment notes' })
    expect(wanted.className).toContain('focused')
    expect(document.activeElement).toBe(wanted)
  })
})

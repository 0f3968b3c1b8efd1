import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { LedgerEntry } from '../../../shared/ledger'
import type { ReviewOutcome } from '../../../shared/review-outcome'
import { learned, ledger, review } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const userChange = ledger(1, { kind: 'memory.add', after: 'Prefers tea', source: 'user' })

/** Longer than the timeline's reload debounce, so a reload it would start has started. */
const pastReloadDebounce = () => act(() => new Promise((wake) => setTimeout(wake, 200)))

async function openTimeline(entries: LedgerEntry[] = [userChange]) {
  const harness = await renderApp({ 'timeline.list': { entries, reviews: [] } })
  fireEvent.click(screen.getByRole('button', { name: 'Timeline' }))
  await settle()
  return harness
}

describe('the timeline on the stream of learned changes', () => {
  it('appends a review worker’s row under its review, and shows how the review ended, without reloading', async () => {
    const harness = await openTimeline()
    const loads = harness.bridge.callsTo('timeline.list').length
    const running = review('rv9', { status: 'running', finishedAt: null, summary: null, reasons: [{ code: 'correction' }] })
    const row = ledger(7, { kind: 'memory.add', after: 'Deploys on Fridays', source: 'review', reviewId: 'rv9', sessionId: 's1' })
    act(() => harness.bridge.emit('ledger.changed', { entry: row, review: running }))
    await settle()
    const group = screen.getByRole('region', { name: 'Background review' })
    expect(within(group).getByText('Deploys on Fridays')).toBeTruthy()
    expect(within(group).getByText('the user corrected the assistant')).toBeTruthy()

    const done = review('rv9', { summary: learned({ memory: 1 }), reasons: [{ code: 'correction' }] })
    act(() => harness.bridge.emit('review.event', { type: 'review_finished', reviewId: 'rv9', sessionId: 's1', outcome: outcomeOf(done), run: done }))
    await settle()
    expect(within(screen.getByRole('region', { name: 'Background review' })).getByText('Memory updated')).toBeTruthy()
    expect(screen.getByText('Prefers tea')).toBeTruthy()
    await pastReloadDebounce()
    expect(harness.bridge.callsTo('timeline.list')).toHaveLength(loads)
  })

  it('leaves out a streamed row the filters hide, still without reloading', async () => {
    const harness = await openTimeline()
    fireEvent.click(screen.getAllByRole('button', { name: 'Skills' }).find((button) => button.hasAttribute('aria-pressed'))!)
    await settle()
    const loads = harness.bridge.callsTo('timeline.list').length
    act(() => harness.bridge.emit('ledger.changed', { entry: ledger(8, { kind: 'memory.add', after: 'Hidden by the filter', source: 'agent' }), review: null }))
    await settle()
    expect(screen.queryByText('Hidden by the filter')).toBeNull()
    await pastReloadDebounce()
    expect(harness.bridge.callsTo('timeline.list')).toHaveLength(loads)
  })
})

function outcomeOf(run: ReturnType<typeof review>): ReviewOutcome {
  return { summary: run.summary!, entries: [], skillOutcomes: [], finalText: 'Saved.', iterations: 1, toolCalls: 1, refusedCalls: [] }
}

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

  it('reloads once for a burst of rows (an import), not row by row', async () => {
    const harness = await openTimeline()
    const loads = harness.bridge.callsTo('timeline.list').length
    act(() => {
      for (let id = 10; id < 40; id++) harness.bridge.emit('ledger.changed', { entry: ledger(id, { kind: 'memory.add', after: `Imported ${id}`, source: 'import' }), review: null })
    })
    await pastReloadDebounce()
    expect(harness.bridge.callsTo('timeline.list')).toHaveLength(loads + 1)
  })

  it('keeps a late row older than the last one shown for the page it belongs to, so the next page still starts right', async () => {
    const page = Array.from({ length: 100 }, (_, index) => ledger(300 - index, { kind: 'memory.add', after: `Entry ${300 - index}`, source: 'user' }))
    const harness = await openTimeline(page)
    const loads = harness.bridge.callsTo('timeline.list').length
    act(() => harness.bridge.emit('ledger.changed', { entry: ledger(50, { kind: 'memory.add', after: 'Committed late', source: 'agent' }), review: null }))
    await settle()
    expect(screen.queryByText('Committed late')).toBeNull()
    expect(screen.getByText('Entry 201')).toBeTruthy()
    await pastReloadDebounce()
    expect(harness.bridge.callsTo('timeline.list')).toHaveLength(loads)
  })
})

function outcomeOf(run: ReturnType<typeof review>): ReviewOutcome {
  return { summary: run.summary!, entries: [], skillOutcomes: [], finalText: 'Saved.', iterations: 1, toolCalls: 1, refusedCalls: [] }
}

import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { RouteOutput } from '../../../shared/ipc/contract'
import { FakeFailure, type RouteHandlers } from '../helpers/fake-transport'
import { skill } from '../helpers/fixtures'
import { renderApp, settle, type Harness } from '../helpers/render-app'
import type { ReviewOutcome } from '../../../shared/review-outcome'
import { learned } from '../helpers/fixtures'

const STARTED = 'Curation started. Its proposals will appear in the Inbox.'

/** A `learning.curate` answer the test releases by hand, to see the button while it waits. */
function heldCuration() {
  let release: (answer: RouteOutput<'learning.curate'>) => void = () => {}
  const handler = () =>
    new Promise<RouteOutput<'learning.curate'>>((resolve) => {
      release = resolve
    })
  return { handler, release: (answer: RouteOutput<'learning.curate'>) => release(answer) }
}

async function openScreen(view: 'Inbox' | 'Skills', handlers: RouteHandlers) {
  const harness = await renderApp({
    'inbox.list': { proposals: [], pending: 0 },
    'skills.list': { skills: [skill('deploy')], diagnostics: [] },
    ...handlers
  })
  fireEvent.click(screen.getByRole('button', { name: new RegExp(`^${view}`) }))
  await settle()
  const pane = screen.getByRole('region', { name: view })
  const button = within(pane.querySelector('.pane-header') as HTMLElement).getByRole('button', { name: 'Tidy the library now' }) as HTMLButtonElement
  return { ...harness, button }
}

describe('"Tidy the library now"', () => {
  it('in the Inbox header: says what it does, queues curation, is off while it asks, and says it started', async () => {
    const held = heldCuration()
    const { bridge, button } = await openScreen('Inbox', { 'learning.curate': held.handler })
    expect(button.title).toMatch(/proposes merges in the Inbox\. Nothing changes until you approve\./)

    act(() => button.focus())
    fireEvent.click(button)
    await settle()
    expect(bridge.callsTo('learning.curate')).toEqual([undefined])
    expect(button.disabled).toBe(true)
    // A second press while the first is on its way sends nothing.
    fireEvent.click(button)
    await settle()
    expect(bridge.callsTo('learning.curate')).toHaveLength(1)

    held.release({ reviewId: 'cu1' })
    await settle()
    const toast = screen.getByRole('status')
    expect(toast.textContent).toContain(STARTED)
    // Already in the Inbox: no jump to it.
    expect(within(toast).queryByRole('button', { name: 'Open Inbox' })).toBeNull()
    expect(button.disabled).toBe(false)
    // The keyboard is back where it was.
    expect(document.activeElement).toBe(button)
  })

  it('in the Skills screen: the toast offers the Inbox, where the proposals will be', async () => {
    const { bridge, button } = await openScreen('Skills', { 'learning.curate': { reviewId: 'cu2' } })
    fireEvent.click(button)
    await settle()
    expect(bridge.callsTo('learning.curate')).toEqual([undefined])
    const toast = screen.getByRole('status')
    expect(toast.textContent).toContain(STARTED)
    fireEvent.click(within(toast).getByRole('button', { name: 'Open Inbox' }))
    await settle()
    expect(screen.getByRole('heading', { level: 1, name: 'Inbox' })).toBeTruthy()
  })

  it('shows a refusal as an error toast and can be pressed again', async () => {
    const { bridge, button } = await openScreen('Skills', {
      'learning.curate': () => {
        throw new FakeFailure('CONFLICT', 'A curation pass is already queued.')
      }
    })
    fireEvent.click(button)
    await settle()
    expect(screen.getByRole('alert').textContent).toContain('A curation pass is already queued.')
    expect(screen.queryByText(STARTED)).toBeNull()
    expect(button.disabled).toBe(false)
    fireEvent.click(button)
    await settle()
    expect(bridge.callsTo('learning.curate')).toHaveLength(2)
  })
})

/** A curation pass's outcome as the worker reports it: `proposals` left in the Inbox. */
function curationOutcome(proposals: number[]): ReviewOutcome {
  return { summary: { ...learned(), ...(proposals.length ? { proposed: proposals.length } : {}) }, ...(proposals.length ? { proposals } : {}), entries: [], skillOutcomes: [], finalText: 'Done.', iterations: 3, toolCalls: 2, refusedCalls: [] }
}

/** The review events of a curation pass, as main sends them: queued, started, then how it ended. */
function runCuration(harness: Harness, reviewId: string, end: 'finished' | 'failed', proposals: number[] = []) {
  const reasons = [{ code: 'curation' as const }]
  act(() => harness.bridge.emit('review.event', { type: 'review_queued', reviewId, sessionId: null, kinds: ['memory', 'skills'], reasons }))
  act(() => harness.bridge.emit('review.event', { type: 'review_started', reviewId, sessionId: null, kinds: ['memory', 'skills'], reasons, pid: 42 }))
  return () =>
    act(() =>
      harness.bridge.emit(
        'review.event',
        end === 'finished'
          ? { type: 'review_finished', reviewId, sessionId: null, outcome: curationOutcome(proposals) }
          : { type: 'review_failed', reviewId, sessionId: null, failure: { code: 'over_budget', seconds: 300 }, error: 'The review took longer than its 300 s budget and was stopped.', crashed: false }
      )
    )
}

describe('"Tidy the library now" reports how the pass ended', () => {
  it('in the Inbox: shows it waits and runs (still reachable by keyboard, a press does nothing), then "Nothing to tidy"', async () => {
    const harness = await openScreen('Inbox', { 'learning.curate': { reviewId: 'cu1' } })
    const { bridge, button } = harness
    fireEvent.click(button)
    await settle()
    const end = runCuration(harness, 'cu1', 'finished')
    expect(button.textContent).toBe('Tidying…')
    expect(button.getAttribute('aria-busy')).toBe('true')
    expect(button.getAttribute('aria-disabled')).toBe('true')
    expect(button.disabled).toBe(false)
    fireEvent.click(button)
    await settle()
    expect(bridge.callsTo('learning.curate')).toHaveLength(1)

    end()
    await settle()
    const outcome = screen.getByLabelText('How the last tidying ended')
    expect(outcome.textContent).toBe('Nothing to tidy: the library has no overlaps worth merging.')
    expect(button.textContent).toBe('Tidy the library now')
    expect(button.getAttribute('aria-disabled')).toBeNull()
    fireEvent.click(within(outcome).getByRole('button', { name: 'Dismiss' }))
    expect(screen.queryByLabelText('How the last tidying ended')).toBeNull()
  })

  it('from the Skills screen: "Tidied: N proposals to review" as one toast that offers the Inbox', async () => {
    const harness = await openScreen('Skills', { 'learning.curate': { reviewId: 'cu2' } })
    fireEvent.click(harness.button)
    await settle()
    runCuration(harness, 'cu2', 'finished', [11, 12, 13])()
    await settle()
    const toast = screen.getByText('Tidied: 3 proposals to review.').closest('.toast') as HTMLElement
    // Said once: not also as the general "proposals waiting" toast.
    expect(screen.queryByText(/waiting for you|suggestions? waiting/i)).toBeNull()
    fireEvent.click(within(toast).getByRole('button', { name: 'Open Inbox' }))
    await settle()
    expect(screen.getByLabelText('How the last tidying ended').textContent).toBe('Tidied: 3 proposals to review.')
  })

  it('says why it failed, in the user’s language', async () => {
    const harness = await openScreen('Skills', { 'learning.curate': { reviewId: 'cu3' } })
    fireEvent.click(harness.button)
    await settle()
    const end = runCuration(harness, 'cu3', 'failed')
    act(() => harness.app.ui.getState().setLanguage('zh-CN'))
    expect(harness.button.textContent).toBe('正在整理…')
    end()
    await settle()
    expect(screen.getByRole('alert').textContent).toContain('未能整理资料库：')
    expect(harness.button.textContent).toBe('立即整理资料库')
  })

  it('a pass nobody here asked for (the schedule) shows as running but reports nothing of its own', async () => {
    const harness = await openScreen('Inbox', {})
    const end = runCuration(harness, 'cu4', 'finished')
    expect(harness.button.textContent).toBe('Tidying…')
    end()
    await settle()
    expect(harness.button.textContent).toBe('Tidy the library now')
    expect(screen.queryByLabelText('How the last tidying ended')).toBeNull()
  })
})

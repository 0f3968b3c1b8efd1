import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { RouteInput, RouteOutput } from '../../../shared/ipc/contract'
import type { LearnedReview } from '../../../shared/ipc/domain'
import type { ReviewFate } from '../../../shared/review-fate'
import type { FakeBridge } from '../helpers/fake-transport'
import { config, learned, ledger, message, proposal, session, settingsView, type ProposalItem } from '../helpers/fixtures'
import { renderApp, settle, type Harness } from '../helpers/render-app'

const user = message('user', 'I always use pnpm', { createdAt: Date.now() - 60_000 })
const answer = message('assistant', 'Noted.', { createdAt: Date.now() - 50_000 })

/** A ledger row of one review: its id and whether it was reverted since. */
interface Row {
  id: number
  reviewId: string
  reverted: boolean
}

/**
 * main as far as these notes go: one conversation, its reviews' proposals and rows, the fates worked
 * out from them as `learning.fates` does, and the events a decision or a revert sends.
 */
function fakeMain(options: { notes: Array<Omit<LearnedReview, 'fate'>>; proposals?: ProposalItem[]; rows?: Row[]; staleNotes?: boolean }) {
  const proposals = [...(options.proposals ?? [])]
  const rows = [...(options.rows ?? [])]
  let bridge: FakeBridge | null = null
  const fate = (reviewId: string): ReviewFate => {
    const mine = proposals.filter((p) => p.reviewId === reviewId)
    const count = (...states: ProposalItem['state'][]) => mine.filter((p) => states.includes(p.state)).length
    const own = rows.filter((row) => row.reviewId === reviewId)
    return {
      reviewId,
      pending: count('pending'),
      approved: count('approved', 'edited'),
      rejected: count('rejected'),
      setAside: count('superseded'),
      applied: own.filter((row) => !row.reverted).length,
      undone: own.filter((row) => row.reverted).length
    }
  }
  // A note as sessions.get carries it; `staleNotes`: as it was when the page loaded, before a decision elsewhere.
  const initialFates = new Map(options.notes.map((note) => [note.reviewId, fate(note.reviewId)]))
  const decide = (id: number, state: 'approved' | 'rejected'): RouteOutput<'inbox.approve'> => {
    const at = proposals.findIndex((p) => p.id === id)
    proposals[at] = { ...proposals[at], state }
    const found = proposals[at]
    const entry = state === 'approved' ? ledger(50 + id, { source: 'review', reviewId: found.reviewId, meta: { proposalId: id } }) : null
    if (entry) rows.push({ id: entry.id, reviewId: found.reviewId!, reverted: false })
    // As main does: the row on the stream of learned changes, then the Inbox's count.
    if (entry) bridge?.emit('ledger.changed', { entry })
    bridge?.emit('inbox.changed', { pending: proposals.filter((p) => p.state === 'pending').length })
    return { ok: true, proposal: found, ledgerEntry: entry }
  }
  const pending = () => proposals.filter((p) => p.state === 'pending')
  return {
    handlers: {
      'sessions.list': [session('s1', 'Deploy day')],
      'sessions.get': () => ({
        session: session('s1', 'Deploy day'),
        messages: [user, answer],
        running: false,
        learned: options.notes.map((note) => ({ ...note, fate: options.staleNotes ? initialFates.get(note.reviewId) : fate(note.reviewId) }))
      }),
      'learning.fates': ({ reviewIds }: RouteInput<'learning.fates'>) => ({ fates: reviewIds.map(fate) }),
      'inbox.list': () => ({ proposals: pending(), pending: pending().length }),
      'inbox.approve': ({ id }: RouteInput<'inbox.approve'>) => decide(id, 'approved'),
      'inbox.reject': ({ id }: RouteInput<'inbox.reject'>) => decide(id, 'rejected')
    },
    attach(harness: Harness) {
      bridge = harness.bridge
    },
    /** Someone reverts a row (the timeline, `cairn revert`): it is marked, and the revert row goes out. */
    revert(harness: Harness, id: number) {
      rows.find((row) => row.id === id)!.reverted = true
      act(() => harness.bridge.emit('ledger.changed', { entry: ledger(90, { source: 'revert', meta: { revertOf: id } }) }))
    },
    /** A decision made in another face (`cairn inbox reject`): only the Inbox's count reaches this window. */
    decideElsewhere(id: number, state: 'approved' | 'rejected') {
      decide(id, state)
    }
  }
}

const proposedNote = (reviewId = 'rv1'): Omit<LearnedReview, 'fate'> => ({ reviewId, at: Date.now() - 40_000, requested: false, summary: { ...learned(), proposed: 1 } })
const savedNote: Omit<LearnedReview, 'fate'> = {
  reviewId: 'rv2',
  at: Date.now() - 40_000,
  requested: false,
  summary: { ...learned({ user: 1 }), remembered: [{ store: 'user', text: 'Uses pnpm, never npm' }] }
}
const pnpm = proposal(7, { reviewId: 'rv1', sessionId: 's1', after: 'Uses pnpm, never npm' })

async function openChat(main: ReturnType<typeof fakeMain>, extra: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({ ...main.handlers, ...extra })
  main.attach(harness)
  fireEvent.click(screen.getByRole('button', { name: /Deploy day/ }))
  await settle()
  return harness
}

const note = () => screen.getByRole('complementary', { name: /Learned from this conversation|从这段对话中学到的/ })

/** From the note to the Inbox, where its proposal is under the keyboard; `decide` presses Approve or Reject there, then back to the chat. */
async function decideFromNote(harness: Harness, decide: 'Approve' | 'Reject') {
  fireEvent.click(within(note()).getByRole('button', { name: 'Proposed 1 change for you to review' }))
  await settle()
  expect(screen.getByRole('heading', { level: 1, name: 'Inbox' })).toBeTruthy()
  const card = screen.getByRole('article', { name: 'Remember in About you' })
  expect(document.activeElement).toBe(card)
  fireEvent.click(within(card).getByRole('button', { name: decide }))
  await settle()
  // The list and its count follow the decision.
  expect(screen.queryByRole('article', { name: 'Remember in About you' })).toBeNull()
  expect(screen.getByText('Nothing waiting for you')).toBeTruthy()
  act(() => harness.app.ui.getState().navigate('chat'))
  await settle()
}

describe('the chat’s learning note stays true', () => {
  it('after the proposal is approved in the Inbox it says the change is applied and points to the Timeline', async () => {
    const main = fakeMain({ notes: [proposedNote()], proposals: [pnpm] })
    const harness = await openChat(main)
    await decideFromNote(harness, 'Approve')
    await waitFor(() => expect(note().textContent).toContain('1 change is applied.'))
    expect(within(note()).queryByRole('button', { name: /Proposed/ })).toBeNull()
    fireEvent.click(within(note()).getByRole('button', { name: 'See it in the Timeline' }))
    expect(harness.app.ui.getState().view).toBe('timeline')
    // One request on arriving in the Inbox, and one for the burst (the approval's row and the Inbox's count).
    expect(harness.bridge.callsTo('learning.fates')).toEqual([{ reviewIds: ['rv1'] }, { reviewIds: ['rv1'] }])
  })

  it('after the proposal is rejected it says so, with no link to an Inbox where nothing waits', async () => {
    const main = fakeMain({ notes: [proposedNote()], proposals: [pnpm] })
    const harness = await openChat(main)
    await decideFromNote(harness, 'Reject')
    await waitFor(() => expect(note().textContent).toContain('You rejected this change.'))
    expect(within(note()).queryAllByRole('button')).toEqual([])
  })

  it('after a learned change is reverted it says it was undone, and its lines no longer stand', async () => {
    const main = fakeMain({ notes: [savedNote], rows: [{ id: 12, reviewId: 'rv2', reverted: false }] })
    const harness = await openChat(main)
    // The review ends while the conversation is open: its chip above the composer announces it too.
    act(() =>
      harness.bridge.emit('review.event', {
        type: 'review_finished',
        reviewId: 'rv2',
        sessionId: 's1',
        outcome: { summary: savedNote.summary, entries: [], skillOutcomes: [], finalText: '', iterations: 1, toolCalls: 1, refusedCalls: [] }
      })
    )
    await settle()
    expect(screen.getByTitle('See what was learned in the Timeline')).toBeTruthy()
    expect(note().textContent).not.toContain('undone')
    main.revert(harness, 12)
    await waitFor(() => expect(note().textContent).toContain('1 change was undone.'))
    expect(note().className).toContain('learned-note-undone')
    expect(within(note()).getByRole('button', { name: 'See it in the Timeline' })).toBeTruthy()
    // The chip no longer claims it was learned.
    expect(screen.queryByTitle('See what was learned in the Timeline')).toBeNull()
  })

  it('with some decided and some waiting, says both in one phrase and still links to what waits', async () => {
    const other = proposal(8, { reviewId: 'rv1', sessionId: 's1', after: 'Deploys on Fridays' })
    const main = fakeMain({ notes: [{ ...proposedNote(), summary: { ...learned(), proposed: 2 } }], proposals: [pnpm, other] })
    const harness = await openChat(main)
    act(() => main.decideElsewhere(7, 'rejected'))
    await waitFor(() => expect(note().textContent).toContain('1 waiting for review, 1 rejected.'))
    fireEvent.click(within(note()).getByRole('button', { name: 'Review it in the Inbox' }))
    await settle()
    expect(document.activeElement).toBe(screen.getByRole('article', { name: 'Remember in About you' }))
    expect(harness.app.inbox.getState().arrival).toBeNull()
  })

  it('a note from before a decision elsewhere leads to an Inbox that says what became of its proposal, not to a bare list', async () => {
    const main = fakeMain({ notes: [proposedNote()], proposals: [pnpm], staleNotes: true })
    const harness = await openChat(main)
    // Decided in another face while this window was not listening (no event reached it).
    main.attach({ bridge: null } as never)
    main.decideElsewhere(7, 'approved')
    fireEvent.click(within(note()).getByRole('button', { name: 'Proposed 1 change for you to review' }))
    await settle()
    const empty = screen.getByText('Nothing waiting for you').closest('.inbox-empty') as HTMLElement
    expect(within(empty).getByRole('status').textContent).toBe('The changes you came for no longer wait here: 1 applied.')
    expect(harness.bridge.callsTo('learning.fates')).toEqual([{ reviewIds: ['rv1'] }])
  })

  it('words all of it in Chinese', async () => {
    const main = fakeMain({ notes: [proposedNote()], proposals: [pnpm] })
    const harness = await openChat(main, { 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    act(() => main.decideElsewhere(7, 'rejected'))
    await waitFor(() => expect(note().textContent).toContain('你拒绝了这项更改。'))
    expect(harness.app.ui.getState().language).toBe('zh-CN')
  })

  it('says in Chinese what became of the proposals a stale note leads to', async () => {
    const main = fakeMain({ notes: [proposedNote()], proposals: [pnpm], staleNotes: true })
    await openChat(main, { 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    main.attach({ bridge: null } as never)
    main.decideElsewhere(7, 'approved')
    fireEvent.click(within(note()).getByRole('button', { name: '提出了 1 项更改，等你审阅' }))
    await settle()
    expect(screen.getByText('你要找的更改已不在这里等待：1 项已生效。')).toBeTruthy()
  })
})

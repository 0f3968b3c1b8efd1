import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { ProposalStore, type NewProposal } from '../../../electron/core/ledger/proposals'

let dir: string
let db: StateDb
let store: ProposalStore

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-proposals-'))
  db = openStateDb(join(dir, 'state.db'))
  store = new ProposalStore(db)
})
afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

const proposal = (overrides: Partial<NewProposal> = {}): NewProposal => ({
  origin: 'review',
  reviewId: 'r-1',
  sessionId: 's-1',
  kind: 'memory.add',
  target: 'memories/USER.md',
  before: null,
  after: 'User prefers pnpm',
  meta: { store: 'user' },
  reasons: [{ code: 'preference' }],
  cause: 'ask_mode',
  rationale: 'The user said so.',
  ...overrides
})

describe('the proposals table', () => {
  it('keeps a proposal as it was made, pending, and reads it back', () => {
    const added = store.add(proposal(), 1_000)
    expect(added).toEqual({
      id: added.id,
      createdAt: 1_000,
      origin: 'review',
      reviewId: 'r-1',
      sessionId: 's-1',
      kind: 'memory.add',
      target: 'memories/USER.md',
      before: null,
      after: 'User prefers pnpm',
      meta: { store: 'user' },
      reasons: [{ code: 'preference' }],
      cause: 'ask_mode',
      rationale: 'The user said so.',
      state: 'pending',
      decidedAt: null,
      editedAfter: null,
      ledgerId: null,
      stale: false
    })
    expect(store.get(added.id)).toEqual(added)
    expect(store.get(added.id + 1)).toBeNull()
  })

  it('lists newest first by state, pages with beforeId, filters by review, and counts what waits', () => {
    const a = store.add(proposal({ after: 'a' }), 1_000)
    const b = store.add(proposal({ after: 'b', reviewId: 'r-2' }), 2_000)
    const c = store.add(proposal({ after: 'c' }), 3_000)
    store.decide(b.id, { state: 'rejected' }, 4_000)

    expect(store.list().map((p) => p.after)).toEqual(['c', 'b', 'a'])
    expect(store.list({ states: ['pending'] }).map((p) => p.after)).toEqual(['c', 'a'])
    expect(store.list({ beforeId: c.id, limit: 1 }).map((p) => p.after)).toEqual(['b'])
    expect(store.list({ reviewId: 'r-1', oldestFirst: true }).map((p) => p.after)).toEqual(['a', 'c'])
    expect(store.pending()).toEqual({ count: 2, oldestAt: 1_000 })
    store.decide(a.id, { state: 'approved', ledgerId: null }, 5_000)
    expect(store.pending()).toEqual({ count: 1, oldestAt: 3_000 })
  })

  it('decides a pending proposal once: a second decision is refused', () => {
    const { id } = store.add(proposal())
    expect(store.decide(id, { state: 'edited', editedAfter: 'User prefers pnpm 9' }, 2_000)).toMatchObject({
      state: 'edited',
      editedAfter: 'User prefers pnpm 9',
      decidedAt: 2_000
    })
    expect(store.decide(id, { state: 'rejected' })).toBeNull()
    expect(store.get(id)).toMatchObject({ state: 'edited' })
  })

  it('finds a proposal making exactly the same change in the given states (null texts included)', () => {
    const { id } = store.add(proposal())
    const same = { target: 'memories/USER.md', before: null, after: 'User prefers pnpm' }
    expect(store.findIdentical(same, ['pending'])).toMatchObject({ id })
    expect(store.findIdentical({ ...same, after: 'User prefers npm' }, ['pending'])).toBeNull()
    expect(store.findIdentical(same, ['rejected'])).toBeNull()
    store.decide(id, { state: 'rejected' })
    expect(store.findIdentical(same, ['pending', 'rejected'])).toMatchObject({ id, state: 'rejected' })
  })
})

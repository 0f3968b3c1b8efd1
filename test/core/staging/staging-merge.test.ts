import { describe, expect, it } from 'vitest'
import type { LedgerEntry } from '../../../shared/ledger'
import { mergeStagedRows } from '../../../electron/core/staging/staging-proposals'

const row = (id: number, fields: Partial<LedgerEntry> & Pick<LedgerEntry, 'kind'>): LedgerEntry =>
  ({
    id: -id,
    at: '2026-12-01T00:00:00.000Z',
    target: 'skills/devops/kanban-worker/SKILL.md',
    source: 'review',
    sessionId: null,
    reviewId: 'r',
    before: null,
    after: null,
    revertedBy: null,
    meta: { skill: 'kanban-worker', category: 'devops' },
    ...fields
  }) as LedgerEntry

describe('merging what one review staged', () => {
  it('keeps a skill patched and then archived as one archive of the skill as it was, with where it went', () => {
    const changes = mergeStagedRows([
      row(1, { kind: 'skill.patch', before: 'v1', after: 'v2' }),
      row(2, { kind: 'skill.delete', before: 'v2', after: null, meta: { skill: 'kanban-worker', category: 'devops', archivePath: 'skills/.archive/kanban-worker-1', absorbedInto: 'kanban-orchestrator' } })
    ])
    expect(changes).toEqual([
      expect.objectContaining({ kind: 'skill.delete', before: 'v1', after: null, meta: expect.objectContaining({ absorbedInto: 'kanban-orchestrator' }) })
    ])
  })

  it('reads two patches of one file as one patch from the first text to the last', () => {
    const changes = mergeStagedRows([row(1, { kind: 'skill.patch', before: 'v1', after: 'v2' }), row(2, { kind: 'skill.patch', before: 'v2', after: 'v3' })])
    expect(changes).toEqual([expect.objectContaining({ kind: 'skill.patch', before: 'v1', after: 'v3' })])
  })
})

import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { en } from '../../../shared/i18n/en'
import { translator } from '../../../shared/i18n'
import { describeMemorySource } from '../../../shared/i18n/describe-sources'
import type { LedgerEntry } from '../../../shared/ledger'
import { batchOf, groupTimeline } from '../../../renderer/src/stores/timeline'
import { ledger } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const SYNC_AT = Date.now() - 5 * 60_000
const fromLaptop = (id: number, overrides: Parameters<typeof ledger>[1] = {}): LedgerEntry =>
  ledger(id, { source: 'sync', reviewId: `sync:${SYNC_AT}`, ...overrides, meta: { store: 'memory', device: 'laptop', ...overrides.meta } })
const synced = [
  fromLaptop(5, { kind: 'memory.add', target: 'memories/MEMORY.md', after: 'Deploys with fly.io' }),
  fromLaptop(4, { kind: 'skill.patch', target: 'skills/devops/deploy/SKILL.md', before: 'a\n', after: 'b\n', meta: { skill: 'deploy', category: 'devops' } })
]
const byHand = ledger(3, { kind: 'memory.add', after: 'Prefers tea', source: 'user' })

describe("a sync's changes on the timeline", () => {
  it('sit together under "Sync from laptop", at the time of the sync, each with the device on its badge', async () => {
    await renderApp({ 'timeline.list': { entries: [...synced, byHand], reviews: [] } })
    fireEvent.click(screen.getByRole('button', { name: 'Timeline' }))
    await settle()
    const group = screen.getByRole('region', { name: 'Sync from laptop' })
    expect(within(group).getByText('2 changes')).toBeTruthy()
    expect(within(group).getByText('5 minutes ago')).toBeTruthy()
    expect(within(group).getAllByText('Sync · laptop')).toHaveLength(2)
    expect(within(group).queryByText('Prefers tea')).toBeNull()
    expect(screen.getByText('Prefers tea')).toBeTruthy()
  })

  it('groups by sync, names every device a merge brought in, and leaves reviews and imports as they were', () => {
    const merge = [fromLaptop(9, { reviewId: 'sync:200', meta: { device: 'laptop, work-pc' } }), fromLaptop(8, { reviewId: 'sync:200', meta: { device: 'laptop' } })]
    const groups = groupTimeline([...merge, ...synced, ledger(2, { reviewId: 'import:7' }), ledger(1, { reviewId: 'rv1', source: 'review' })], {})
    expect(groups.map((group) => (group.type === 'review' ? [group.reviewId, group.entries.length, group.batch] : null))).toEqual([
      ['sync:200', 2, { kind: 'sync', at: 200, devices: ['laptop', 'work-pc'] }],
      [`sync:${SYNC_AT}`, 2, { kind: 'sync', at: SYNC_AT, devices: ['laptop'] }],
      ['import:7', 1, { kind: 'import', id: '7' }],
      ['rv1', 1, null]
    ])
    expect(batchOf('sync:300', [ledger(1, { source: 'sync', reviewId: 'sync:300' })])).toEqual({ kind: 'sync', at: 300, devices: [] })
  })

  it("words a synced memory entry's provenance with its device, in both languages", () => {
    expect(describeMemorySource('sync', '5 minutes ago', translator('en'), 'laptop')).toBe('Synced from laptop 5 minutes ago')
    expect(describeMemorySource('sync', '5 minutes ago', translator('en'))).toBe(en['memory.info.sync'].replace('{when}', '5 minutes ago'))
    expect(describeMemorySource('sync', '5分钟前', translator('zh-CN'), 'laptop')).toBe('5分钟前从 laptop 同步')
  })
})

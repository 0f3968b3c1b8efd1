import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { LedgerEntry, RevertResult } from '../../../shared/ledger'
import { config, ledger, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const DAY = 86_400_000
/** Noon, `days` days ago: far from midnight, so the day a test means is the day it gets. */
const daysAgo = (days: number): string => {
  const noon = new Date()
  noon.setHours(12, 0, 0, 0)
  return new Date(noon.getTime() - days * DAY).toISOString()
}

const skillPatch = ledger(5, {
  kind: 'skill.patch',
  target: 'skills/devops/deploy/SKILL.md',
  source: 'review',
  before: '# Deploy\nrun make\n',
  after: '# Deploy\nrun make deploy\n',
  meta: { skill: 'deploy', category: 'devops' },
  at: daysAgo(0)
})

async function openTimeline(entries: LedgerEntry[], extra: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({ 'timeline.list': { entries, reviews: [] }, ...extra })
  fireEvent.click(screen.getByRole('button', { name: 'Timeline' }))
  await settle()
  return harness
}

describe('timeline in plain words', () => {
  it('heads each day: Today, Yesterday, a weekday, then a date', async () => {
    const entries = [
      ledger(4, { after: 'Uses pnpm', at: daysAgo(0) }),
      ledger(3, { after: 'Works in UTC+8', at: daysAgo(1) }),
      ledger(2, { after: 'Likes tea', at: daysAgo(3) }),
      ledger(1, { after: 'Has a cat', at: daysAgo(30) })
    ]
    await openTimeline(entries)
    const headings = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)
    const weekday = new Intl.DateTimeFormat('en', { weekday: 'long' }).format(Date.parse(daysAgo(3)))
    expect(headings.slice(0, 3)).toEqual(['Today', 'Yesterday', weekday])
    expect(headings[3]).toContain(new Intl.DateTimeFormat('en', { month: 'long' }).format(Date.parse(daysAgo(30))))
  })

  it('says 今天 and 昨天 in Chinese', async () => {
    await renderApp({
      'timeline.list': { entries: [ledger(2, { at: daysAgo(0) }), ledger(1, { at: daysAgo(1) })], reviews: [] },
      'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) })
    })
    fireEvent.click(screen.getByRole('button', { name: '时间线' }))
    await settle()
    expect(screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual(['今天', '昨天'])
  })

  it('labels the filter groups and narrows by what a change did', async () => {
    const harness = await openTimeline([skillPatch])
    const change = screen.getByRole('group', { name: 'Change' })
    expect(screen.getByRole('group', { name: 'What' })).toBeTruthy()
    expect(screen.getByRole('group', { name: 'From' })).toBeTruthy()
    fireEvent.click(within(change).getByRole('button', { name: 'Removed' }))
    await settle()
    expect(harness.bridge.callsTo('timeline.list').at(-1)).toEqual({ limit: 100, kinds: ['memory.remove', 'skill.delete', 'skill.file_remove', 'archive.remove'] })
    fireEvent.click(within(screen.getByRole('group', { name: 'What' })).getByRole('button', { name: 'Skills' }))
    await settle()
    expect(harness.bridge.callsTo('timeline.list').at(-1)).toEqual({ limit: 100, kinds: ['skill.delete', 'skill.file_remove'] })
  })

  it('calls an undo "Undo of …" after the change it undid, with no "Undo" badge beside it', async () => {
    const undo = ledger(6, {
      kind: 'skill.patch',
      target: 'skills/devops/deploy/SKILL.md',
      source: 'revert',
      before: skillPatch.after,
      after: skillPatch.before,
      meta: { skill: 'deploy', category: 'devops', revertOf: 5 },
      at: daysAgo(0)
    })
    const removal = ledger(7, { kind: 'memory.remove', source: 'revert', before: 'Likes tea', after: null, meta: { revertOf: 99 }, at: daysAgo(0) })
    await openTimeline([removal, undo, { ...skillPatch, revertedBy: 6 }])
    const article = screen.getByRole('article', { name: 'Undo of “Skill edited”' })
    expect(within(article).queryByText('Undo')).toBeNull()
    // The undone row is not loaded: its kind is read from what the undo did.
    expect(screen.getByRole('article', { name: 'Undo of “Memory added”' })).toBeTruthy()
    expect(document.body.textContent).not.toMatch(/ledger|Skill patched/i)
  })
})

describe('revert anyway', () => {
  const conflict: RevertResult = {
    ok: false,
    code: 'conflict',
    error: 'skills/devops/deploy/SKILL.md has changed since timeline entry #5.',
    conflict: { expected: skillPatch.after, actual: '# Deploy\nrun make deploy\nthen check\n' }
  }

  it('shows what changed since and reverts over it only when the user confirms', async () => {
    const harness = await openTimeline([skillPatch], { 'timeline.revert': conflict })
    fireEvent.click(screen.getByRole('button', { name: 'Revert' }))
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revert' }))
    await settle()
    const dialog = screen.getByRole('dialog', { name: 'Could not revert' })
    expect([...dialog.querySelectorAll('tr[data-type="add"] .code')].map((cell) => cell.textContent)).toEqual(['then check'])
    expect(dialog.querySelector('.diff-file')?.textContent).toBe('deploy · SKILL.md')
    expect(harness.bridge.callsTo('timeline.revert')).toEqual([{ id: 5 }])

    harness.bridge.set('timeline.revert', { ok: true, revertEntry: ledger(6, { kind: 'skill.patch', source: 'revert', meta: { skill: 'deploy', category: 'devops', revertOf: 5 } }) })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revert anyway' }))
    await settle()
    expect(harness.bridge.callsTo('timeline.revert')).toEqual([{ id: 5 }, { id: 5, force: true }])
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByText('Change reverted.')).toBeTruthy()
  })

  it('Cancel leaves the newer text alone', async () => {
    const harness = await openTimeline([skillPatch], { 'timeline.revert': conflict })
    fireEvent.click(screen.getByRole('button', { name: 'Revert' }))
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revert' }))
    await settle()
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(harness.bridge.callsTo('timeline.revert')).toEqual([{ id: 5 }])
  })
})

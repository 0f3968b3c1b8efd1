import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LedgerEntry, RevertResult } from '../../../shared/ledger'
import { config, learned, ledger, review, settingsView, skill } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const memoryChange = ledger(3, { kind: 'memory.replace', before: 'Uses vim', after: 'Uses Helix since May', source: 'review', reviewId: 'rv1', sessionId: 's1' })
const skillChange = ledger(2, {
  kind: 'skill.patch',
  target: 'skills/devops/deploy/SKILL.md',
  source: 'review',
  reviewId: 'rv1',
  before: '# Deploy\nrun make\n',
  after: '# Deploy\nrun make deploy\n',
  meta: { skill: 'deploy', category: 'devops' }
})
const userChange = ledger(1, { kind: 'memory.add', after: 'Prefers tea', source: 'user' })

const reviewRun = review('rv1', { summary: learned({ memory: 1, skills: [{ name: 'deploy', verb: 'updated' }] }), reasons: [{ code: 'correction' }, { code: 'memory_interval', count: 12 }] })

async function openTimeline(entries: LedgerEntry[] = [memoryChange, skillChange, userChange], extra: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({ 'timeline.list': { entries, reviews: [reviewRun] }, ...extra })
  fireEvent.click(screen.getByRole('button', { name: 'Timeline' }))
  await settle()
  return harness
}

afterEach(() => {
  vi.useRealTimers()
})

describe('learning timeline', () => {
  it('groups a review’s changes under its summary and reasons, and shows memory before → after', async () => {
    await openTimeline()
    const group = screen.getByRole('region', { name: 'Background review' })
    expect(within(group).getByText('Memory updated · Skill "deploy" updated')).toBeTruthy()
    expect(within(group).getByText('the user corrected the assistant')).toBeTruthy()
    expect(within(group).getByText('2 changes')).toBeTruthy()
    expect(within(group).getByText('Uses vim')).toBeTruthy()
    expect(within(group).getByText('Uses Helix since May')).toBeTruthy()
    const standalone = screen.getAllByRole('article').filter((article) => !group.contains(article))
    expect(standalone).toHaveLength(1)
    expect(within(standalone[0]).getByText('You')).toBeTruthy()
  })

  it('names an import’s changes as its batch, with how to undo it whole', async () => {
    const imported = [
      ledger(5, { kind: 'memory.add', after: 'Deploys with fly', source: 'import', reviewId: 'import:4' }),
      ledger(4, { kind: 'memory.add', after: 'Uses pnpm', source: 'import', reviewId: 'import:4' })
    ]
    await openTimeline(imported)
    const group = screen.getByRole('region', { name: 'Import #4 (undo it whole with cairn import undo 4)' })
    expect(within(group).getByText('2 changes')).toBeTruthy()
    expect(within(group).getByText('Uses pnpm')).toBeTruthy()
    expect(screen.queryByRole('region', { name: 'Background review' })).toBeNull()
  })

  it('words the review’s summary and reasons in Chinese when the UI speaks Chinese', async () => {
    await renderApp({ 'timeline.list': { entries: [memoryChange, skillChange], reviews: [reviewRun] }, 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    fireEvent.click(screen.getByRole('button', { name: '时间线' }))
    await settle()
    const group = screen.getByRole('region', { name: '后台回顾' })
    expect(within(group).getByText('记忆已更新 · 已更新技能“deploy”')).toBeTruthy()
    expect(within(group).getByText('用户纠正了助手')).toBeTruthy()
    expect(within(group).getByText('距上次写入记忆已有 12 轮对话')).toBeTruthy()
  })

  it('filters by kind and source through timeline.list', async () => {
    const harness = await openTimeline()
    fireEvent.click(screen.getByRole('button', { name: 'Skills' , pressed: false }))
    await settle()
    fireEvent.click(screen.getByRole('button', { name: 'You' }))
    await settle()
    expect(harness.bridge.callsTo('timeline.list').at(-1)).toEqual({
      limit: 100,
      kinds: ['skill.create', 'skill.patch', 'skill.edit', 'skill.delete', 'skill.file_write', 'skill.file_remove'],
      sources: ['user']
    })
  })

  it('asks before reverting, and reverts only after confirmation', async () => {
    const harness = await openTimeline([userChange], { 'timeline.revert': { ok: true, revertEntry: ledger(9, { source: 'revert' }) } })
    fireEvent.click(screen.getByRole('button', { name: 'Revert' }))
    const dialog = screen.getByRole('dialog', { name: 'Revert this change?' })
    expect(harness.bridge.callsTo('timeline.revert')).toEqual([])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(harness.bridge.callsTo('timeline.revert')).toEqual([])

    fireEvent.click(screen.getByRole('button', { name: 'Revert' }))
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revert' }))
    await settle()
    expect(harness.bridge.callsTo('timeline.revert')).toEqual([{ id: 1 }])
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByText('Change reverted.')).toBeTruthy()
  })

  it('shows both texts when the revert conflicts with a later change', async () => {
    const conflict: RevertResult = { ok: false, code: 'conflict', error: 'USER.md changed since this entry was written.', conflict: { expected: 'Prefers tea', actual: 'Prefers green tea' } }
    await openTimeline([userChange], {
      'timeline.revert': conflict
    })
    fireEvent.click(screen.getByRole('button', { name: 'Revert' }))
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revert' }))
    await settle()
    const dialog = screen.getByRole('dialog', { name: 'Could not revert' })
    expect(within(dialog).getByRole('alert').textContent).toBe('It was changed again after this change, so Cairn left it as it is.')
    // A diff from what the change left to what is there now; a memory entry is never reverted over it.
    expect([...dialog.querySelectorAll('tr[data-type="del"] .code')].map((cell) => cell.textContent)).toEqual(['Prefers tea'])
    expect([...dialog.querySelectorAll('tr[data-type="add"] .code')].map((cell) => cell.textContent)).toEqual(['Prefers green tea'])
    expect(within(dialog).queryByRole('button', { name: 'Revert anyway' })).toBeNull()
    expect(within(dialog).getByText('A memory entry cannot be reverted over newer text. Edit it in Memory instead.')).toBeTruthy()
  })

  it('opens a skill change in the skill browser with its diff', async () => {
    await openTimeline(undefined, {
      'skills.list': { skills: [skill('deploy')], diagnostics: [] },
      'skills.get': { skill: skill('deploy'), content: '# Deploy\nrun make deploy\n', files: ['SKILL.md'] },
      'skills.history': [skillChange]
    })
    fireEvent.click(screen.getByRole('button', { name: /^View changes \+1 −1/ }))
    await settle()
    expect(screen.getByRole('heading', { name: 'deploy' })).toBeTruthy()
    const added = document.querySelectorAll('tr[data-type="add"] .code')
    expect([...added].map((cell) => cell.textContent)).toEqual(['run make deploy'])
  })

  it('reloads when main records a change and announces what the chatting agent learned', async () => {
    const harness = await openTimeline([userChange])
    const fresh = ledger(10, { kind: 'memory.add', after: 'Works in UTC+8', source: 'agent' })
    harness.bridge.set('timeline.list', { entries: [fresh, userChange], reviews: [] })
    const loads = harness.bridge.callsTo('timeline.list').length
    // The reload is debounced (a burst of changes reloads once): run that timer on a fake clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    act(() => harness.bridge.emit('ledger.changed', { entry: fresh }))
    act(() => vi.advanceTimersToNextTimer())
    vi.useRealTimers()
    expect(harness.bridge.callsTo('timeline.list')).toHaveLength(loads + 1)
    expect(await screen.findByText('Works in UTC+8')).toBeTruthy()
    expect(screen.getByText('Saved a new memory')).toBeTruthy()
  })
})

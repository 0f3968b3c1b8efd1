import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { RouteInput, RouteOutput } from '../../../shared/ipc/contract'
import { config, ledger, proposal, session, settingsView, type ProposalItem } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const remember = proposal(1, { after: 'Uses pnpm, never npm', rationale: 'The user corrected npm to pnpm.' })
const patchSkill = proposal(2, {
  kind: 'skill.patch',
  target: 'skills/devops/deploy/SKILL.md',
  before: '# Deploy\nrun make\n',
  after: '# Deploy\nrun make deploy\n',
  meta: { skill: 'deploy', category: 'devops' },
  cause: 'user_skill',
  rationale: 'The user corrected npm to pnpm.'
})
const curated = proposal(3, {
  origin: 'curation',
  reviewId: 'cu1',
  sessionId: null,
  kind: 'skill.delete',
  target: 'skills/devops/old-deploy/SKILL.md',
  before: '# Old deploy\n',
  after: null,
  meta: { skill: 'old-deploy', category: 'devops', archivePath: null },
  cause: 'curation',
  reasons: [],
  rationale: 'Unused for 120 days.'
})

type Decide = (input: RouteInput<'inbox.approve'>) => RouteOutput<'inbox.approve'>

/** main's Inbox: pending proposals, decisions that take them out (or refuse), every request recorded. */
function inboxHandlers(initial: ProposalItem[], decide: { approve?: Decide; reject?: Decide } = {}) {
  let pending = [...initial]
  const done = (input: { id: number }, state: 'approved' | 'edited' | 'rejected', editedAfter: string | null = null): RouteOutput<'inbox.approve'> => {
    const found = pending.find((p) => p.id === input.id)!
    pending = pending.filter((p) => p.id !== input.id)
    return { ok: true, proposal: { ...found, state, editedAfter, decidedAt: Date.now() }, ledgerEntry: state === 'rejected' ? null : ledger(40 + input.id, { source: 'user' }) }
  }
  return {
    'inbox.list': () => ({ proposals: pending, pending: pending.length }),
    'inbox.approve': (input: RouteInput<'inbox.approve'>) => decide.approve?.(input) ?? done(input, input.editedAfter ? 'edited' : 'approved', input.editedAfter ?? null),
    'inbox.reject': (input: RouteInput<'inbox.reject'>) => decide.reject?.(input) ?? done(input, 'rejected'),
    'inbox.rereview': (input: RouteInput<'inbox.rereview'>) => ({ result: done(input, 'rejected'), reviewId: 'rv-again' }),
    'inbox.approveAll': (input: RouteInput<'inbox.approveAll'>) => ({ results: pending.filter((p) => p.reviewId === input.reviewId && !p.stale).map((p) => done(p, 'approved')) }),
    'sessions.list': [session('s1', 'Set up the repo')]
  }
}

async function openInbox(proposals: ProposalItem[] = [remember, patchSkill, curated], decide: Parameters<typeof inboxHandlers>[1] = {}, extra: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({ ...inboxHandlers(proposals, decide), ...extra })
  fireEvent.click(screen.getByRole('button', { name: /^(Inbox|待办)/ }))
  await settle()
  return harness
}

const card = (name: RegExp | string) => screen.getByRole('article', { name })

describe('the Inbox', () => {
  it('shows each proposal in words, grouped by the review that made it, with why it waits and before → after', async () => {
    await openInbox()
    const review = screen.getByRole('region', { name: 'From the conversation “Set up the repo”' })
    expect(within(review).getByText('the user corrected the assistant')).toBeTruthy()
    // Both proposals share the review's closing words: said once, in the header.
    expect(within(review).getAllByText('The user corrected npm to pnpm.')).toHaveLength(1)
    const memory = within(review).getByRole('article', { name: 'Remember in About you' })
    expect(within(memory).getByText('Learning mode is Ask, so Cairn asks before every change.')).toBeTruthy()
    expect(within(memory).getByText('Uses pnpm, never npm')).toBeTruthy()
    const skill = within(review).getByRole('article', { name: 'Patch the skill “deploy”' })
    expect(within(skill).getByText('You wrote this skill, so Cairn asks.')).toBeTruthy()
    expect([...skill.querySelectorAll('tr[data-type="add"] .code')].map((c) => c.textContent)).toEqual(['run make deploy'])
    expect([...skill.querySelectorAll('tr[data-type="del"] .code')].map((c) => c.textContent)).toEqual(['run make'])

    const curation = screen.getByRole('region', { name: 'From tidying up the library' })
    const archive = within(curation).getByRole('article', { name: 'Archive the skill “old-deploy”' })
    expect(within(archive).getByText('Unused for 120 days.')).toBeTruthy()
    // A removal has no text to edit.
    expect((within(archive).getByRole('button', { name: 'Edit' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('says an imported memory waits because another agent remembered it, in English and Chinese', async () => {
    const imported = proposal(4, {
      reviewId: 'import:2',
      sessionId: null,
      target: 'memories/MEMORY.md',
      meta: { store: 'memory' },
      after: 'Merge freeze on the invoice service from 2026-12-05.',
      reasons: [],
      cause: 'imported_memory',
      rationale: 'From Claude Code: projects/billing/memory/project_invoice_freeze.md'
    })
    const { app } = await openInbox([imported])
    const memory = screen.getByRole('article', { name: 'Remember in Environment notes' })
    expect(within(memory).getByText('Imported')).toBeTruthy()
    expect(within(memory).getByText('Another agent remembered this; imported memories wait for you to approve.')).toBeTruthy()
    await act(async () => app.ui.getState().setLanguage('zh-CN'))
    expect(within(screen.getByRole('article')).getByText('这是另一个智能体记下的；导入的记忆会先等你批准。')).toBeTruthy()
  })

  it('approves a proposal: it leaves the Inbox and a toast points to the Timeline', async () => {
    const harness = await openInbox()
    fireEvent.click(within(card('Remember in About you')).getByRole('button', { name: 'Approve' }))
    await settle()
    expect(harness.bridge.callsTo('inbox.approve')).toEqual([{ id: 1 }])
    expect(screen.queryByRole('article', { name: 'Remember in About you' })).toBeNull()
    expect(screen.getByText('Approved: Remember in About you.')).toBeTruthy()
  })

  it('edits a proposal and approves the user’s version instead', async () => {
    const harness = await openInbox()
    const memory = card('Remember in About you')
    fireEvent.click(within(memory).getByRole('button', { name: 'Edit' }))
    const box = within(memory).getByRole('textbox', { name: /Your version/ }) as HTMLTextAreaElement
    expect(box.value).toBe('Uses pnpm, never npm')
    fireEvent.change(box, { target: { value: 'Uses pnpm for every Node project' } })
    fireEvent.click(within(memory).getByRole('button', { name: 'Approve my version' }))
    await settle()
    expect(harness.bridge.callsTo('inbox.approve')).toEqual([{ id: 1, editedAfter: 'Uses pnpm for every Node project' }])
    expect(screen.getByText('Approved with your edits: Remember in About you.')).toBeTruthy()
  })

  it('rejects a proposal', async () => {
    const harness = await openInbox()
    fireEvent.click(within(card('Patch the skill “deploy”')).getByRole('button', { name: 'Reject' }))
    await settle()
    expect(harness.bridge.callsTo('inbox.reject')).toEqual([{ id: 2 }])
    expect(screen.queryByRole('article', { name: 'Patch the skill “deploy”' })).toBeNull()
    expect(screen.getByText(/Rejected: Patch the skill “deploy”\. Cairn will not propose it again\./)).toBeTruthy()
  })

  it('shows a stale proposal as stale: Approve and Edit are off, Reject and Review again work', async () => {
    const harness = await openInbox([{ ...remember, stale: true }, { ...remember, id: 7, stale: true, after: 'Uses tabs' }])
    const [memory, other] = screen.getAllByRole('article', { name: 'Remember in About you' })
    expect(within(memory).getByText(/Changed since it was proposed, so it cannot be applied as it is/)).toBeTruthy()
    expect((within(memory).getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(true)
    expect((within(memory).getByRole('button', { name: 'Edit' }) as HTMLButtonElement).disabled).toBe(true)
    act(() => memory.focus())
    fireEvent.keyDown(memory, { key: 'a' })
    await settle()
    expect(harness.bridge.callsTo('inbox.approve')).toEqual([])
    fireEvent.click(within(memory).getByRole('button', { name: 'Reject' }))
    await settle()
    expect(harness.bridge.callsTo('inbox.reject')).toEqual([{ id: 1 }])
    fireEvent.click(within(other).getByRole('button', { name: 'Review again' }))
    await settle()
    expect(harness.bridge.callsTo('inbox.rereview')).toEqual([{ id: 7 }])
    expect(screen.getByText(/Cairn is reviewing it again against the file as it is now/)).toBeTruthy()
    expect(screen.queryByRole('article', { name: 'Remember in About you' })).toBeNull()
  })

  it('approves everything one review proposed at once, and leaves the other groups alone', async () => {
    const harness = await openInbox()
    fireEvent.click(screen.getByRole('button', { name: 'Approve all 2 in this group' }))
    await settle()
    expect(harness.bridge.callsTo('inbox.approveAll')).toEqual([{ reviewId: 'rv1' }])
    expect(screen.queryByRole('region', { name: /From the conversation/ })).toBeNull()
    expect(screen.getByRole('article', { name: 'Archive the skill “old-deploy”' })).toBeTruthy()
    expect(screen.getByText('Approved 2 changes.')).toBeTruthy()
  })

  it('says clearly why a decision did not go through', async () => {
    await openInbox([remember, patchSkill], {
      approve: (input) =>
        input.id === 1
          ? { ok: false, code: 'stale', error: 'USER.md changed since this was proposed.' }
          : { ok: false, code: 'refused', error: 'skills/devops/deploy is read-only.' }
    })
    fireEvent.click(within(card('Remember in About you')).getByRole('button', { name: 'Approve' }))
    await settle()
    const memory = card('Remember in About you')
    expect(within(memory).getByRole('alert').textContent).toContain('has changed since it was proposed, so it was not applied')
    // Refused as stale: it shows as stale at once, Approve is off.
    expect((within(memory).getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(true)

    fireEvent.click(within(card('Patch the skill “deploy”')).getByRole('button', { name: 'Approve' }))
    await settle()
    const alert = within(card('Patch the skill “deploy”')).getByRole('alert')
    expect(alert.textContent).toContain('Cairn refused to apply this change.')
    expect(alert.textContent).toContain('skills/devops/deploy is read-only.')
  })

  it('is driven by the keyboard: j/k and arrows move with visible focus, a/e/r act on the focused proposal', async () => {
    const harness = await openInbox([remember, patchSkill, proposal(4, { target: 'memories/MEMORY.md', after: 'Servers run in UTC' })])
    // Opening the Inbox puts the keyboard on the first proposal.
    const first = card('Remember in About you')
    expect(document.activeElement).toBe(first)
    expect(first.className).toContain('focused')
    fireEvent.keyDown(first, { key: 'j' })
    expect(document.activeElement).toBe(card('Patch the skill “deploy”'))
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    expect(document.activeElement).toBe(card('Remember in Environment notes'))
    fireEvent.keyDown(document.activeElement!, { key: 'k' })
    expect(document.activeElement).toBe(card('Patch the skill “deploy”'))

    fireEvent.keyDown(document.activeElement!, { key: 'r' })
    await settle()
    expect(harness.bridge.callsTo('inbox.reject')).toEqual([{ id: 2 }])
    // The keyboard moves on to the next proposal.
    expect(document.activeElement).toBe(card('Remember in Environment notes'))
    fireEvent.keyDown(document.activeElement!, { key: 'a' })
    await settle()
    expect(harness.bridge.callsTo('inbox.approve')).toEqual([{ id: 4 }])

    expect(document.activeElement).toBe(card('Remember in About you'))
    fireEvent.keyDown(document.activeElement!, { key: 'e' })
    const box = screen.getByRole('textbox', { name: /Your version/ })
    expect(document.activeElement).toBe(box)
    // Typing in the editor is text, not commands.
    fireEvent.keyDown(box, { key: 'r' })
    await settle()
    expect(harness.bridge.callsTo('inbox.reject')).toEqual([{ id: 2 }])
    fireEvent.keyDown(box, { key: 'Escape' })
    expect(screen.queryByRole('textbox', { name: /Your version/ })).toBeNull()
  })

  it('explains what the Inbox is when nothing waits', async () => {
    await openInbox([])
    expect(screen.getByText('Nothing waiting for you')).toBeTruthy()
    expect(screen.getByText(/the change waits here instead of being applied/)).toBeTruthy()
    expect(screen.getByText(/Learning mode: Auto/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Learning settings' }))
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeTruthy()
  })

  it('speaks Chinese', async () => {
    await openInbox([remember, patchSkill], {}, { 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    expect(screen.getByRole('region', { name: '来自对话“Set up the repo”' })).toBeTruthy()
    const memory = screen.getByRole('article', { name: '记入“关于你”' })
    expect(within(memory).getByRole('button', { name: '批准' })).toBeTruthy()
    expect(within(memory).getByText('学习模式为“询问”，因此 Cairn 每次更改前都会先问你。')).toBeTruthy()
  })
})

describe('where a group of proposals came from', () => {
  it('names an import by its number and a sync by the other device', async () => {
    await openInbox([
      proposal(21, { reviewId: 'import:3', sessionId: null, cause: 'imported_memory', after: 'Uses pnpm.' }),
      proposal(22, { reviewId: 'sync:1796155542632', sessionId: null, cause: 'sync_conflict', after: 'Deploys from main.', meta: { store: 'user', device: 'laptop' } })
    ])
    expect(screen.getByRole('region', { name: 'From import #3' })).toBeTruthy()
    expect(screen.getByRole('region', { name: 'From a sync with laptop' })).toBeTruthy()
  })
})

import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { RouteInput } from '../../../shared/ipc/contract'
import type { SkillItem } from '../../../shared/ipc/domain'
import type { RevertResult } from '../../../shared/ledger'
import { ledger, skill } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const V1 = '---\nname: deploy\n---\n# Deploy\nrun make\n'
const V2 = '---\nname: deploy\n---\n# Deploy\nrun make deploy\n'
const V3 = '---\nname: deploy\n---\n# Deploy\nrun make deploy\ncheck the logs\n'
const created = ledger(5, { kind: 'skill.create', target: 'skills/devops/deploy/SKILL.md', source: 'user', before: null, after: V1, meta: { skill: 'deploy' } })
const patched = ledger(6, { kind: 'skill.patch', target: 'skills/devops/deploy/SKILL.md', source: 'review', before: V1, after: V2, meta: { skill: 'deploy' } })
const script = ledger(7, { kind: 'skill.file_write', target: 'skills/devops/deploy/scripts/check.sh', source: 'review', before: null, after: 'echo ok\n', meta: { skill: 'deploy' } })
const edited = ledger(8, { kind: 'skill.edit', target: 'skills/devops/deploy/SKILL.md', source: 'user', before: V2, after: V3, meta: { skill: 'deploy' } })

async function openSkill(item: SkillItem = skill('deploy', { madeBy: 'user' }), restore: (input: RouteInput<'skills.restore'>) => RevertResult = () => ({ ok: true, revertEntry: ledger(9, { kind: 'skill.edit', source: 'user' }) })) {
  let current = item
  const harness = await renderApp({
    'skills.list': () => ({ skills: [current], diagnostics: [] }),
    'skills.get': () => ({ skill: current, content: V3, files: ['SKILL.md', 'scripts/check.sh'] }),
    'skills.history': [edited, script, patched, created],
    'skills.setFlags': (input) => {
      current = { ...current, ...(input.pinned !== undefined ? { pinned: input.pinned } : {}), ...(input.disabled !== undefined ? { disabled: input.disabled } : {}) }
      return current
    },
    'skills.restore': restore
  })
  fireEvent.click(screen.getByRole('button', { name: 'Skills' }))
  await settle()
  fireEvent.click(screen.getByRole('button', { name: /^deploy/ }))
  await settle()
  return harness
}

describe('skills: who made them, pins and disabling', () => {
  it('says who made the skill, and pins and disables it through skills.setFlags', async () => {
    const harness = await openSkill()
    const header = document.querySelector('.skill-header') as HTMLElement
    expect(within(header).getByText('Written by you')).toBeTruthy()

    fireEvent.click(screen.getByRole('switch', { name: 'Pin' }))
    await settle()
    expect(harness.bridge.callsTo('skills.setFlags')).toEqual([{ name: 'deploy', pinned: true }])
    expect(screen.getByRole('switch', { name: 'Pin' }).getAttribute('aria-checked')).toBe('true')
    expect(within(header).getByText('Pinned')).toBeTruthy()
    // The list shows it too.
    expect(within(document.querySelector('.skill-list') as HTMLElement).getByLabelText('Pinned')).toBeTruthy()

    fireEvent.click(screen.getByRole('switch', { name: 'Disable' }))
    await settle()
    expect(harness.bridge.callsTo('skills.setFlags')).toEqual([{ name: 'deploy', pinned: true }, { name: 'deploy', disabled: true }])
    expect(within(document.querySelector('.skill-list') as HTMLElement).getByText('Disabled')).toBeTruthy()
  })

  it('shows what a strict Agent Skills client would reject as a quiet, folded note', async () => {
    await openSkill(skill('deploy', { specIssues: ["top-level field 'version' is not allowed (move it under metadata)"] }))
    const issues = screen.getByText('1 issue for strict Agent Skills clients')
    expect(issues.closest('details')?.open).toBe(false)
    expect(screen.getByText("top-level field 'version' is not allowed (move it under metadata)")).toBeTruthy()
    // Quiet: not an alert, not a warning banner.
    expect(screen.queryAllByRole('alert')).toHaveLength(0)
  })
})

describe('skills: every version', () => {
  it('compares any two versions of the same file in the diff viewer', async () => {
    await openSkill()
    fireEvent.click(screen.getByRole('tab', { name: 'History (4)' }))
    const pick = (name: RegExp) => screen.getByRole('checkbox', { name }) as HTMLInputElement
    fireEvent.click(pick(/^Compare Skill created/))
    // Another file's version cannot be compared with SKILL.md.
    expect(pick(/^Compare Skill file saved/).disabled).toBe(true)
    expect(screen.getByText('Tick one more version of the same file to compare.')).toBeTruthy()
    fireEvent.click(pick(/^Compare Skill rewritten/))
    const compare = screen.getByRole('region', { name: 'Comparing two versions' })
    // From the first version to the latest: the patch and the edit together.
    expect([...compare.querySelectorAll('tr[data-type="add"] .code')].map((c) => c.textContent)).toEqual(['run make deploy', 'check the logs'])
    expect([...compare.querySelectorAll('tr[data-type="del"] .code')].map((c) => c.textContent)).toEqual(['run make'])
    fireEvent.click(within(compare).getByRole('button', { name: 'Clear' }))
    expect(screen.queryByRole('region', { name: 'Comparing two versions' })).toBeNull()
  })

  it('restores a version only after a confirm, through skills.restore', async () => {
    const harness = await openSkill()
    fireEvent.click(screen.getByRole('tab', { name: 'History (4)' }))
    const rows = screen.getAllByRole('button', { name: /^Restore the version from/ })
    expect(rows).toHaveLength(4)
    fireEvent.click(rows[2])
    const dialog = screen.getByRole('dialog', { name: 'Restore this version?' })
    expect(dialog.textContent).toContain('SKILL.md of “deploy” goes back to how it read after the change of')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(harness.bridge.callsTo('skills.restore')).toEqual([])

    fireEvent.click(screen.getAllByRole('button', { name: /^Restore the version from/ })[2])
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }))
    await settle()
    expect(harness.bridge.callsTo('skills.restore')).toEqual([{ name: 'deploy', ledgerId: 6 }])
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByText('Restored “deploy”.')).toBeTruthy()
  })

  it('says why a restore was refused', async () => {
    await openSkill(undefined, () => ({ ok: false, code: 'not_found', error: 'No ledger row 6 for deploy.' }))
    fireEvent.click(screen.getByRole('tab', { name: 'History (4)' }))
    fireEvent.click(screen.getAllByRole('button', { name: /^Restore the version from/ })[2])
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }))
    await settle()
    expect(within(screen.getByRole('dialog')).getByRole('alert').textContent).toContain('This change is no longer in the timeline.')
  })
})

import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { MemoryStoreView } from '../../../shared/ipc/domain'
import { ledger, memoryView, skill } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const store = (entries: string[], current: number, limit: number): MemoryStoreView => memoryView(entries, current, limit)

describe('memory screen', () => {
  async function openMemory() {
    const harness = await renderApp({
      'memory.get': { memory: store(['Repo uses pnpm'], 14, 2200), user: store(['Name is Ana', 'Prefers short answers'], 2000, 2100) },
      'memory.add': { success: true },
      'memory.replace': { success: true },
      'memory.remove': { success: true }
    })
    fireEvent.click(screen.getByRole('button', { name: 'Memory' }))
    await settle()
    return harness
  }

  it('shows both stores with a usage bar that warns past 90%', async () => {
    await openMemory()
    const user = screen.getByRole('region', { name: 'About you' })
    const env = screen.getByRole('region', { name: 'Environment notes' })
    const userMeter = within(user).getByRole('meter')
    expect(userMeter.className).toContain('warn')
    expect(userMeter.getAttribute('aria-valuenow')).toBe('2000')
    expect(within(user).getByText(/Almost full/)).toBeTruthy()
    expect(within(env).getByRole('meter').className).toContain('ok')
    expect(within(env).getByText('Repo uses pnpm')).toBeTruthy()
  })

  it('adds, edits and deletes entries by hand', async () => {
    const harness = await openMemory()
    const env = screen.getByRole('region', { name: 'Environment notes' })
    fireEvent.change(within(env).getByRole('textbox', { name: 'New entry for Environment notes' }), { target: { value: 'CI runs on Fridays' } })
    fireEvent.click(within(env).getByRole('button', { name: 'Add' }))
    await settle()
    expect(harness.bridge.callsTo('memory.add')).toEqual([{ target: 'memory', content: 'CI runs on Fridays' }])

    const user = screen.getByRole('region', { name: 'About you' })
    fireEvent.click(within(user).getAllByRole('button', { name: 'Edit' })[0])
    fireEvent.change(within(user).getByRole('textbox', { name: 'Entry text' }), { target: { value: 'Name is Ana Lima' } })
    fireEvent.click(within(user).getByRole('button', { name: 'Save' }))
    await settle()
    expect(harness.bridge.callsTo('memory.replace')).toEqual([{ target: 'user', oldText: 'Name is Ana', content: 'Name is Ana Lima' }])

    fireEvent.click(within(user).getAllByRole('button', { name: 'Delete' })[1])
    const dialog = screen.getByRole('dialog', { name: 'Delete this memory?' })
    expect(harness.bridge.callsTo('memory.remove')).toEqual([])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await settle()
    expect(harness.bridge.callsTo('memory.remove')).toEqual([{ target: 'user', text: 'Prefers short answers' }])
  })

  it('shows why a write was refused and keeps what was typed', async () => {
    const harness = await openMemory()
    harness.bridge.set('memory.add', { success: false, error: 'USER.md is full (2,000/2,100). Remove or merge entries first.' })
    const user = screen.getByRole('region', { name: 'About you' })
    const box = within(user).getByRole('textbox', { name: 'New entry for About you' }) as HTMLTextAreaElement
    fireEvent.change(box, { target: { value: 'Lives in Lisbon' } })
    fireEvent.click(within(user).getByRole('button', { name: 'Add' }))
    await settle()
    expect(within(user).getByRole('alert').textContent).toContain('USER.md is full')
    expect(box.value).toBe('Lives in Lisbon')
  })

  it('reloads when main says memory changed', async () => {
    const harness = await openMemory()
    harness.bridge.set('memory.get', { memory: store(['Repo uses pnpm', 'Deploys on Mondays'], 40, 2200), user: store([], 0, 2100) })
    act(() => harness.bridge.emit('memory.changed', {}))
    await settle()
    expect(screen.getByText('Deploys on Mondays')).toBeTruthy()
  })
})

describe('skills screen', () => {
  it('lists skills by category with usage, marks and load problems, and shows a skill with its history diff', async () => {
    const patch = ledger(7, {
      kind: 'skill.patch',
      target: 'skills/devops/deploy/SKILL.md',
      source: 'review',
      before: '---\nname: deploy\n---\n# Deploy\nrun make\n',
      after: '---\nname: deploy\n---\n# Deploy\nrun make deploy\n',
      meta: { skill: 'deploy' }
    })
    await renderApp({
      'skills.list': {
        skills: [skill('deploy'), skill('lint', { category: null, readOnly: true, stats: { ...skill('x').stats, stale: true, successRate: null } })],
        diagnostics: [{ path: 'skills/broken/SKILL.md', severity: 'skipped', reason: 'No front matter.' }]
      },
      'skills.get': { skill: skill('deploy'), content: '---\nname: deploy\ndescription: Ship it\n---\n# Deploy\n\n<img src=x onerror=alert(1)>\n\nrun `make deploy`', files: ['SKILL.md', 'scripts/check.sh'] },
      'skills.history': [patch]
    })
    fireEvent.click(screen.getByRole('button', { name: 'Skills' }))
    await settle()
    expect(screen.getByText('devops')).toBeTruthy()
    expect(screen.getByText('Other')).toBeTruthy()
    expect(screen.getByText('3 uses · 75% success')).toBeTruthy()
    expect(screen.getAllByLabelText('Read-only').length).toBeGreaterThan(0)
    expect(screen.getByText('Stale')).toBeTruthy()

    const problems = screen.getByRole('button', { name: /Load problems: 1 skipped/ })
    expect(screen.queryByText('No front matter.')).toBeNull()
    fireEvent.click(problems)
    expect(screen.getByText('No front matter.')).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: /^deploy/ }))
    await settle()
    expect(screen.getByRole('heading', { name: 'Deploy' })).toBeTruthy()
    expect(document.querySelector('.skill-body img')).toBeNull()
    expect(screen.getByText(/3 uses · last used/)).toBeTruthy()

    fireEvent.click(screen.getByRole('tab', { name: 'Files (2)' }))
    expect(screen.getByText('scripts/check.sh')).toBeTruthy()
    fireEvent.click(screen.getByRole('tab', { name: 'History (1)' }))
    fireEvent.click(screen.getByRole('button', { name: /Skill edited/ }))
    expect([...document.querySelectorAll('tr[data-type="add"] .code')].map((c) => c.textContent)).toEqual(['run make deploy'])
    expect([...document.querySelectorAll('tr[data-type="del"] .code')].map((c) => c.textContent)).toEqual(['run make'])
  })
})

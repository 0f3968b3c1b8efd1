import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { RouteInput } from '../../../shared/ipc/contract'
import type { SkillItem, SkillWriteResult } from '../../../shared/ipc/domain'
import { skill } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const TEXT = '---\nname: deploy\ndescription: How to deploy\n---\n# Deploy\nrun make\n'
const library = [
  skill('deploy', { description: 'Ship the app to production', category: 'devops' }),
  skill('brew-tea', { description: 'Steep green tea', category: 'kitchen' }),
  skill('rotate-logs', { description: 'Keep the disk free', category: 'ops' })
]

async function openSkills(extra: Parameters<typeof renderApp>[0] = {}, skills: SkillItem[] = library) {
  const harness = await renderApp({
    'skills.list': { skills, diagnostics: [] },
    'skills.get': ({ name }) => ({ skill: skills.find((item) => item.name === name)!, content: TEXT, files: ['SKILL.md'] }),
    'skills.history': [],
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: 'Skills' }))
  await settle()
  return harness
}

const listed = () => [...document.querySelectorAll('.skill-row-name > span:first-child')].map((name) => name.textContent)

describe('skill search', () => {
  it('filters as the user types, by name, description or category; Enter opens the first match, Esc clears', async () => {
    await openSkills()
    const search = screen.getByRole('searchbox', { name: 'Search skills' })
    fireEvent.change(search, { target: { value: 'tea' } })
    expect(listed()).toEqual(['brew-tea'])
    fireEvent.change(search, { target: { value: 'DEVOPS' } })
    expect(listed()).toEqual(['deploy'])
    fireEvent.change(search, { target: { value: 'disk free' } })
    expect(listed()).toEqual(['rotate-logs'])
    fireEvent.keyDown(search, { key: 'Enter' })
    await settle()
    expect(screen.getByRole('heading', { name: 'rotate-logs' })).toBeTruthy()
    fireEvent.change(search, { target: { value: 'kubernetes' } })
    expect(screen.getByText('No skills match “kubernetes”.')).toBeTruthy()
    fireEvent.keyDown(search, { key: 'Escape' })
    expect(listed()).toHaveLength(3)
  })
})

describe('editing SKILL.md by hand', () => {
  const openDeploy = async (saveFile: (input: RouteInput<'skills.saveFile'>) => SkillWriteResult) => {
    const harness = await openSkills({ 'skills.saveFile': saveFile })
    fireEvent.click(screen.getByRole('button', { name: /^deploy/ }))
    await settle()
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }))
    return { harness, editor: screen.getByRole('textbox', { name: 'SKILL.md of deploy' }) as HTMLTextAreaElement }
  }

  it('saves the edited text with the text it started from, then leaves the editor', async () => {
    const { harness, editor } = await openDeploy(() => ({ ok: true, name: 'deploy' }))
    expect(editor.value).toBe(TEXT)
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.change(editor, { target: { value: TEXT + 'check the logs\n' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await settle()
    expect(harness.bridge.callsTo('skills.saveFile')).toEqual([{ name: 'deploy', content: TEXT + 'check the logs\n', expected: TEXT }])
    expect(screen.queryByRole('textbox', { name: 'SKILL.md of deploy' })).toBeNull()
    expect(screen.getByText('Saved “deploy”.')).toBeTruthy()
  })

  it('keeps the text and says why when the front matter is invalid', async () => {
    const { editor } = await openDeploy(() => ({ ok: false, code: 'invalid', error: 'SKILL.md must start with YAML front matter (---).' }))
    fireEvent.change(editor, { target: { value: '# no front matter\n' } })
    fireEvent.keyDown(editor, { key: 's', ctrlKey: true })
    await settle()
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('Nothing was saved: the skill is not valid.')
    expect(alert.textContent).toContain('SKILL.md must start with YAML front matter (---).')
    expect((screen.getByRole('textbox', { name: 'SKILL.md of deploy' }) as HTMLTextAreaElement).value).toBe('# no front matter\n')
  })

  it('Cancel leaves the file alone', async () => {
    const { harness, editor } = await openDeploy(() => ({ ok: true, name: 'deploy' }))
    fireEvent.change(editor, { target: { value: 'changed' } })
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('textbox', { name: 'SKILL.md of deploy' })).toBeNull()
    expect(harness.bridge.callsTo('skills.saveFile')).toEqual([])
  })

  it('offers no editing or deleting for a skill in a read-only folder', async () => {
    await openSkills({}, [skill('deploy', { readOnly: true, madeBy: 'external' })])
    fireEvent.click(screen.getByRole('button', { name: /^deploy/ }))
    await settle()
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Open folder' })).toBeTruthy()
  })
})

describe('creating, deleting, opening the folder', () => {
  it('creates a skill from the form and opens it; a taken name is worded', async () => {
    let answer: SkillWriteResult = { ok: false, code: 'exists', error: "A skill named 'deploy' already exists." }
    const harness = await openSkills({ 'skills.create': () => answer })
    fireEvent.click(screen.getByRole('button', { name: 'New skill' }))
    const dialog = screen.getByRole('dialog', { name: 'New skill' })
    const create = within(dialog).getByRole('button', { name: 'Create skill' }) as HTMLButtonElement
    expect(create.disabled).toBe(true)
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'deploy' } })
    fireEvent.change(within(dialog).getByLabelText('Category (optional)'), { target: { value: 'devops' } })
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Ship it' } })
    fireEvent.change(within(dialog).getByLabelText('Instructions'), { target: { value: '1. make deploy' } })
    fireEvent.click(create)
    await settle()
    expect(within(dialog).getByRole('alert').textContent).toBe('A skill with this name already exists. Choose another name.')

    answer = { ok: true, name: 'ship-it' }
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'ship-it' } })
    fireEvent.click(create)
    await settle()
    expect(harness.bridge.callsTo('skills.create').at(-1)).toEqual({ name: 'ship-it', category: 'devops', description: 'Ship it', body: '1. make deploy' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(harness.bridge.callsTo('skills.get').at(-1)).toEqual({ name: 'ship-it' })
  })

  it('deletes after a dialog that says the skill is archived and can be brought back', async () => {
    const harness = await openSkills({ 'skills.archive': () => ({ ok: true, name: 'deploy' }) })
    fireEvent.click(screen.getByRole('button', { name: /^deploy/ }))
    await settle()
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete “deploy”?' })
    expect(dialog.textContent).toContain('moves to the archive')
    expect(dialog.textContent).toContain('revert this deletion in the timeline')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await settle()
    expect(harness.bridge.callsTo('skills.archive')).toEqual([{ name: 'deploy' }])
    expect(screen.getByText('Moved “deploy” to the archive.')).toBeTruthy()
  })

  it('shows the folder with a copy button where it cannot be opened (browser mode)', async () => {
    await openSkills({ 'skills.openFolder': () => ({ path: '/home/me/.cairn/skills/devops/deploy', opened: false }) })
    fireEvent.click(screen.getByRole('button', { name: /^deploy/ }))
    await settle()
    fireEvent.click(screen.getByRole('button', { name: 'Open folder' }))
    await settle()
    const dialog = screen.getByRole('dialog', { name: 'Skill folder' })
    expect(within(dialog).getByTestId('skill-folder').textContent).toBe('/home/me/.cairn/skills/devops/deploy')
    expect(within(dialog).getByRole('button', { name: 'Copy' })).toBeTruthy()
  })

  it('opens the folder without a dialog on the desktop', async () => {
    const harness = await openSkills({ 'skills.openFolder': () => ({ path: '/home/me/.cairn/skills/devops/deploy', opened: true }) })
    fireEvent.click(screen.getByRole('button', { name: /^deploy/ }))
    await settle()
    fireEvent.click(screen.getByRole('button', { name: 'Open folder' }))
    await settle()
    expect(harness.bridge.callsTo('skills.openFolder')).toEqual([{ name: 'deploy' }])
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

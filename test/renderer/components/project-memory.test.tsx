import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { memoryView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

describe('the Project card on the Memory screen', () => {
  it("shows the current workspace's project memory with the same card, and sends its changes with that workspace", async () => {
    const harness = await renderApp({
      'memory.get': { memory: memoryView([], 0, 2200), user: memoryView([], 0, 1375) },
      'memory.project': { ...memoryView(['Tests need TZ=UTC'], 17, 2200), workspace: '/home/me/Cairn', name: 'Cairn' },
      'memory.add': { success: true }
    })
    fireEvent.click(screen.getByRole('button', { name: 'Memory' }))
    await settle()
    expect(harness.bridge.callsTo('memory.project')).toEqual([{ workspace: '/home/me/Cairn' }])
    const card = screen.getByRole('region', { name: 'This project' })
    expect(within(card).getByText(/Facts about the workspace Cairn/)).toBeTruthy()
    expect(within(card).getByText('Tests need TZ=UTC')).toBeTruthy()
    fireEvent.change(within(card).getByRole('textbox', { name: 'New entry for This project' }), { target: { value: 'Lint with ruff' } })
    fireEvent.click(within(card).getByRole('button', { name: 'Add' }))
    await settle()
    expect(harness.bridge.callsTo('memory.add')).toEqual([{ target: 'project', content: 'Lint with ruff', workspace: '/home/me/Cairn' }])
  })

  it('leaves the other two cards shown when the project memory cannot be read', async () => {
    await renderApp({ 'memory.get': { memory: memoryView([], 0, 2200), user: memoryView(['Name is Ana'], 11, 1375) } })
    fireEvent.click(screen.getByRole('button', { name: 'Memory' }))
    await settle()
    expect(screen.getByRole('region', { name: 'About you' })).toBeTruthy()
    expect(screen.queryByRole('region', { name: 'This project' })).toBeNull()
  })
})

describe("the repository's instruction files in the chat header", () => {
  it('lists them, marks one left out, and opens one from the keyboard', async () => {
    const harness = await renderApp({
      'workspace.instructions': [
        { file: 'AGENTS.md', path: '/home/me/Cairn/AGENTS.md', loaded: true, cut: false, blocked: null },
        { file: 'CLAUDE.md', path: '/home/me/Cairn/CLAUDE.md', loaded: false, cut: false, blocked: ['prompt_injection'] }
      ],
      'workspace.openInstructions': { path: '/home/me/Cairn/AGENTS.md', opened: true }
    })
    await settle()
    const group = screen.getByRole('group', { name: 'Project instructions' })
    const agents = within(group).getByRole('button', { name: 'Open AGENTS.md' })
    expect(within(group).getByRole('button', { name: /CLAUDE\.md was not used/ })).toBeTruthy()
    agents.focus()
    fireEvent.click(agents)
    await settle()
    expect(harness.bridge.callsTo('workspace.openInstructions')).toEqual([{ workspace: '/home/me/Cairn', file: 'AGENTS.md' }])
  })
})

import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { config, ledger, proposal, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

// What another agent wrote over MCP (`cairn mcp serve`): its rows carry `mcp:<client>`.
const fromClaudeCode = ledger(2, { kind: 'memory.add', after: 'Deploys with make deploy', source: 'mcp:claude-code' })
const suggestion = proposal(1, { reviewId: 'mcp:claude-code', sessionId: null, reasons: [], cause: 'suggested', after: 'Works in UTC+8', rationale: 'The user said so twice.' })

describe('changes from other agents over MCP', () => {
  it('names the agent on the timeline', async () => {
    await renderApp({ 'timeline.list': { entries: [fromClaudeCode], reviews: [] } })
    fireEvent.click(screen.getByRole('button', { name: 'Timeline' }))
    await settle()
    expect(within(screen.getByRole('article')).getByText('Claude Code (MCP)')).toBeTruthy()
  })

  it('names the agent on the timeline in Chinese', async () => {
    await renderApp({ 'timeline.list': { entries: [fromClaudeCode], reviews: [] }, 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    fireEvent.click(screen.getByRole('button', { name: '时间线' }))
    await settle()
    expect(within(screen.getByRole('article')).getByText('Claude Code（MCP）')).toBeTruthy()
  })

  it('groups an agent’s suggestions in the Inbox under its name, saying why they wait', async () => {
    await renderApp({ 'inbox.list': () => ({ proposals: [suggestion], pending: 1 }) })
    fireEvent.click(screen.getByRole('button', { name: /^Inbox/ }))
    await settle()
    const group = screen.getByRole('region', { name: 'Suggested by Claude Code (MCP)' })
    expect(within(group).getByText('Works in UTC+8')).toBeTruthy()
    expect(within(group).getByText('Another agent suggested this over MCP; Cairn never applies those without you.')).toBeTruthy()
  })
})

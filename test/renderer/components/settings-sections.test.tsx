import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { translator } from '../../../shared/i18n'
import { SETTINGS_INDEX } from '../../../renderer/src/features/settings/settings-index'
import { config, settingsView, syncStatus } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

async function openSettingsView(handlers: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp(handlers)
  fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
  await settle()
  return harness
}

const panel = () => screen.getByRole('tabpanel')

describe('Settings in sections', () => {
  it('shows one section at a time, picked from the section list, and keeps it in the ui store', async () => {
    const { app } = await openSettingsView()
    const tabs = within(screen.getByRole('tablist', { name: 'Settings sections' })).getAllByRole('tab')
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Provider', 'Learning', 'Search', 'Tools (MCP)', 'Data', 'Appearance'])
    expect(screen.getByRole('tab', { name: 'Provider' }).getAttribute('aria-selected')).toBe('true')
    expect(within(panel()).getByRole('region', { name: 'Model provider' })).toBeTruthy()
    expect(within(panel()).queryByRole('region', { name: 'Appearance' })).toBeNull()

    fireEvent.click(screen.getByRole('tab', { name: 'Appearance' }))
    await settle()
    expect(app.ui.getState().settingsSection).toBe('appearance')
    expect(within(panel()).getByRole('region', { name: 'Appearance' })).toBeTruthy()
    expect(within(panel()).queryByRole('region', { name: 'Model provider' })).toBeNull()
    expect(panel().getAttribute('aria-labelledby')).toBe(screen.getByRole('tab', { name: 'Appearance' }).id)
  })

  it('lands on the section an error asked for (openSettings), from any view', async () => {
    const { app } = await renderApp()
    act(() => app.ui.getState().openSettings('tools'))
    await settle()
    expect(screen.getByRole('tab', { name: 'Tools (MCP)' }).getAttribute('aria-selected')).toBe('true')
    expect(within(panel()).getByRole('heading', { name: 'Tools (MCP)' })).toBeTruthy()
    act(() => app.ui.getState().openSettings('data'))
    await settle()
    expect(within(panel()).getByRole('region', { name: 'Sync across devices' })).toBeTruthy()
  })

  it('moves between sections with the arrow keys, Home and End; only the current tab is in the Tab order', async () => {
    const { app } = await openSettingsView()
    const provider = screen.getByRole('tab', { name: 'Provider' })
    provider.focus()
    fireEvent.keyDown(provider, { key: 'ArrowDown' })
    await settle()
    expect(app.ui.getState().settingsSection).toBe('learning')
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Learning' }))
    expect(screen.getByRole('tab', { name: 'Learning' }).tabIndex).toBe(0)
    expect(provider.tabIndex).toBe(-1)
    fireEvent.keyDown(document.activeElement!, { key: 'End' })
    await settle()
    expect(app.ui.getState().settingsSection).toBe('appearance')
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    await settle()
    expect(app.ui.getState().settingsSection).toBe('provider')
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' })
    await settle()
    expect(app.ui.getState().settingsSection).toBe('appearance')
    fireEvent.keyDown(document.activeElement!, { key: 'Home' })
    await settle()
    expect(document.activeElement).toBe(provider)
  })

  it('search lists the settings that match, with their section, and a pick jumps to the field', async () => {
    const { app } = await openSettingsView()
    const search = screen.getByRole('searchbox', { name: 'Search settings' })
    fireEvent.change(search, { target: { value: 'token' } })
    await settle()
    const results = screen.getByRole('region', { name: 'Matching settings' })
    const found = within(results).getAllByRole('button')
    expect(found.map((button) => button.querySelector('.settings-found-label')?.textContent)).toContain('Access token')
    expect(within(results).queryByText('Theme')).toBeNull()
    fireEvent.click(within(results).getByRole('button', { name: /Access token/ }))
    await settle()
    expect(app.ui.getState().settingsSection).toBe('data')
    expect(screen.queryByRole('region', { name: 'Matching settings' })).toBeNull()
    expect(document.activeElement).toBe(within(panel()).getByLabelText('Access token'))

    fireEvent.change(search, { target: { value: 'zzzz nothing' } })
    await settle()
    expect(screen.getByText('No setting matches “zzzz nothing”.')).toBeTruthy()
  })

  it('Enter in the search box opens the first match; the search words are those of the current language', async () => {
    const { app } = await renderApp({ 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    fireEvent.click(screen.getByRole('button', { name: '设置' }))
    await settle()
    const search = screen.getByRole('searchbox', { name: '搜索设置' })
    fireEvent.change(search, { target: { value: '语言' } })
    await settle()
    fireEvent.keyDown(search, { key: 'Enter' })
    await settle()
    expect(app.ui.getState().settingsSection).toBe('appearance')
    expect(document.activeElement).toBe(within(panel()).getByLabelText('语言'))
    // English words do not find the Chinese labels.
    fireEvent.change(search, { target: { value: 'Language' } })
    await settle()
    expect(screen.getByText('没有设置匹配“Language”。')).toBeTruthy()
  })

  // Each entry of the index, sync not set up and set up (its remote and token fields then gone): the
  // jump opens the entry's section and the focus lands inside it, never left on the page.
  for (const synced of [false, true]) {
    it(`every setting the search finds lands the focus in its section (sync ${synced ? 'set up' : 'not set up'})`, async () => {
      const t = translator('en')
      const status = synced ? syncStatus({ remote: 'https://example.com/me/sync.git', hasToken: true }) : syncStatus()
      const { app } = await openSettingsView({ 'sync.status': status })
      const search = screen.getByRole('searchbox', { name: 'Search settings' })
      for (const entry of SETTINGS_INDEX) {
        fireEvent.change(search, { target: { value: t(entry.label) } })
        await settle()
        const results = within(screen.getByRole('region', { name: 'Matching settings' })).getAllByRole('button')
        const pick = results.find((button) => button.querySelector('.settings-found-label')?.textContent === t(entry.label) && button.querySelector('.settings-found-section')?.textContent === t(`settings.sections.${entry.section}`))
        expect(pick, entry.label).toBeTruthy()
        search.focus()
        fireEvent.click(pick!)
        await settle()
        expect(app.ui.getState().settingsSection, entry.label).toBe(entry.section)
        expect(panel().contains(document.activeElement), entry.label).toBe(true)
        expect(document.activeElement, entry.label).not.toBe(panel())
      }
    })
  }
})

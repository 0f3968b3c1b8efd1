import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ledger, skill } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

describe('keyboard: dialogs and screens', () => {
  it('keeps Tab inside a dialog (it wraps at both ends), and Esc gives focus back to where it was', async () => {
    await renderApp()
    const composer = screen.getByRole('textbox', { name: 'Message' })
    composer.focus()
    fireEvent.keyDown(composer, { key: '/', ctrlKey: true })
    await settle()
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' })
    const controls = [...dialog.querySelectorAll<HTMLElement>('button')]
    expect(controls.length).toBeGreaterThan(0)
    const last = controls[controls.length - 1]
    last.focus()
    fireEvent.keyDown(last, { key: 'Tab' })
    expect(document.activeElement).toBe(controls[0])
    fireEvent.keyDown(controls[0], { key: 'Tab', shiftKey: true })
    expect(document.activeElement).toBe(last)

    fireEvent.keyDown(last, { key: 'Escape' })
    await settle()
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(composer)
  })

  it('moves focus to the new screen’s heading when the control that led there went away with the old screen', async () => {
    const skillChange = ledger(2, { kind: 'skill.create', target: 'skills/ops/deploy/SKILL.md', source: 'review', before: null, after: '# Deploy\n', meta: { skill: 'deploy', category: 'ops' } })
    await renderApp({
      'timeline.list': { entries: [skillChange], reviews: [] },
      'skills.list': { skills: [skill('deploy')], diagnostics: [] },
      'skills.get': { skill: skill('deploy'), content: '# Deploy\n', files: ['SKILL.md'] },
      'skills.history': [skillChange]
    })
    const nav = screen.getByRole('navigation', { name: 'Sections' })
    const timeline = within(nav).getByRole('button', { name: 'Timeline' })
    timeline.focus()
    fireEvent.click(timeline)
    await settle()
    // A sidebar button stays where it is: it keeps its focus.
    expect(document.activeElement).toBe(timeline)

    const link = screen.getByRole('button', { name: /^View changes/ })
    link.focus()
    fireEvent.click(link)
    await settle()
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }))
  })
})

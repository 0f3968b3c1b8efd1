import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { connectHistory } from '../../../renderer/src/app/history'
import { ledger, skill } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const skillChange = ledger(2, {
  kind: 'skill.patch',
  target: 'skills/devops/deploy/SKILL.md',
  source: 'review',
  before: '# Deploy\nrun make\n',
  after: '# Deploy\nrun make deploy\n',
  meta: { skill: 'deploy', category: 'devops' }
})

let stop: (() => void) | null = null
afterEach(() => {
  stop?.()
  stop = null
  window.history.replaceState(null, '', '#')
})

describe('Timeline → View changes → Back', () => {
  it('pushes the skill screen, and Back returns to the Timeline where it was: not reloaded, focus on the link followed', async () => {
    const harness = await renderApp({
      'timeline.list': { entries: [skillChange], reviews: [] },
      'skills.list': { skills: [skill('deploy')], diagnostics: [] },
      'skills.get': { skill: skill('deploy'), content: '# Deploy\nrun make deploy\n', files: ['SKILL.md'] },
      'skills.history': [skillChange]
    })
    stop = connectHistory(harness.app.ui, window)
    fireEvent.click(screen.getByRole('button', { name: 'Timeline' }))
    await settle()
    const timelineEntry = window.history.state
    expect(timelineEntry).toMatchObject({ cairn: { view: 'timeline' }, depth: 1 })
    const loads = harness.bridge.callsTo('timeline.list').length

    fireEvent.click(screen.getByRole('button', { name: /^View changes/ }))
    await settle()
    expect(screen.getByRole('heading', { name: 'deploy' })).toBeTruthy()
    expect(window.location.hash).toBe('#/skills')

    // What the browser does on Back: the entry before, then popstate.
    act(() => {
      window.history.replaceState(timelineEntry, '', '#/timeline')
      window.dispatchEvent(new PopStateEvent('popstate', { state: timelineEntry }))
    })
    await settle()
    expect(harness.app.ui.getState().view).toBe('timeline')
    expect(harness.bridge.callsTo('timeline.list')).toHaveLength(loads)
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /^View changes/ }))
  })
})

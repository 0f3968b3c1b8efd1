import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { RouteOutput } from '../../../shared/ipc/contract'
import { FakeFailure, type RouteHandlers } from '../helpers/fake-transport'
import { skill } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const STARTED = 'Curation started. Its proposals will appear in the Inbox.'

/** A `learning.curate` answer the test releases by hand, to see the button while it waits. */
function heldCuration() {
  let release: (answer: RouteOutput<'learning.curate'>) => void = () => {}
  const handler = () =>
    new Promise<RouteOutput<'learning.curate'>>((resolve) => {
      release = resolve
    })
  return { handler, release: (answer: RouteOutput<'learning.curate'>) => release(answer) }
}

async function openScreen(view: 'Inbox' | 'Skills', handlers: RouteHandlers) {
  const harness = await renderApp({
    'inbox.list': { proposals: [], pending: 0 },
    'skills.list': { skills: [skill('deploy')], diagnostics: [] },
    ...handlers
  })
  fireEvent.click(screen.getByRole('button', { name: new RegExp(`^${view}`) }))
  await settle()
  const pane = screen.getByRole('region', { name: view })
  const button = within(pane.querySelector('.pane-header') as HTMLElement).getByRole('button', { name: 'Tidy the library now' }) as HTMLButtonElement
  return { ...harness, button }
}

describe('"Tidy the library now"', () => {
  it('in the Inbox header: says what it does, queues curation, is off while it asks, and says it started', async () => {
    const held = heldCuration()
    const { bridge, button } = await openScreen('Inbox', { 'learning.curate': held.handler })
    expect(button.title).toMatch(/proposes merges in the Inbox\. Nothing changes until you approve\./)

    act(() => button.focus())
    fireEvent.click(button)
    await settle()
    expect(bridge.callsTo('learning.curate')).toEqual([undefined])
    expect(button.disabled).toBe(true)
    // A second press while the first is on its way sends nothing.
    fireEvent.click(button)
    await settle()
    expect(bridge.callsTo('learning.curate')).toHaveLength(1)

    held.release({ reviewId: 'cu1' })
    await settle()
    const toast = screen.getByRole('status')
    expect(toast.textContent).toContain(STARTED)
    // Already in the Inbox: no jump to it.
    expect(within(toast).queryByRole('button', { name: 'Open Inbox' })).toBeNull()
    expect(button.disabled).toBe(false)
    // The keyboard is back where it was.
    expect(document.activeElement).toBe(button)
  })

  it('in the Skills screen: the toast offers the Inbox, where the proposals will be', async () => {
    const { bridge, button } = await openScreen('Skills', { 'learning.curate': { reviewId: 'cu2' } })
    fireEvent.click(button)
    await settle()
    expect(bridge.callsTo('learning.curate')).toEqual([undefined])
    const toast = screen.getByRole('status')
    expect(toast.textContent).toContain(STARTED)
    fireEvent.click(within(toast).getByRole('button', { name: 'Open Inbox' }))
    await settle()
    expect(screen.getByRole('heading', { level: 1, name: 'Inbox' })).toBeTruthy()
  })

  it('shows a refusal as an error toast and can be pressed again', async () => {
    const { bridge, button } = await openScreen('Skills', {
      'learning.curate': () => {
        throw new FakeFailure('CONFLICT', 'A curation pass is already queued.')
      }
    })
    fireEvent.click(button)
    await settle()
    expect(screen.getByRole('alert').textContent).toContain('A curation pass is already queued.')
    expect(screen.queryByText(STARTED)).toBeNull()
    expect(button.disabled).toBe(false)
    fireEvent.click(button)
    await settle()
    expect(bridge.callsTo('learning.curate')).toHaveLength(2)
  })
})

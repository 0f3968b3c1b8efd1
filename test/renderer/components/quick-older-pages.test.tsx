import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { DisplayMessage } from '../../../shared/ipc/domain'
import { QuickApp } from '../../../renderer/src/features/quick/QuickApp'
import { message, session } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

describe('quick prompt with a long conversation', () => {
  it('shows the newest page only and points to the main window for the rest', async () => {
    const messages: DisplayMessage[] = Array.from({ length: 100 }, (_, n) => message(n % 2 ? 'assistant' : 'user', `line ${n + 1}`))
    const harness = await renderApp(
      {
        'sessions.get': { session: session('q1', 'Long'), messages, running: false, page: { hasOlder: true } },
        'window.openMain': { ok: true }
      },
      { ui: <QuickApp />, windowKind: 'quick' }
    )
    await act(async () => {
      await harness.app.chat.getState().openSession('q1')
    })
    expect(screen.getByTestId('quick-older').textContent).toContain('Earlier messages of this conversation are in the main window.')
    await act(async () => {
      await harness.app.chat.getState().loadOlder()
    })
    expect(harness.bridge.callsTo('sessions.messages')).toEqual([])

    fireEvent.click(within(screen.getByTestId('quick-older')).getByRole('button', { name: 'Open in Cairn' }))
    await settle()
    expect(harness.bridge.callsTo('window.openMain')).toEqual([{ sessionId: 'q1' }])
  })
})

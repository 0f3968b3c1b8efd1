import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { SyncStatus } from '../../../shared/ipc/contract-sync'
import { syncStatus } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const REMOTE = 'https://git.example.com/me/cairn-sync.git'
const MINUTE = 60_000
const setUp = (overrides: Partial<SyncStatus> = {}): SyncStatus =>
  syncStatus({ remote: REMOTE, deviceName: 'studio', hasToken: true, lastSync: { at: Date.now() - 5 * MINUTE, outcome: 'pulled', received: 3, sent: 0, conflicts: 0, devices: ['laptop'] }, ...overrides })

async function openSync(handlers: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp(handlers)
  act(() => harness.app.ui.getState().openSettings('data'))
  await settle()
  return { ...harness, part: () => screen.getByRole('region', { name: 'Sync across devices' }) }
}

describe('Settings → Data → Sync', () => {
  it('not set up: says what syncs, offers the host name, and words why the first sync failed', async () => {
    let attempts = 0
    const { bridge, part } = await openSync({
      'sync.setup': () =>
        ++attempts === 1
          ? { ok: false, code: 'unauthorized', error: 'HTTP 401', status: syncStatus() }
          : { ok: true, status: setUp({ lastSync: { at: Date.now(), outcome: 'pushed', received: 0, sent: 2, conflicts: 0, devices: [] } }) }
    })
    expect(within(part()).getByText(/Conversations, API keys, other secrets and attachments stay on this device\. Git runs inside Cairn/)).toBeTruthy()
    expect((within(part()).getByLabelText('Name of this device') as HTMLInputElement).value).toBe('studio')
    const token = within(part()).getByLabelText('Access token') as HTMLInputElement
    expect(token.type).toBe('password')

    // An SSH address is refused here, in words, before anything is sent.
    fireEvent.change(within(part()).getByLabelText('Repository URL'), { target: { value: 'git@github.com:me/cairn-sync.git' } })
    fireEvent.click(within(part()).getByRole('button', { name: 'Set up sync' }))
    await settle()
    expect(within(part()).getByRole('alert').textContent).toContain('SSH is not supported')
    expect(bridge.callsTo('sync.setup')).toEqual([])

    fireEvent.change(within(part()).getByLabelText('Repository URL'), { target: { value: REMOTE } })
    fireEvent.change(token, { target: { value: 'tok-wrong' } })
    fireEvent.change(within(part()).getByLabelText('Name of this device'), { target: { value: 'Studio Mac' } })
    fireEvent.click(within(part()).getByRole('button', { name: 'Set up sync' }))
    await settle()
    expect(bridge.callsTo('sync.setup')).toEqual([{ remote: REMOTE, token: 'tok-wrong', deviceName: 'Studio Mac' }])
    expect(within(part()).getByRole('alert').textContent).toContain('The host refused the token')
    expect(within(part()).queryByText('HTTP 401')).toBeNull()

    fireEvent.change(token, { target: { value: 'tok-right' } })
    fireEvent.click(within(part()).getByRole('button', { name: 'Set up sync' }))
    await settle()
    expect(within(part()).getByText(`Syncing with ${REMOTE} as "studio".`)).toBeTruthy()
    expect(within(part()).getByText(/^Synced (now|\d+ seconds? ago): sent 2 changed files\.$/)).toBeTruthy()
  })

  it('a failed first sync keeps what was typed, even though the status named the remote meanwhile, and says why and what to do', async () => {
    const WRONG = 'http://127.0.0.1:9/nothing.git'
    let finish: (() => void) | null = null
    const harness = await openSync({
      'sync.setup': () =>
        new Promise((resolve) => {
          // As the engine does: the remote is written first (the app announces it), then put back on failure.
          harness.bridge.emit('sync.changed', syncStatus({ remote: WRONG, running: true, phase: 'fetching' }))
          finish = () =>
            resolve({ ok: false, code: 'network', error: `${WRONG} could not be reached (ECONNREFUSED).`, key: 'sync.unreachable', params: { url: WRONG, detail: 'ECONNREFUSED' }, status: syncStatus() })
        })
    })
    const { part } = harness
    fireEvent.change(within(part()).getByLabelText('Repository URL'), { target: { value: WRONG } })
    fireEvent.change(within(part()).getByLabelText('Access token'), { target: { value: 'tok-typed' } })
    fireEvent.click(within(part()).getByRole('button', { name: 'Set up sync' }))
    await settle()
    // While it connects: the form stays, with progress.
    expect(within(part()).getByText(new RegExp(`Connecting to ${WRONG.replace(/\./g, '\\.')} and syncing for the first time`))).toBeTruthy()
    expect((within(part()).getByRole('button', { name: 'Setting up…' }) as HTMLButtonElement).disabled).toBe(true)
    await act(async () => finish?.())
    await settle()
    expect((within(part()).getByLabelText('Repository URL') as HTMLInputElement).value).toBe(WRONG)
    expect((within(part()).getByLabelText('Access token') as HTMLInputElement).value).toBe('tok-typed')
    const alert = within(part()).getByRole('alert')
    expect(alert.textContent).toContain(`${WRONG} could not be reached (ECONNREFUSED).`)
    expect(alert.textContent).toContain('Check the URL')
    fireEvent.click(within(alert).getByRole('button', { name: 'Edit the URL' }))
    expect(document.activeElement).toBe(within(part()).getByLabelText('Repository URL'))
  })

  it('says so when the setup worked', async () => {
    const { part } = await openSync({ 'sync.setup': () => ({ ok: true, status: setUp() }) })
    fireEvent.change(within(part()).getByLabelText('Repository URL'), { target: { value: REMOTE } })
    fireEvent.click(within(part()).getByRole('button', { name: 'Set up sync' }))
    await settle()
    expect(within(part()).getByText(`Sync is set up: this device now syncs with ${REMOTE}.`)).toBeTruthy()
  })

  it('set up: the last sync with its device, progress while it runs, conflicts waiting, and a problem in words', async () => {
    const lastReport = { syncId: 'sync:1', overflow: 2, problems: [{ file: 'skills/ops/bad/SKILL.md', message: 'the frontmatter has no name' }] }
    const { bridge, app, part } = await openSync({ 'sync.status': setUp({ waitingInInbox: 2, lastReport }), 'sync.run': setUp({ waitingInInbox: 2 }) })
    expect(within(part()).getByText('Synced 5 minutes ago: 3 changes came in from laptop.')).toBeTruthy()
    expect(within(part()).getByText('2 memory entries did not fit after the merge and wait in the Inbox.')).toBeTruthy()
    expect(within(part()).getByText('Not brought in: skills/ops/bad/SKILL.md: the frontmatter has no name')).toBeTruthy()
    expect(within(part()).getByText(/2 conflicts wait in the Inbox/)).toBeTruthy()

    act(() => bridge.emit('sync.changed', setUp({ running: true, phase: 'fetching', waitingInInbox: 2 })))
    expect(within(part()).getByText('Fetching the other devices\' changes…')).toBeTruthy()
    expect((within(part()).getByRole('button', { name: 'Syncing…' }) as HTMLButtonElement).disabled).toBe(true)

    act(() => bridge.emit('sync.changed', setUp({ waitingInInbox: 2, lastError: { at: Date.now() - MINUTE, code: 'network', message: 'getaddrinfo ENOTFOUND git.example.com' } })))
    const alert = within(part()).getByRole('alert')
    expect(alert.textContent).toContain('The last sync 1 minute ago did not finish. The host could not be reached.')
    expect(alert.textContent).not.toContain('ENOTFOUND')
    expect(alert.textContent).not.toContain('network')

    fireEvent.click(within(part()).getByRole('button', { name: 'Sync now' }))
    await settle()
    expect(bridge.callsTo('sync.run')).toHaveLength(1)

    fireEvent.click(within(part()).getByRole('button', { name: 'Open the Inbox' }))
    expect(app.ui.getState().view).toBe('inbox')
  })

  it('changes the schedule and the token, and stops syncing only after confirming that nothing is deleted', async () => {
    const { bridge, part } = await openSync({
      'sync.status': setUp(),
      'sync.setSchedule': (input) => setUp({ everyMinutes: (input as { everyMinutes: number }).everyMinutes }),
      'sync.setToken': setUp(),
      'sync.leave': syncStatus()
    })
    fireEvent.change(within(part()).getByLabelText('Sync automatically'), { target: { value: '60' } })
    await settle()
    expect(bridge.callsTo('sync.setSchedule')).toEqual([{ everyMinutes: 60 }])
    expect((within(part()).getByLabelText('Sync automatically') as HTMLSelectElement).selectedOptions[0].textContent).toBe('Every 1 hour')

    fireEvent.click(within(part()).getByRole('button', { name: 'Change token' }))
    fireEvent.change(within(part()).getByLabelText('Access token'), { target: { value: 'tok-new' } })
    fireEvent.click(within(part()).getByRole('button', { name: 'Save token' }))
    await settle()
    expect(bridge.callsTo('sync.setToken')).toEqual([{ token: 'tok-new' }])
    expect(within(part()).queryByLabelText('Access token')).toBeNull()

    fireEvent.click(within(part()).getByRole('button', { name: 'Stop syncing' }))
    const dialog = screen.getByRole('dialog', { name: 'Stop syncing this device?' })
    expect(dialog.textContent).toContain('Nothing is deleted')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(bridge.callsTo('sync.leave')).toEqual([])

    fireEvent.click(within(part()).getByRole('button', { name: 'Stop syncing' }))
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Stop syncing' }))
    await settle()
    expect(bridge.callsTo('sync.leave')).toHaveLength(1)
    expect(within(part()).getByRole('button', { name: 'Set up sync' })).toBeTruthy()
  })
})

import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { BackupStatus } from '../../../shared/ipc/contract-backup'
import { renderApp, settle } from '../helpers/render-app'

const FOLDER = '/home/me/.cairn/backups'
const idle: BackupStatus = { everyDays: 0, keep: 7, folder: FOLDER, defaultFolder: FOLDER, last: null, nextDueAt: null, running: false, lastError: null }
const made: BackupStatus = { ...idle, last: { file: `${FOLDER}/cairn-20260110-090000.tar.gz`, at: Date.now() - 5 * 60_000, bytes: 3 * 1024 * 1024 } }

async function openSettings(handlers: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({ 'backup.status': idle, ...handlers })
  act(() => harness.app.ui.getState().openSettings('data'))
  await settle()
  return { ...harness, section: screen.getByRole('region', { name: 'Data and backups' }) }
}

describe('Settings → Data', () => {
  it('saves a schedule: how often, how many to keep, and the default folder', async () => {
    const { bridge, section } = await openSettings({ 'backup.setSchedule': (input) => ({ ...idle, ...input, nextDueAt: Date.now() }) })
    expect(within(section).getByText('No backup in this folder yet.')).toBeTruthy()
    expect(within(section).getByText(`Leave empty for ${FOLDER}.`)).toBeTruthy()
    const save = within(section).getByRole('button', { name: 'Save schedule' }) as HTMLButtonElement
    expect(save.disabled).toBe(true)

    fireEvent.change(within(section).getByLabelText('Back up automatically'), { target: { value: '7' } })
    fireEvent.change(within(section).getByLabelText('Backups to keep'), { target: { value: '0' } })
    expect(save.disabled).toBe(true)
    fireEvent.change(within(section).getByLabelText('Backups to keep'), { target: { value: '3' } })
    fireEvent.click(save)
    await settle()
    expect(bridge.callsTo('backup.setSchedule')).toEqual([{ everyDays: 7, keep: 3, folder: '' }])
    expect((within(section).getByLabelText('Back up automatically') as HTMLSelectElement).value).toBe('7')
    expect(save.disabled).toBe(true)
  })

  it('backs up now, shows it running from the event, then the last backup; a failure is shown', async () => {
    const { bridge, section } = await openSettings({ 'backup.run': made })
    act(() => bridge.emit('backup.changed', { ...idle, running: true }))
    const running = within(section).getByRole('button', { name: 'Backing up…' }) as HTMLButtonElement
    expect(running.disabled).toBe(true)
    act(() => bridge.emit('backup.changed', idle))

    fireEvent.click(within(section).getByRole('button', { name: 'Back up now' }))
    await settle()
    expect(bridge.callsTo('backup.run')).toHaveLength(1)
    expect(within(section).getByText(/Last backup: cairn-20260110-090000\.tar\.gz \(3\.0 MB\), 5 minutes ago\./)).toBeTruthy()

    act(() => bridge.emit('backup.changed', { ...made, lastError: 'Cannot write a backup to /Volumes/usb: ENOENT' }))
    expect(within(section).getByRole('alert').textContent).toContain('The last backup failed: Cannot write a backup to /Volumes/usb')
  })
})

import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BackupStatus } from '../../../shared/ipc/contract-backup'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { TestClock } from '../learning/host/desktop-chat'
import { tempDir } from './backup-home'

const DAY_MINUTES = 24 * 60
let fx: AppFixture | null = null
const dirs: string[] = []
afterEach(async () => {
  await fx?.close()
  fx = null
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const finished = (count: number) => (status: BackupStatus) => !status.running && readdirSync(status.folder).filter((name) => name.startsWith('cairn-')).length >= count

describe("the app's scheduled backups", () => {
  it('backs up at start when due, again once the last is everyDays old, and prunes to keep', async () => {
    const clock = new TestClock()
    clock.at = new Date(2026, 0, 10, 9, 0, 0).getTime()
    fx = await appFixture({ app: { clock }, config: { backup: { everyDays: 2, keep: 2 } } })
    const folder = join(fx.home, 'backups')
    const first = await fx.waitFor('backup.changed', (status) => !status.running && status.last !== null)
    expect(first).toMatchObject({ everyDays: 2, keep: 2, folder, lastError: null })
    expect(basename(first.last!.file)).toBe('cairn-20260110-090000.tar.gz')
    expect(first.nextDueAt).toBe(clock.at + 2 * DAY_MINUTES * 60_000)
    writeFileSync(join(folder, 'notes.txt'), 'the user keeps this here')

    // A day later nothing is due yet; two days after the first, the next one runs.
    clock.pass(DAY_MINUTES)
    expect((await fx.app.backups.check()).last?.file).toBe(first.last!.file)
    clock.pass(DAY_MINUTES)
    await fx.waitFor('backup.changed', finished(2))
    clock.pass(2 * DAY_MINUTES)
    const third = await fx.waitFor('backup.changed', (status) => !status.running && basename(status.last?.file ?? '') === 'cairn-20260114-090000.tar.gz')
    expect(third.lastError).toBeNull()
    expect(readdirSync(folder).sort()).toEqual(['cairn-20260112-090000.tar.gz', 'cairn-20260114-090000.tar.gz', 'notes.txt'])
  })

  it('is off by default; Settings → Data changes the schedule, checks the folder, and makes one now', async () => {
    fx = await appFixture()
    const status = await fx.ok('backup.status')
    expect(status).toMatchObject({ everyDays: 0, keep: 7, folder: join(fx.home, 'backups'), last: null, nextDueAt: null, running: false })

    const relative = await fx.call('backup.setSchedule', { everyDays: 1, keep: 3, folder: 'Backups' })
    expect(relative.ok).toBe(false)
    if (!relative.ok) expect(relative.error.message).toContain('must be a full path')
    expect(fx.core.config.get().backup.everyDays).toBe(0)

    const chosen = join(tempDir('cairn-backup-folder-'), 'Cairn backups')
    dirs.push(join(chosen, '..'))
    const scheduled = await fx.ok('backup.setSchedule', { everyDays: 0, keep: 3, folder: chosen })
    expect(scheduled).toMatchObject({ everyDays: 0, keep: 3, folder: chosen, nextDueAt: null })
    expect(fx.core.config.get().backup).toMatchObject({ everyDays: 0, keep: 3, folder: chosen })

    const made = await fx.ok('backup.run')
    expect(made.lastError).toBeNull()
    expect(made.last?.file.startsWith(join(chosen, 'cairn-'))).toBe(true)
    expect(fx.events.filter((event) => event.name === 'backup.changed').map((event) => (event.payload as BackupStatus).running)).toEqual([true, false])

    // A folder that cannot be written to: the failure is in the status, and nothing is left half-made.
    const blocked = join(chosen, 'not-a-folder')
    writeFileSync(blocked, 'a file where the folder should be')
    await fx.ok('backup.setSchedule', { everyDays: 0, keep: 3, folder: join(blocked, 'inside') })
    const failed = await fx.ok('backup.run')
    expect(failed.lastError).toMatch(/^Cannot write a backup to .*not-a-folder\/inside: /)
    expect(readdirSync(chosen).sort()).toEqual([basename(made.last!.file), 'not-a-folder'])
  })
})

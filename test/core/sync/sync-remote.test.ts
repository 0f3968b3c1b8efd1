import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { withLock } from '../../../electron/core/fs/lock'
import { readSyncState, runSync, setupSync, SyncError } from '../../../electron/core/sync'
import { syncWorld, type SyncWorld } from './sync-devices'

const AGENT = { source: 'agent' } as const

let world: SyncWorld
afterEach(async () => {
  await world?.close()
})

function remoteHead(): string {
  return execFileSync('git', ['-C', world.host.repoPath('team.git'), 'rev-parse', 'main'], { encoding: 'utf8' }).trim()
}

async function syncError(promise: Promise<unknown>): Promise<SyncError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason
  )
  expect(error).toBeInstanceOf(SyncError)
  return error as SyncError
}

describe('sync setup and the remote', () => {
  it('a wrong token is refused as unauthorized, and setup leaves nothing set up', async () => {
    world = await syncWorld({ token: 'right-token' })
    const device = await world.device('laptop')
    await device.core.config.update({ sync: { remote: '' } })
    await device.core.memory.add('memory', 'The user deploys with fly.io.', { write: AGENT })
    const refused = await syncError(setupSync(device.core, { remote: world.remote }, { token: 'wrong-token' }))
    expect(refused.code).toBe('unauthorized')
    expect(device.core.config.get().sync.remote).toBe('')
    expect(existsSync(join(device.home, 'sync', 'git'))).toBe(false)

    const report = await setupSync(device.core, { remote: world.remote, deviceName: 'work laptop' }, { token: 'right-token' })
    expect(report.outcome).toBe('pushed')
    expect(device.core.config.get().sync).toMatchObject({ remote: world.remote, deviceName: 'work laptop' })
    expect(execFileSync('git', ['-C', world.host.repoPath('team.git'), 'log', '-1', '--format=%an', 'main'], { encoding: 'utf8' }).trim()).toBe('work laptop')
  })

  it('refuses SSH remotes, credentials in the URL and a home that is not set up, each with its own code', async () => {
    world = await syncWorld()
    const device = await world.device('laptop')
    expect((await syncError(setupSync(device.core, { remote: 'git@github.com:you/notes.git' }, { token: null }))).code).toBe('unsupported_remote')
    expect((await syncError(setupSync(device.core, { remote: 'https://you:secret@example.com/notes.git' }, { token: null }))).code).toBe('unsupported_remote')
    await device.core.config.update({ sync: { remote: '' } })
    expect((await syncError(runSync(device.core, { token: null }))).code).toBe('not_set_up')
  })

  it('a host that cannot be reached is a network problem, kept for the status', async () => {
    world = await syncWorld()
    const device = await world.device('laptop')
    const port = await closedPort()
    await device.core.config.update({ sync: { remote: `http://127.0.0.1:${port}/team.git` } })
    expect((await syncError(device.sync())).code).toBe('network')
    const state = readSyncState(device.home, device.core.config.get())
    expect(state.lastError).toMatchObject({ code: 'network' })
    expect(state.lastSync).toBeNull()
  })

  it('one sync of a home at a time: another finds it busy and leaves no error behind', async () => {
    world = await syncWorld()
    const device = await world.device('laptop')
    await withLock(join(device.home, 'sync', 'sync'), async () => {
      expect((await syncError(device.sync())).code).toBe('busy')
    })
    expect(readSyncState(device.home, device.core.config.get()).lastError).toBeNull()
    expect((await device.sync()).outcome).toBe('up_to_date')
  })

  it('a push broken off midway leaves the remote as it was, and the next sync sends everything', async () => {
    world = await syncWorld()
    const laptop = await world.device('laptop')
    const desktop = await world.device('desktop')
    await laptop.core.memory.add('memory', 'The user deploys with fly.io.', { write: AGENT })
    await laptop.sync()
    const before = remoteHead()

    await laptop.core.memory.add('memory', 'The staging cluster is in Frankfurt.', { write: AGENT })
    await laptop.core.skills.create({ name: 'deploy', content: '---\nname: deploy\ndescription: "How this user deploys."\n---\n\n# Deploy\n' }, AGENT)
    await world.host.dropNextPush(64)
    const broken = await syncError(laptop.sync())
    expect(['network', 'failed', 'remote_rejected']).toContain(broken.code)
    expect(remoteHead()).toBe(before)
    expect(readSyncState(laptop.home, laptop.core.config.get()).lastError?.code).toBe(broken.code)

    // The other device meanwhile syncs against the untouched remote; then the laptop's next sync goes through.
    await desktop.sync()
    expect(desktop.core.memory.read('memory').entries).toEqual(['The user deploys with fly.io.'])
    expect((await laptop.sync()).outcome).toBe('pushed')
    await desktop.sync()
    expect(desktop.core.memory.read('memory').entries).toEqual(['The user deploys with fly.io.', 'The staging cluster is in Frankfurt.'])
    expect(readFileSync(join(desktop.home, 'skills', 'deploy', 'SKILL.md'), 'utf8')).toContain('# Deploy')
    expect(readSyncState(laptop.home, laptop.core.config.get())).toMatchObject({ lastError: null, lastSync: { outcome: 'pushed' } })
  })
})

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CairnCore } from '../../../electron/core/cairn'
import { runSync, setupSync, type SyncReport } from '../../../electron/core/sync'
import { startGitHost, type GitHost } from '../../support/git-host'

/** A data home playing one device: its core, opened on its own folder. */
export interface Device {
  name: string
  home: string
  core: CairnCore
  sync(): Promise<SyncReport>
}

export interface SyncWorld {
  host: GitHost
  remote: string
  device(name: string): Promise<Device>
  /** Opens a device's core anew (after a simulated crash). */
  reopen(device: Device): Promise<Device>
  close(): Promise<void>
}

/** A git host with one empty repository, and devices that sync with it (each its own data home). */
export async function syncWorld(options: { token?: string } = {}): Promise<SyncWorld> {
  const host = await startGitHost(options.token ? { token: { user: 'cairn', password: options.token } } : {})
  await host.createBareRepo('team.git')
  const remote = host.url('team.git')
  const dirs: string[] = []
  const devices: Device[] = []
  const token = options.token ?? null
  const open = async (name: string, home: string): Promise<Device> => {
    const core = await CairnCore.open({ home })
    await core.config.update({ sync: { remote, deviceName: name } })
    const device: Device = { name, home, core, sync: () => runSync(core, { token }) }
    devices.push(device)
    return device
  }
  return {
    host,
    remote,
    async device(name) {
      const home = mkdtempSync(join(tmpdir(), `cairn-sync-${name}-`))
      dirs.push(home)
      return open(name, home)
    },
    async reopen(device) {
      await device.core.close().catch(() => {})
      devices.splice(devices.indexOf(device), 1)
      return open(device.name, device.home)
    },
    async close() {
      for (const device of devices.splice(0)) await device.core.close().catch(() => {})
      await host.close()
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
    }
  }
}

export { setupSync }

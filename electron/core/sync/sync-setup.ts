import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { SyncHome } from './sync-home'
import { runSync, type RunSyncOptions } from './sync-run'
import { syncGitDir } from './sync-repo'
import { checkRemoteUrl } from './sync-state'
import type { SyncReport } from './types'

export interface SyncSetup {
  remote: string
  branch?: string
  username?: string
  deviceName?: string
}

/**
 * Turns `memories/` and `skills/` into a git working copy of `remote` and syncs once: this device's
 * files and the remote's are merged (a new device joining keeps what it has). When that first sync
 * fails (a wrong URL or token), the settings are put back and nothing is left set up.
 */
export async function setupSync(core: SyncHome, setup: SyncSetup, options: RunSyncOptions): Promise<SyncReport> {
  const remote = checkRemoteUrl(setup.remote)
  const previous = core.config.get().sync
  const gitdir = syncGitDir(core.paths.root)
  const hadCopy = existsSync(gitdir)
  await core.config.update({
    sync: {
      remote,
      ...(setup.branch ? { branch: setup.branch } : {}),
      ...(setup.username ? { username: setup.username } : {}),
      ...(setup.deviceName !== undefined ? { deviceName: setup.deviceName } : {})
    }
  })
  try {
    return await runSync(core, options)
  } catch (error) {
    await core.config.update({ sync: { remote: previous.remote, branch: previous.branch, username: previous.username, deviceName: previous.deviceName } })
    if (!hadCopy) rmSync(gitdir, { recursive: true, force: true })
    throw error
  }
}

/** Stops syncing this device: the settings are cleared and the git copy removed; memories and skills stay as they are. */
export async function leaveSync(core: SyncHome): Promise<void> {
  await core.config.update({ sync: { remote: '' } })
  rmSync(join(core.paths.root, 'sync'), { recursive: true, force: true })
}

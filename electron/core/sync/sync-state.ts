import { readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import type { CairnConfig } from '../../../shared/config'
import { writeFileAtomicText } from '../fs/atomic'
import { SyncError, type SyncState } from './types'

type Outcomes = Pick<SyncState, 'lastSync' | 'lastError'>

function stateFile(home: string): string {
  return join(home, 'sync', 'state.json')
}

/** How this device names itself: `sync.deviceName`, else the host name. */
export function deviceNameOf(config: CairnConfig): string {
  return config.sync.deviceName.trim() || hostname() || 'this device'
}

/** The sync settings and the last outcome (a missing or unreadable state file is no outcome yet). */
export function readSyncState(home: string, config: CairnConfig): SyncState {
  let outcomes: Outcomes = { lastSync: null, lastError: null }
  try {
    const parsed = JSON.parse(readFileSync(stateFile(home), 'utf8')) as Partial<Outcomes>
    outcomes = { lastSync: parsed.lastSync ?? null, lastError: parsed.lastError ?? null }
  } catch {
    // Never synced, or the file was damaged: the next sync writes it anew.
  }
  return { remote: config.sync.remote, branch: config.sync.branch, deviceName: deviceNameOf(config), ...outcomes }
}

export async function writeSyncOutcome(home: string, config: CairnConfig, outcome: Partial<Outcomes>): Promise<void> {
  const current = readSyncState(home, config)
  const next: Outcomes = { lastSync: current.lastSync, lastError: current.lastError, ...outcome }
  await writeFileAtomicText(stateFile(home), `${JSON.stringify(next, null, 2)}\n`)
}

/**
 * A remote Cairn can sync with: an http(s) URL without credentials in it (the token is kept as a
 * secret). SSH is not supported: isomorphic-git speaks git's smart HTTP protocol only.
 */
export function checkRemoteUrl(remote: string): string {
  const trimmed = remote.trim()
  if (/^(ssh:\/\/|git@|[\w.-]+@[\w.-]+:)/.test(trimmed)) {
    throw new SyncError('unsupported_remote', 'sync.ssh_remote', { url: trimmed })
  }
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    throw new SyncError('unsupported_remote', 'sync.not_a_url', { url: trimmed })
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SyncError('unsupported_remote', 'sync.not_https', { url: trimmed, protocol: url.protocol.replace(/:$/, '') })
  }
  if (url.username || url.password) {
    throw new SyncError('unsupported_remote', 'sync.credentials_in_url', {})
  }
  return trimmed
}

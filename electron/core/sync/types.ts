import type { ErrorKey, ErrorParamsByKey } from '../../../shared/error-keys'
import { KeyedError } from '../../../shared/keyed-error'

/**
 * Sync of `memories/` and `skills/` across devices over git. The engine returns these data; the CLI
 * and the app word them (shared/i18n `sync.*`).
 */

/** Why a sync could not run or finish; each is worded at the edges. */
export type SyncErrorCode =
  /** `sync.remote` is empty: `cairn sync setup <remote>` first. */
  | 'not_set_up'
  /** The remote is not an HTTPS (or HTTP) URL Cairn can reach (SSH is not supported). */
  | 'unsupported_remote'
  /** The host refused the credentials (401/403), or asked for some and none are kept. */
  | 'unauthorized'
  /** The host could not be reached, or the connection broke. */
  | 'network'
  /** The host answered, but refused the push (a protected branch, a hook) or is not a git repository. */
  | 'remote_rejected'
  /** Another sync of this home is running. */
  | 'busy'
  /** Something else; `message` has the details. */
  | 'failed'

/** A sync that failed: `code` says what kind of failure, the key and params say it to a person (a plain string is a detail from git or the network, as it came). */
export class SyncError<K extends SyncErrorKey = SyncErrorKey> extends KeyedError<SyncErrorKey> {
  constructor(code: SyncErrorCode, detail: string)
  constructor(code: SyncErrorCode, key: K, params: ErrorParamsByKey[K])
  constructor(
    readonly code: SyncErrorCode,
    keyOrDetail: K | string,
    params?: ErrorParamsByKey[K]
  ) {
    // A detail as it came words as itself (`sync.failed`).
    super(...((params === undefined ? ['sync.failed', { detail: keyOrDetail }] : [keyOrDetail, params]) as [SyncErrorKey, ErrorParamsByKey[SyncErrorKey]]))
    this.name = 'SyncError'
  }
}

type SyncErrorKey = Extract<ErrorKey, `sync.${string}`>

/** What one sync did. */
export type SyncOutcome =
  /** Nothing changed on either side. */
  | 'up_to_date'
  /** Only this device had changes: they were sent. */
  | 'pushed'
  /** Only the remote had changes: they came in. */
  | 'pulled'
  /** Both had: merged here, then sent. */
  | 'merged'

/** A conflict the merge could not settle by itself: it waits in the Inbox (or was kept on one side), named by file. */
export interface SyncConflict {
  /** Relative to the data home, e.g. `skills/devops/deploy/SKILL.md`. */
  file: string
  /**
   * `proposal`: the other version waits in the Inbox; `kept_local`: a binary file changed on both sides,
   * this device's kept (the other is in the history); `held_back`: the other version adds something that
   * could hurt if followed (a remote script run, a new address, a credentials path), so it waits in the Inbox.
   */
  resolution: 'proposal' | 'kept_local' | 'held_back'
  proposalId?: number
}

export interface SyncReport {
  outcome: SyncOutcome
  /** Groups this sync's ledger rows on the timeline (`sync:<time>`). */
  syncId: string
  /** Files this device sent (changed since the last sync). */
  sent: number
  /** Ledger rows written for what came in. */
  received: number
  /** The devices whose changes came in (commit authors), for "from laptop". */
  devices: string[]
  conflicts: SyncConflict[]
  /** Memory entries that did not fit after the merge: proposed as a consolidation, never cut. */
  overflow: number
  /** What the stores refused to bring in (the threat scan, an invalid SKILL.md), by file; the rest came in. */
  problems: { file: string; message: string }[]
  /** The team libraries of `skills.shared`, each pulled on its own (empty when there are none). */
  shared: SharedLibraryReport[]
  /** The commit both sides are at now ('' when only team libraries were pulled). */
  commit: string
  at: number
}

/** Kept in `<home>/sync/state.json`: what Settings and `cairn sync status` show. */
export interface SyncState {
  remote: string
  branch: string
  deviceName: string
  lastSync: { at: number; outcome: SyncOutcome; received: number; sent: number; conflicts: number; devices: string[] } | null
  lastError: { at: number; code: SyncErrorCode; message: string } | null
}

export interface SyncProgress {
  phase: 'committing' | 'fetching' | 'merging' | 'pushing' | 'shared'
  /** Git's own progress within the phase, where it gives one. */
  loaded?: number
  total?: number
}

/** What pulling one team library (`skills.shared`) did. */
export interface SharedLibraryReport {
  name: string
  url: string
  outcome: 'cloned' | 'updated' | 'up_to_date' | 'failed'
  /** Skills whose files changed in this pull (added, updated or removed). */
  skills: string[]
  error?: { code: SyncErrorCode; message: string }
}

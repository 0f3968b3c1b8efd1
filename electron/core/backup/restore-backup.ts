import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { openStateDb } from '../db/state-db'
import { extractVerified } from './archive-check'
import { homeInUse } from './home-in-use'
import { acceptHeldSettings, holdRestoredSettings, type HeldSetting } from './restored-settings'
import { BackupError, fileStamp, MANIFEST_NAME, type BackupManifest } from './manifest'

export interface RestoreOptions {
  archive: string
  /** The data home to restore into. */
  home: string
  /**
   * Asked, after the archive checked out, when the home already holds data: true replaces it (the
   * current home is moved aside, never deleted). Not asked for an empty or new home.
   */
  confirmReplace: (plan: ReplacePlan) => Promise<boolean>
  /**
   * Shown the restored settings that grant power (MCP servers, saved prefixes, read folders and hosts,
   * provider URLs, team libraries, the sync remote: see restored-settings.ts); true brings them in.
   * Absent or false: they stay held in `restore-held-settings.json`, out of config.json.
   */
  confirmSettings?: (held: readonly HeldSetting[]) => Promise<boolean>
  nativeBinding?: string
  now?: Date
}

export interface ReplacePlan {
  home: string
  /** Where the current home will be kept. */
  aside: string
  manifest: BackupManifest
}

export type RestoreResult =
  | {
      restored: true
      home: string
      aside: string | null
      manifest: BackupManifest
      schemaVersion: number | null
      /** The settings that grant power the backup held, and whether the user brought them in. */
      settings: { held: HeldSetting[]; accepted: boolean }
    }
  | { restored: false; home: string; reason: 'declined' }

/**
 * Restores a backup archive into a data home. The archive is extracted and verified in full next to
 * the home first (see {@link extractVerified}); only then is anything moved. A home that holds data
 * is replaced only when `confirmReplace` agrees and no other Cairn process is using it, and is kept
 * as `<home>.before-restore-<time>`; its `backups/` folder moves into the restored home. Opening the
 * restored database runs the migrations an older archive needs.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const archive = resolve(options.archive)
  const home = resolve(options.home)
  if (!existsSync(archive) || !statSync(archive).isFile()) throw new BackupError('backup.no_file', { archive })
  if (existsSync(home) && !statSync(home).isDirectory()) throw new BackupError('backup.home_is_file', { home })
  const hasData = existsSync(home) && readdirSync(home).length > 0
  if (hasData) refuseWhileInUse(home, options.nativeBinding)

  mkdirSync(dirname(home), { recursive: true })
  const staging = join(dirname(home), `.${basename(home)}.restore-${process.pid}-${randomBytes(4).toString('hex')}.tmp`)
  mkdirSync(staging)
  try {
    const manifest = await extractVerified(archive, staging, options.nativeBinding)
    // The archive's description of itself, not part of a home.
    rmSync(join(staging, MANIFEST_NAME))
    // Settings that grant power are held back in the copy; both questions come before anything changes.
    const { held, original } = holdRestoredSettings(staging)
    let aside: string | null = null
    if (hasData) {
      aside = freeAsideName(home, options.now ?? new Date())
      if (!(await options.confirmReplace({ home, aside, manifest }))) return { restored: false, home, reason: 'declined' }
    }
    const accepted = held.length > 0 && (await options.confirmSettings?.(held)) === true
    if (accepted) acceptHeldSettings(staging, original)
    if (hasData && aside) {
      // Asked again: the app may have been started while the user was deciding.
      refuseWhileInUse(home, options.nativeBinding)
      renameSync(home, aside)
      const backups = join(aside, 'backups')
      if (existsSync(backups)) renameSync(backups, join(staging, 'backups'))
    } else if (existsSync(home)) {
      rmdirSync(home)
    }
    renameSync(staging, home)
    return { restored: true, home, aside, manifest, schemaVersion: migrateRestored(home, options.nativeBinding), settings: { held, accepted } }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

function refuseWhileInUse(home: string, nativeBinding: string | undefined): void {
  const use = homeInUse(home, nativeBinding)
  if (use) throw new BackupError('backup.home_in_use', { use })
}

function freeAsideName(home: string, now: Date): string {
  const stamp = fileStamp(now)
  for (let counter = 0; ; counter++) {
    const candidate = `${home}.before-restore-${stamp}${counter ? `-${counter}` : ''}`
    if (!existsSync(candidate)) return candidate
  }
}

/** Opens the restored state.db once, which migrates an archive from an older Cairn to this one's schema. */
function migrateRestored(home: string, nativeBinding: string | undefined): number | null {
  const path = join(home, 'state.db')
  if (!existsSync(path)) return null
  const db = openStateDb(path, { nativeBinding })
  try {
    return db.pragma('user_version', { simple: true }) as number
  } finally {
    db.close()
  }
}

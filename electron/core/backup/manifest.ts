import type { ErrorKey, ErrorParamsByKey } from '../../../shared/error-keys'
import { KeyedError } from '../../../shared/keyed-error'
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { z } from 'zod'
import { migrations } from '../db/migrations'

/** What `manifest.json` at the top of every backup archive says about it. */
export const MANIFEST_NAME = 'manifest.json'
export const BACKUP_FORMAT = 'cairn-backup'
/** Bumped only when an older Cairn could no longer read the archive's layout. */
export const BACKUP_FORMAT_VERSION = 1

export const manifestFileSchema = z.object({
  path: z.string().min(1),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/)
})

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int().min(1),
  cairnVersion: z.string(),
  /** `PRAGMA user_version` of the archived state.db; null when the home had no database yet. */
  schemaVersion: z.number().int().min(0).nullable(),
  createdAt: z.string(),
  host: z.string(),
  files: z.array(manifestFileSchema)
})

export type BackupManifest = z.infer<typeof manifestSchema>
export type ManifestFile = z.infer<typeof manifestFileSchema>

/** The newest state.db schema this Cairn knows: an archive above it needs a newer Cairn to restore. */
export function latestSchemaVersion(): number {
  return migrations.reduce((max, migration) => Math.max(max, migration.version), 0)
}

/** Streamed, so a large attachment or database is never held in memory whole. */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/** `yyyymmdd-hhmmss` in local time, as backup file names and moved-aside homes carry it. */
export function fileStamp(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`
}

/** A backup or restore that cannot go ahead; the message says why and what to do. Nothing was changed. */
export class BackupError<K extends BackupErrorKey = BackupErrorKey> extends KeyedError<K> {
  constructor(key: K, params: ErrorParamsByKey[K]) {
    super(key, params)
    this.name = 'BackupError'
  }
}

type BackupErrorKey = Extract<ErrorKey, `backup.${string}`>

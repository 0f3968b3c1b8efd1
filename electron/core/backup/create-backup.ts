import { randomBytes } from 'node:crypto'
import { chmodSync, closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import * as tar from 'tar'
import { homePaths } from '../config/home'
import { openStateDb, type StateDb } from '../db/state-db'
import { LockTimeoutError, withLock } from '../fs/lock'
import { removeAbandonedBackupFiles } from './backup-folder'
import { listHomeFiles, STATE_DB } from './home-files'
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, BackupError, fileStamp, MANIFEST_NAME, sha256OfFile, type BackupManifest, type ManifestFile } from './manifest'

export interface CreateBackupOptions {
  home: string
  /** The archive to write; default `<folder>/cairn-<yyyymmdd-hhmmss>.tar.gz`. Never overwritten. */
  out?: string
  /** Where a backup without `out` goes; default `<home>/backups`. */
  folder?: string
  /** An open connection to the home's state.db to copy from (the app's); else one is opened read-only. */
  db?: StateDb
  /** Recorded in the manifest. */
  cairnVersion: string
  /** better-sqlite3 binary for a non-Node runtime (the Electron app). */
  nativeBinding?: string
  now?: Date
  /** After state.db and after each file, so a large home shows how far it got. */
  onProgress?: (progress: BackupProgress) => void
}

export interface BackupProgress {
  files: number
  totalFiles: number
  bytes: number
  totalBytes: number
}

export interface BackupResult {
  file: string
  /** Size of the archive. */
  bytes: number
  manifest: BackupManifest
  /** Links and special files that were left out. */
  skipped: string[]
}

const ALL_PAGES = 0x7fffffff

/** The memory files (and each project's PROJECT.md) are rewritten under a lock by every store: copied under the same lock, they are always whole. */
const LOCKED_FILES = new Set(['memories/MEMORY.md', 'memories/USER.md'])

/**
 * Writes one `.tar.gz` of the data home: a consistent copy of state.db (SQLite's online backup, so a
 * writer in another process is neither stopped nor torn; the Mem0 provider's databases the same way),
 * memories, skills, attachments, config.json
 * (secrets live in secrets.json, which stays out), and a manifest with versions and a checksum per
 * file. Everything is gathered in a staging folder and archived under a temp name renamed at the end:
 * a killed backup never leaves half an archive under the final name.
 */
export async function createBackup(options: CreateBackupOptions): Promise<BackupResult> {
  const home = resolve(options.home)
  const now = options.now ?? new Date()
  if (!existsSync(home)) throw new BackupError('backup.no_home', { home })
  const out = options.out ? resolve(options.out) : freeDefaultName(resolve(options.folder ?? join(home, 'backups')), now)
  if (existsSync(out)) throw new BackupError('backup.file_exists', { file: out })
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`
  const staging = join(dirname(out), `.${basename(out)}.${suffix}.tmp`)
  const partial = `${out}.${suffix}.partial`
  try {
    removeAbandonedBackupFiles(dirname(out))
    mkdirSync(staging, { recursive: true })
  } catch (error) {
    throw new BackupError('backup.cannot_write', { folder: dirname(out), problem: (error as Error).message })
  }
  try {
    const listed = listHomeFiles(home)
    const stateDb = homePaths(home).stateDb
    const hasDb = existsSync(stateDb)
    const dbBytes = hasDb ? statSync(stateDb).size : 0
    const progress: BackupProgress = {
      files: 0,
      totalFiles: listed.files.length + (hasDb ? 1 : 0),
      bytes: 0,
      totalBytes: listed.files.reduce((sum, file) => sum + file.size, dbBytes)
    }
    const entries: ManifestFile[] = []
    let schemaVersion: number | null = null
    if (hasDb) {
      schemaVersion = await copyDatabase(options.db ?? stateDb, join(staging, STATE_DB), options.nativeBinding)
      entries.push(await describe(staging, STATE_DB))
      progress.files++
      progress.bytes += dbBytes
      options.onProgress?.({ ...progress })
    }
    for (const file of listed.files) {
      const copied = isProviderDatabase(home, file.path) ? await copyProviderDatabase(home, staging, file.path, options.nativeBinding) : await copyFile(home, staging, file.path)
      if (copied) entries.push(await describe(staging, file.path))
      progress.files++
      progress.bytes += file.size
      options.onProgress?.({ ...progress })
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      cairnVersion: options.cairnVersion,
      schemaVersion,
      createdAt: now.toISOString(),
      host: hostname(),
      files: entries
    }
    writeFileSync(join(staging, MANIFEST_NAME), JSON.stringify(manifest, null, 2) + '\n')
    await tar.c({ gzip: true, file: partial, cwd: staging, portable: true }, [MANIFEST_NAME, ...entries.map((entry) => entry.path)])
    sealArchive(partial)
    renameSync(partial, out)
    return { file: out, bytes: statSync(out).size, manifest, skipped: listed.skipped }
  } finally {
    rmSync(staging, { recursive: true, force: true })
    rmSync(partial, { force: true })
  }
}

/** `cairn-<yyyymmdd-hhmmss>.tar.gz`: the names sort by time, which the schedule's pruning relies on. */
export function backupFileName(now: Date, counter = 0): string {
  return `cairn-${fileStamp(now)}${counter ? `-${counter}` : ''}.tar.gz`
}

/** Two backups in the same second (a scheduled one and a manual one) get `-1`, `-2`, … rather than failing. */
function freeDefaultName(folder: string, now: Date): string {
  for (let counter = 0; ; counter++) {
    const candidate = join(folder, backupFileName(now, counter))
    if (!existsSync(candidate)) return candidate
  }
}

/**
 * SQLite's online backup in one step (better-sqlite3 caps a step at 2^31-1 pages, i.e. all of them):
 * one read snapshot, so a writer in another process can neither tear it nor make it start over.
 */
async function copyDatabase(source: string | StateDb, dest: string, nativeBinding: string | undefined): Promise<number> {
  const db = typeof source === 'string' ? openStateDb(source, { readonly: true, nativeBinding }) : source
  try {
    // Migrations run only when a process opens the home, never during a backup: this is the copy's schema.
    const schemaVersion = db.pragma('user_version', { simple: true }) as number
    await db.backup(dest, { progress: () => ALL_PAGES })
    return schemaVersion
  } finally {
    if (db !== source) db.close()
  }
}

/**
 * Readable by its owner only (it holds every conversation, wherever the folder is), and on disk
 * before its rename: a crash never leaves a truncated archive under the final name.
 */
function sealArchive(path: string): void {
  chmodSync(path, 0o600)
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** False when the file went away since it was listed (deleted by the user or a store meanwhile). */
async function copyFile(home: string, staging: string, rel: string): Promise<boolean> {
  const from = join(home, rel)
  const to = join(staging, rel)
  mkdirSync(dirname(to), { recursive: true })
  const copy = (): boolean => {
    try {
      copyFileSync(from, to)
      return true
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
      throw error
    }
  }
  if (!LOCKED_FILES.has(rel) && !/^memories\/projects\/[^/]+\/PROJECT\.md$/.test(rel)) return copy()
  try {
    return await withLock(from, copy)
  } catch (error) {
    if (error instanceof LockTimeoutError) throw new BackupError('backup.file_busy', { file: rel, problem: error.message })
    throw error
  }
}

/** A SQLite database of the Mem0 provider's store (`mem0/*.db`, by its header): Mem0 may write it while the backup runs. */
function isProviderDatabase(home: string, rel: string): boolean {
  if (!rel.startsWith('mem0/')) return false
  const header = Buffer.alloc(16)
  let fd: number | null = null
  try {
    fd = openSync(join(home, rel), 'r')
    return readSync(fd, header, 0, 16, 0) === 16 && header.toString('latin1') === 'SQLite format 3\0'
  } catch {
    return false
  } finally {
    if (fd !== null) closeSync(fd)
  }
}

/** SQLite's online backup, like state.db's, so a write of the provider in flight never tears the copy. */
async function copyProviderDatabase(home: string, staging: string, rel: string, nativeBinding: string | undefined): Promise<boolean> {
  const to = join(staging, rel)
  mkdirSync(dirname(to), { recursive: true })
  const db = new Database(join(home, rel), { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) })
  try {
    await db.backup(to, { progress: () => ALL_PAGES })
    return true
  } finally {
    db.close()
  }
}

async function describe(staging: string, rel: string): Promise<ManifestFile> {
  const path = join(staging, rel)
  return { path: rel, size: statSync(path).size, sha256: await sha256OfFile(path) }
}

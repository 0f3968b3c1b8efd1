import { createReadStream, existsSync, lstatSync, readdirSync, readFileSync, statfsSync, statSync } from 'node:fs'
import { basename, join, relative, sep } from 'node:path'
import Database from 'better-sqlite3'
import * as tar from 'tar'
import { STATE_DB } from './home-files'
import { BACKUP_FORMAT_VERSION, BackupError, latestSchemaVersion, MANIFEST_NAME, manifestSchema, sha256OfFile, type BackupManifest } from './manifest'

/** How an archive member's path could land outside the folder it is extracted into, or null when it cannot. */
export function unsafeMemberPath(path: string): 'absolute' | 'climbs' | null {
  if (path.startsWith('/') || path.startsWith('\\') || /^[a-zA-Z]:/.test(path)) return 'absolute'
  if (path.split(/[\\/]+/).includes('..')) return 'climbs'
  return null
}

/**
 * Extracts a backup archive into `staging` (an empty folder) and checks it whole: only plain files and
 * folders at safe paths, a valid manifest, every file present with its size and checksum, nothing the
 * manifest does not list, and a schema this Cairn can open. Throws {@link BackupError} naming the
 * first problem; the caller removes `staging`.
 */
export async function extractVerified(archive: string, staging: string, nativeBinding?: string): Promise<BackupManifest> {
  const name = basename(archive)
  let problem: BackupError | null = null
  const limits = restoreLimits(archive, staging)
  let members = 0
  let total = 0
  const check = (entry: { path: string; type: string; size?: number }) => {
    if (problem) return
    members++
    total += entry.size ?? 0
    problem = limitProblem(name, members, total, limits)
    if (problem) return
    const unsafe = unsafeMemberPath(entry.path)
    if (unsafe) problem = new BackupError(unsafe === 'absolute' ? 'backup.member_absolute' : 'backup.member_climbs', { name, path: entry.path })
    else if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'Directory') {
      problem = new BackupError('backup.member_not_plain', { name, path: entry.path, type: entry.type })
    }
  }
  await readArchive(name, () => listArchive(archive, (entry) => (check(entry), problem !== null)))
  if (problem) throw problem
  // The listing passed; the filter refuses the same members again in case the file changed in between.
  await readArchive(name, () =>
    tar.x({
      file: archive,
      cwd: staging,
      strict: true,
      filter: (path, entry) => unsafeMemberPath(path) === null && 'type' in entry && (entry.type === 'File' || entry.type === 'OldFile' || entry.type === 'Directory')
    })
  )
  const manifest = readManifest(name, staging)
  if (manifest.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupError('backup.newer_format', { name, version: manifest.cairnVersion })
  }
  checkSchema(name, manifest)
  await checkFiles(name, staging, manifest)
  if (manifest.schemaVersion !== null) {
    const onDisk = schemaOf(join(staging, STATE_DB), nativeBinding)
    if (onDisk !== manifest.schemaVersion) throw new BackupError('backup.schema_mismatch', { name, onDisk: String(onDisk), manifest: String(manifest.schemaVersion) })
  }
  return manifest
}

/** A home has thousands of files, not millions: past this many members an archive is refused. */
export const MAX_RESTORE_MEMBERS = 200_000
/** Past this size, an archive expanding more than {@link MAX_EXPANSION} times is refused (a real home does not). */
const EXPANSION_CHECKED_FROM = 256 * 1024 * 1024
export const MAX_EXPANSION = 200
/** Room left free on the disk after a restore. */
const FREE_SPACE_KEPT = 512 * 1024 * 1024

interface RestoreLimits {
  archiveBytes: number
  /** Bytes the restore may write: the disk's free space, less what is kept free. */
  room: number
}

function restoreLimits(archive: string, staging: string): RestoreLimits {
  const archiveBytes = statSync(archive).size
  let room = Number.POSITIVE_INFINITY
  try {
    const disk = statfsSync(staging)
    room = Math.max(0, disk.bavail * disk.bsize - FREE_SPACE_KEPT)
  } catch {
    // No figure for this disk: the size and expansion limits still hold.
  }
  return { archiveBytes, room }
}

function limitProblem(name: string, members: number, total: number, limits: RestoreLimits): BackupError | null {
  if (members > MAX_RESTORE_MEMBERS) return new BackupError('backup.too_many_members', { name, limit: MAX_RESTORE_MEMBERS.toLocaleString('en') })
  if (total > EXPANSION_CHECKED_FROM && total > limits.archiveBytes * MAX_EXPANSION) {
    return new BackupError('backup.expands_too_far', { name, archiveSize: mib(limits.archiveBytes), expandedSize: mib(total), times: MAX_EXPANSION })
  }
  if (total > limits.room) return new BackupError('backup.no_room', { name, size: mib(total), free: mib(limits.room + FREE_SPACE_KEPT) })
  return null
}

function mib(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`
}

/**
 * Reads the archive's headers one by one (bodies are skipped, not kept), and stops reading as soon as
 * `stop` says so: a member past a limit ends the listing there, whatever follows.
 */
function listArchive(archive: string, stop: (entry: tar.ReadEntry) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const input = createReadStream(archive)
    let done = false
    const finish = (error?: Error) => {
      if (done) return
      done = true
      input.destroy()
      if (error) reject(error)
      else resolve()
    }
    const parser = new tar.Parser({
      strict: true,
      onReadEntry: (entry) => {
        if (done) return entry.resume()
        if (stop(entry)) finish()
        entry.resume()
      }
    })
    parser.on('error', (error: Error) => finish(error))
    parser.on('end', () => finish())
    input.on('error', (error) => finish(error))
    input.pipe(parser)
  })
}

async function readArchive(name: string, read: () => Promise<void>): Promise<void> {
  try {
    await read()
  } catch (error) {
    if (error instanceof BackupError) throw error
    throw new BackupError('backup.unreadable', { name, problem: (error as Error).message })
  }
}

function readManifest(name: string, staging: string): BackupManifest {
  const path = join(staging, MANIFEST_NAME)
  if (!existsSync(path)) throw new BackupError('backup.no_manifest', { name, manifest: MANIFEST_NAME })
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    throw new BackupError('backup.manifest_not_json', { name, manifest: MANIFEST_NAME })
  }
  const parsed = manifestSchema.safeParse(raw)
  if (!parsed.success) throw new BackupError('backup.manifest_invalid', { name, manifest: MANIFEST_NAME })
  return parsed.data
}

function checkSchema(name: string, manifest: BackupManifest): void {
  const latest = latestSchemaVersion()
  if (manifest.schemaVersion !== null && manifest.schemaVersion > latest) {
    throw new BackupError('backup.newer_schema', { name, version: manifest.cairnVersion, schema: manifest.schemaVersion, latest })
  }
}

async function checkFiles(name: string, staging: string, manifest: BackupManifest): Promise<void> {
  const listed = new Set<string>([MANIFEST_NAME])
  for (const file of manifest.files) {
    const unsafe = unsafeMemberPath(file.path)
    if (unsafe) throw new BackupError(unsafe === 'absolute' ? 'backup.listed_absolute' : 'backup.listed_climbs', { name, path: file.path })
    listed.add(file.path)
    const path = join(staging, file.path)
    if (!existsSync(path)) throw new BackupError('backup.incomplete', { name, path: file.path })
    if (lstatSync(path).size !== file.size || (await sha256OfFile(path)) !== file.sha256) {
      throw new BackupError('backup.checksum', { name, path: file.path })
    }
  }
  const extra = filesUnder(staging).find((rel) => !listed.has(rel))
  if (extra) throw new BackupError('backup.unlisted', { name, extra })
}

function filesUnder(root: string): string[] {
  const found: string[] = []
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) visit(path)
      else found.push(relative(root, path).split(sep).join('/'))
    }
  }
  visit(root)
  return found
}

function schemaOf(path: string, nativeBinding: string | undefined): number {
  const db = new Database(path, { readonly: true, fileMustExist: true, nativeBinding })
  try {
    return db.pragma('user_version', { simple: true }) as number
  } finally {
    db.close()
  }
}

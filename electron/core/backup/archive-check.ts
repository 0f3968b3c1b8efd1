import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs'
import { basename, join, relative, sep } from 'node:path'
import Database from 'better-sqlite3'
import * as tar from 'tar'
import { STATE_DB } from './home-files'
import { BACKUP_FORMAT_VERSION, BackupError, latestSchemaVersion, MANIFEST_NAME, manifestSchema, sha256OfFile, type BackupManifest } from './manifest'

/** Why an archive member's path could land outside the folder it is extracted into, or null when it cannot. */
export function unsafeMemberPath(path: string): string | null {
  if (path.startsWith('/') || path.startsWith('\\') || /^[a-zA-Z]:/.test(path)) return 'an absolute path'
  if (path.split(/[\\/]+/).includes('..')) return 'a path that climbs out with ".."'
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
  let problem: string | null = null
  const check = (entry: { path: string; type: string }) => {
    if (problem) return
    const unsafe = unsafeMemberPath(entry.path)
    if (unsafe) problem = `${name} holds ${entry.path}, ${unsafe}; it is refused (nothing was restored).`
    else if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'Directory') {
      problem = `${name} holds ${entry.path}, a ${entry.type} rather than a plain file; it is refused (nothing was restored).`
    }
  }
  await readArchive(name, () => tar.t({ file: archive, strict: true, onReadEntry: check }))
  if (problem) throw new BackupError(problem)
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
    throw new BackupError(`${name} was made by a newer Cairn (${manifest.cairnVersion}) in a format this Cairn cannot read. Upgrade Cairn first, then restore it.`)
  }
  checkSchema(name, manifest)
  await checkFiles(name, staging, manifest)
  if (manifest.schemaVersion !== null) {
    const onDisk = schemaOf(join(staging, STATE_DB), nativeBinding)
    if (onDisk !== manifest.schemaVersion) throw new BackupError(`${name} was changed or damaged: its state.db has schema ${onDisk}, its manifest says ${manifest.schemaVersion}.`)
  }
  return manifest
}

async function readArchive(name: string, read: () => Promise<void>): Promise<void> {
  try {
    await read()
  } catch (error) {
    if (error instanceof BackupError) throw error
    throw new BackupError(`${name} is damaged or cut short and cannot be read (${(error as Error).message}); nothing was restored.`)
  }
}

function readManifest(name: string, staging: string): BackupManifest {
  const path = join(staging, MANIFEST_NAME)
  if (!existsSync(path)) throw new BackupError(`${name} is not a Cairn backup: it has no ${MANIFEST_NAME}.`)
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    throw new BackupError(`${name} has a damaged ${MANIFEST_NAME} (it is not valid JSON); nothing was restored.`)
  }
  const parsed = manifestSchema.safeParse(raw)
  if (!parsed.success) throw new BackupError(`${name} is not a Cairn backup this Cairn can read: its ${MANIFEST_NAME} is not in the expected form.`)
  return parsed.data
}

function checkSchema(name: string, manifest: BackupManifest): void {
  const latest = latestSchemaVersion()
  if (manifest.schemaVersion !== null && manifest.schemaVersion > latest) {
    throw new BackupError(
      `${name} was made by a newer Cairn (${manifest.cairnVersion}, database schema ${manifest.schemaVersion}); this Cairn knows schema ${latest} at most. ` +
        'Upgrade Cairn first, then restore it. Nothing was changed.'
    )
  }
}

async function checkFiles(name: string, staging: string, manifest: BackupManifest): Promise<void> {
  const listed = new Set<string>([MANIFEST_NAME])
  for (const file of manifest.files) {
    const unsafe = unsafeMemberPath(file.path)
    if (unsafe) throw new BackupError(`${name} lists ${file.path}, ${unsafe}; it is refused (nothing was restored).`)
    listed.add(file.path)
    const path = join(staging, file.path)
    if (!existsSync(path)) throw new BackupError(`${name} is incomplete: ${file.path} is in its manifest but not in the archive; nothing was restored.`)
    if (lstatSync(path).size !== file.size || (await sha256OfFile(path)) !== file.sha256) {
      throw new BackupError(`${name} was changed or damaged: ${file.path} does not match its checksum; nothing was restored.`)
    }
  }
  const extra = filesUnder(staging).find((rel) => !listed.has(rel))
  if (extra) throw new BackupError(`${name} was changed: it holds ${extra}, which its manifest does not list; nothing was restored.`)
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

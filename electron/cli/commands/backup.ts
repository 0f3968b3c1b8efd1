import { BackupError, createBackup, type BackupProgress } from '../../core/backup'
import { parseCommandArgs } from '../args'
import { CliFailure, printJson, type CliIO } from '../io'
import { keyedFailure } from '../worded-failure'
import { appVersion } from './serve'
import type { CliCommand } from './types'

/** Below this a backup takes a moment and needs no progress lines. */
const PROGRESS_MIN_BYTES = 32 * 1024 * 1024

export const backupCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] backup [--out FILE] [--json]

Writes one .tar.gz of the data home: a consistent copy of state.db (made with SQLite's online backup,
so it is safe while the app or a review is writing), memories, skills (archived ones too),
attachments and config.json, plus manifest.json with Cairn's version, the database schema and a
checksum per file. secrets.json (API keys, MCP secrets) is never included; config.json holds only
references to them. Locks, temp files, caches, logs and cli-history are left out.

--out FILE   where to write it (default <home>/backups/cairn-<yyyymmdd-hhmmss>.tar.gz); an existing
             file is never overwritten
--json       print the archive's path, size and manifest as JSON

Restore it with "cairn restore FILE".
`,
  async run(ctx, args) {
    const { values, positionals } = parseCommandArgs(args, { out: { type: 'string' }, json: { type: 'boolean' } })
    if (positionals.length) throw new CliFailure(`backup takes no arguments (got "${positionals[0]}"); use --out FILE to name the archive.`)
    let result
    try {
      result = await createBackup({ home: ctx.home, out: values.out, cairnVersion: appVersion(), onProgress: progressPrinter(ctx.io) })
    } catch (error) {
      if (error instanceof BackupError) throw keyedFailure(error)
      throw error
    }
    if (values.json) {
      printJson(ctx.io, result)
      return 0
    }
    const { manifest } = result
    ctx.io.out(`Backed up ${ctx.home}\n  to ${result.file} (${formatBytes(result.bytes)}, ${manifest.files.length} files, database schema ${manifest.schemaVersion ?? 'none'})\n`)
    if (result.skipped.length) ctx.io.out(`  left out (links and special files are never backed up): ${result.skipped.join(', ')}\n`)
    ctx.io.out(`Restore it with: cairn restore ${result.file}\n`)
    return 0
  }
}

/** One stderr line per tenth of the bytes, only for a home big enough to wait on. */
function progressPrinter(io: CliIO): (progress: BackupProgress) => void {
  let shownTenths = 0
  return (progress) => {
    if (progress.totalBytes < PROGRESS_MIN_BYTES) return
    const tenths = Math.floor((progress.bytes / progress.totalBytes) * 10)
    if (tenths <= shownTenths && progress.files < progress.totalFiles) return
    shownTenths = tenths
    io.err(`backing up: ${progress.files}/${progress.totalFiles} files, ${formatBytes(progress.bytes)} of ${formatBytes(progress.totalBytes)}\n`)
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`
}

import { getLoadablePath } from 'sqlite-vec'
import type { StateDb } from '../db/state-db'

/**
 * Whether this connection can hold and search vectors, and if not, why: `code` for the faces to word,
 * `detail` the loader's own message, `reason` the whole thing in English for logs and the CLI.
 */
export type VectorSupport =
  | { available: true; version: string }
  | { available: false; code: 'unsupported_platform' | 'load_failed'; detail: string; reason: string }

const loaded = new WeakMap<StateDb, VectorSupport>()

/**
 * Loads sqlite-vec into `db` once (later calls answer from memory). The extension is a native file
 * from the per-platform package (`sqlite-vec-linux-x64/vec0.so`, …): SQLite opens it with the
 * system's dlopen, which cannot read inside app.asar, so the packaged app ships it unpacked
 * (electron-builder.yml `asarUnpack`) and the path is redirected to `app.asar.unpacked`. An
 * unsupported platform or a missing package leaves semantic search unavailable, with the reason;
 * keyword search never depends on it.
 */
export function loadVectorExtension(db: StateDb, extensionPath?: string): VectorSupport {
  const known = loaded.get(db)
  if (known) return known
  let support: VectorSupport
  try {
    const path = unpackedPath(extensionPath ?? getLoadablePath())
    db.loadExtension(path)
    support = { available: true, version: db.prepare('SELECT vec_version()').pluck().get() as string }
  } catch (error) {
    const detail = (error as Error).message
    support = {
      available: false,
      code: detail.startsWith('Unsupported platform') ? 'unsupported_platform' : 'load_failed',
      detail,
      reason: `Search by meaning is unavailable on this system: the sqlite-vec extension could not be loaded (${detail}).`
    }
  }
  loaded.set(db, support)
  return support
}

/** The same file outside the asar archive (a no-op outside a packaged app). */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2')
}

import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Which better-sqlite3 binary main (and the review worker) load. `node_modules/better-sqlite3` holds
 * the Node build the tests need; `npm start`'s prestart step (scripts/electron-native.mjs) builds a
 * second copy for Electron's ABI into the folder below. A packaged app needs neither: electron-builder
 * rebuilt node_modules for Electron, so the default binding is right there.
 * The folder layout is repeated in scripts/electron-native.mjs (a test checks they agree).
 */
export function electronNativeDir(projectRoot: string, electronVersion: string, platform: string = process.platform, arch: string = process.arch): string {
  return join(projectRoot, 'node_modules', '.cache', 'cairn-electron-native', `electron-${electronVersion}-${platform}-${arch}`)
}

export function electronNativeBinary(nativeDir: string): string {
  return join(nativeDir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node')
}

export interface NativeFacts {
  packaged: boolean
  /** The project root in development (`app.getAppPath()`). */
  appPath: string
  /** `process.versions.electron`; undefined under plain Node (the smoke test), where the default build is right. */
  electronVersion: string | undefined
  env: NodeJS.ProcessEnv
  platform?: string
  arch?: string
}

/** `path` undefined = better-sqlite3's default binding. */
export type NativeBinding = { ok: true; path: string | undefined } | { ok: false; message: string }

export function resolveNativeBinding(facts: NativeFacts): NativeBinding {
  if (facts.packaged) return { ok: true, path: undefined }
  const override = facts.env.CAIRN_SQLITE_BINDING?.trim()
  if (override) {
    if (existsSync(override)) return { ok: true, path: override }
    return { ok: false, message: `CAIRN_SQLITE_BINDING points to ${override}, which does not exist. Unset it or point it to a better_sqlite3.node built for this Electron.` }
  }
  if (!facts.electronVersion) return { ok: true, path: undefined }
  const binary = electronNativeBinary(electronNativeDir(facts.appPath, facts.electronVersion, facts.platform, facts.arch))
  if (existsSync(binary)) return { ok: true, path: binary }
  return {
    ok: false,
    message:
      `The SQLite module for Electron ${facts.electronVersion} is not built yet (${binary} is missing). ` +
      'Start Cairn with "npm start" (its prestart step builds it) or run "node scripts/electron-native.mjs", then try again.'
  }
}

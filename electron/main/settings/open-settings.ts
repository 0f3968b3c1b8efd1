import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Store from 'electron-store'
import { ConfigStore } from '../../core/config/config-store'
import { ShellStore, shellStoreOptions } from './shell-store'

/**
 * The app's settings: the core's ConfigStore on `<home>/config.json`, the one owner of that file in
 * the app, the CLI and the review worker alike. On a first start the file is created empty, so there
 * is one to edit; otherwise it is read once here, so a malformed file stops the start with a
 * ConfigError naming it (never a reset). Close it when the app stops (it may be watching).
 */
export function openSettings(home: string): ConfigStore {
  const settings = new ConfigStore(join(home, 'config.json'))
  mkdirSync(home, { recursive: true })
  try {
    // `wx`: only if there is none, so a file a CLI writes at the same moment is never replaced.
    writeFileSync(settings.path, '{}\n', { flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  settings.get()
  return settings
}

/** The shell's own state (the main window's place) in electron-store, in Electron's userData folder. */
export function openShellStore(userData: string): ShellStore {
  return new ShellStore(new Store<Record<string, unknown>>({ cwd: userData, ...shellStoreOptions }))
}

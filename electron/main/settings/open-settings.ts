import { join } from 'node:path'
import Store from 'electron-store'
import { ElectronSettings, settingsFileFormat, settingsReadError } from './electron-settings'

/**
 * Opens electron-store on `<home>/config.json` (the CLI's file too). `watch` picks up edits made by
 * other processes; `clearInvalidConfig: false` so a malformed file is reported, never reset.
 * Throws the core's ConfigError, naming the file, when it cannot be used.
 */
export function openElectronSettings(home: string): ElectronSettings {
  const path = join(home, 'config.json')
  let store: Store<Record<string, unknown>>
  try {
    store = new Store<Record<string, unknown>>({
      cwd: home,
      name: 'config',
      watch: true,
      clearInvalidConfig: false,
      ...settingsFileFormat
    })
  } catch (error) {
    throw settingsReadError(error, path)
  }
  try {
    return new ElectronSettings(store)
  } catch (error) {
    store._closeWatcher()
    throw settingsReadError(error, path)
  }
}

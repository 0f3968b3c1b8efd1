import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import Conf from 'conf'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, ConfigStore } from '../../electron/core/config/config-store'
import { ElectronSettings, settingsFileFormat, settingsReadError } from '../../electron/main/settings/electron-settings'
import { until } from '../helpers/review-fixture'

const open: ElectronSettings[] = []
const dirs: string[] = []

function home(config?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-'))
  dirs.push(dir)
  if (config !== undefined) writeFileSync(join(dir, 'config.json'), config)
  return dir
}

/** electron-store minus Electron: its base class `conf`, with the options the app passes. */
function settingsOn(dir: string): ElectronSettings {
  let store: Conf<Record<string, unknown>>
  try {
    store = new Conf<Record<string, unknown>>({ cwd: dir, configName: 'config', watch: true, clearInvalidConfig: false, ...settingsFileFormat })
  } catch (error) {
    throw settingsReadError(error, join(dir, 'config.json'))
  }
  const settings = new ElectronSettings(store)
  open.push(settings)
  return settings
}

afterEach(() => {
  for (const settings of open.splice(0)) settings.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('app settings over config.json', () => {
  it('reads defaults from an empty home and writes updates in the CLI’s format, keeping unknown keys', async () => {
    const dir = home(JSON.stringify({ ui: { theme: 'dark', laterKey: 'kept' }, laterSection: { a: 1 } }))
    const settings = settingsOn(dir)
    expect(settings.get().learning.enabled).toBe(true)
    expect(settings.get().ui.theme).toBe('dark')
    const updated = await settings.update({ learning: { enabled: false } })
    expect(updated.learning.enabled).toBe(false)
    const text = readFileSync(join(dir, 'config.json'), 'utf8')
    expect(text).toBe(JSON.stringify({ ui: { theme: 'dark', laterKey: 'kept' }, laterSection: { a: 1 }, learning: { enabled: false } }, null, 2) + '\n')
    expect(new ConfigStore(join(dir, 'config.json')).get().learning.enabled).toBe(false)
  })

  it('refuses a malformed file at start with a message naming it, and never rewrites it', () => {
    for (const [content, expected] of [
      ['{ "ui": ', 'is not valid JSON'],
      ['[1, 2]', 'must hold a JSON object'],
      [JSON.stringify({ ui: { theme: 'purple' } }), 'ui.theme']
    ]) {
      const dir = home(content)
      expect(() => settingsOn(dir)).toThrow(ConfigError)
      expect(() => settingsOn(dir)).toThrow(join(dir, 'config.json'))
      expect(() => settingsOn(dir)).toThrow(expected)
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(content)
    }
  })

  it('rejects an update that would make the settings invalid and leaves the file alone', async () => {
    const dir = home('{"ui":{"theme":"dark"}}')
    const settings = settingsOn(dir)
    await expect(settings.update({ ui: { theme: 'neon' as never } })).rejects.toThrow('ui.theme')
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{"ui":{"theme":"dark"}}')
  })

  it('sees a CLI change at once, and tells listeners about it (not about its own writes)', async () => {
    const dir = home('{}')
    const settings = settingsOn(dir)
    const heard: string[] = []
    settings.onChange((config) => heard.push(config.ui.theme))
    await settings.update({ ui: { theme: 'dark' } })
    await new ConfigStore(join(dir, 'config.json')).update({ ui: { theme: 'light' } })
    expect(settings.get().ui.theme).toBe('light')
    await until(() => heard.includes('light'), 'the watcher to report the CLI change', 20_000)
    expect(heard).toEqual(['light'])
  })

  it('keeps the last good settings when the file breaks while running, reports it once, and will not overwrite it', async () => {
    const dir = home('{"ui":{"theme":"dark"}}')
    const settings = settingsOn(dir)
    const problems: string[] = []
    settings.onProblem((message) => problems.push(message))
    writeFileSync(join(dir, 'config.json'), '{"ui": {"theme": ')
    expect(settings.get().ui.theme).toBe('dark')
    expect(settings.get().ui.theme).toBe('dark')
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain('is not valid JSON')
    await expect(settings.update({ ui: { theme: 'light' } })).rejects.toThrow(ConfigError)
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{"ui": {"theme": ')
    writeFileSync(join(dir, 'config.json'), '{"ui":{"theme":"light"}}')
    expect(settings.get().ui.theme).toBe('light')
  })

  it('loses no update when the app and a CLI process write at the same time (shared lock)', async () => {
    const dir = home('{}')
    const settings = settingsOn(dir)
    const file = join(dir, 'config.json')
    const count = 150
    const cli = promisify(execFile)(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'cli-config-writer.ts'), file, String(count)], { cwd: join(__dirname, '..', '..') })
    // Start once the CLI is writing, so the two really overlap.
    await until(() => readFileSync(file, 'utf8').includes('"cli"'), 'the CLI process to start writing')
    for (let i = 0; i < count; i++) await settings.update({ app: { [`k${i}`]: i } } as never)
    await cli
    const written = JSON.parse(readFileSync(file, 'utf8'))
    expect(Object.keys(written.app)).toHaveLength(count)
    expect(Object.keys(written.cli)).toHaveLength(count)
  })
})

import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CairnConfig } from '../../../shared/config'
import { ConfigError, ConfigStore } from '../../../electron/core/config/config-store'
import { ensureHome, expandTilde, resolveHome } from '../../../electron/core/config/home'
import { until } from '../../helpers/review-fixture'

let home: string
let path: string
const watching: ConfigStore[] = []

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-config-'))
  path = join(home, 'config.json')
})

afterEach(() => {
  for (const store of watching.splice(0)) store.close()
  rmSync(home, { recursive: true, force: true })
})

/** A store the test listens to (closed after the test). */
function watchedStore(): ConfigStore {
  const store = new ConfigStore(path)
  watching.push(store)
  return store
}

/** The next settings the store announces as changed by someone else. */
function nextChange(store: ConfigStore): Promise<CairnConfig> {
  return new Promise((resolve) => {
    const stop = store.onChange((config) => {
      stop()
      resolve(config)
    })
  })
}

/** The next problem the store reports. */
function nextProblem(store: ConfigStore): Promise<string> {
  return new Promise((resolve) => {
    const stop = store.onProblem((message) => {
      stop()
      resolve(message)
    })
  })
}

describe('data home', () => {
  it('prefers --home, then CAIRN_HOME, then ~/.cairn', () => {
    expect(resolveHome('/tmp/explicit', { CAIRN_HOME: '/tmp/env' })).toBe('/tmp/explicit')
    expect(resolveHome(null, { CAIRN_HOME: '/tmp/env' })).toBe('/tmp/env')
    expect(resolveHome(null, {})).toBe(expandTilde('~/.cairn'))
  })

  it('creates the documented layout', () => {
    const paths = ensureHome(join(home, 'h'))
    expect(paths.memoryFile).toBe(join(home, 'h', 'memories', 'MEMORY.md'))
    expect(paths.userFile).toBe(join(home, 'h', 'memories', 'USER.md'))
    expect(paths.skillsDir).toBe(join(home, 'h', 'skills'))
    expect(paths.stateDb).toBe(join(home, 'h', 'state.db'))
    expect(paths.configFile).toBe(join(home, 'h', 'config.json'))
  })
})

describe('config.json', () => {
  it('applies defaults when the file is missing', () => {
    const config = new ConfigStore(path).get()
    expect(config.memory).toMatchObject({ memoryCharLimit: 2200, userCharLimit: 1375, enabled: true, userProfileEnabled: true })
  })

  it('applies defaults to sections the file leaves out', () => {
    writeFileSync(path, JSON.stringify({ memory: { memoryCharLimit: 5000 } }))
    const config = new ConfigStore(path).get()
    expect(config.memory.memoryCharLimit).toBe(5000)
    expect(config.memory.userCharLimit).toBe(1375)
    expect(config.learning.memoryNudgeInterval).toBe(10)
  })

  it('preserves keys it does not know when updating', async () => {
    writeFileSync(path, JSON.stringify({ futureFeature: { on: true }, memory: { experimental: 'x' } }))
    const store = new ConfigStore(path)
    await store.update({ memory: { userCharLimit: 2000 } })
    const onDisk = JSON.parse(readFileSync(path, 'utf8'))
    expect(onDisk).toEqual({ futureFeature: { on: true }, memory: { experimental: 'x', userCharLimit: 2000 } })
    expect(store.get().memory.userCharLimit).toBe(2000)
  })

  it('writes updates as 2-space JSON, keeping the keys and order already there', async () => {
    writeFileSync(path, JSON.stringify({ ui: { theme: 'dark', laterKey: 'kept' }, laterSection: { a: 1 } }))
    await new ConfigStore(path).update({ learning: { enabled: false } })
    const expected = { ui: { theme: 'dark', laterKey: 'kept' }, laterSection: { a: 1 }, learning: { enabled: false } }
    expect(readFileSync(path, 'utf8')).toBe(JSON.stringify(expected, null, 2) + '\n')
  })

  it('refuses a malformed file with a message naming the file and the problem, and never rewrites it', () => {
    for (const [content, expected] of [
      ['{ "ui": ', 'is not valid JSON'],
      ['[1, 2]', 'must hold a JSON object'],
      [JSON.stringify({ ui: { theme: 'purple' } }), 'ui.theme']
    ]) {
      writeFileSync(path, content)
      const store = new ConfigStore(path)
      expect(() => store.get()).toThrow(ConfigError)
      expect(() => store.get()).toThrow(path)
      expect(() => store.get()).toThrow(expected)
      expect(readFileSync(path, 'utf8')).toBe(content)
    }
  })

  it('reports malformed JSON clearly and leaves the file untouched', async () => {
    writeFileSync(path, '{ "memory": { "memoryCharLimit": 2200, }')
    const store = new ConfigStore(path)
    expect(() => store.get()).toThrow(ConfigError)
    expect(() => store.get()).toThrow(/not valid JSON.*has not changed it/s)
    await expect(store.update({ memory: { enabled: false } })).rejects.toThrow(ConfigError)
    expect(readFileSync(path, 'utf8')).toBe('{ "memory": { "memoryCharLimit": 2200, }')
  })

  it('names the offending setting when a value has the wrong type', () => {
    writeFileSync(path, JSON.stringify({ memory: { memoryCharLimit: 'lots' } }))
    expect(() => new ConfigStore(path).get()).toThrow(/memory\.memoryCharLimit/)
  })

  it('refuses an update that would make the settings invalid, keeping the old file', async () => {
    writeFileSync(path, JSON.stringify({ memory: { memoryCharLimit: 3000 } }))
    const store = new ConfigStore(path)
    await expect(store.update({ memory: { memoryCharLimit: -5 } })).rejects.toThrow(/memoryCharLimit/)
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ memory: { memoryCharLimit: 3000 } })
  })
})

describe('edits from another process', () => {
  it('are picked up by a running store, and a malformed one keeps the last good settings', async () => {
    writeFileSync(path, JSON.stringify({ learning: { memoryNudgeInterval: 4 } }))
    const store = new ConfigStore(path)
    expect(store.get().learning.memoryNudgeInterval).toBe(4)
    // Another process (the app, a CLI) rewrites the file.
    await new ConfigStore(path).update({ learning: { memoryNudgeInterval: 7 } })
    expect(store.get().learning.memoryNudgeInterval).toBe(7)
    writeFileSync(path, '{ "learning": ')
    expect(store.get().learning.memoryNudgeInterval).toBe(7)
    expect(store.problem).toMatch(/not valid JSON/)
    expect(readFileSync(path, 'utf8')).toBe('{ "learning": ')
  })
})

describe('watching for outside edits', () => {
  it('tells listeners about a change another process made, not about its own writes', async () => {
    writeFileSync(path, '{}')
    const store = watchedStore()
    const heard: string[] = []
    store.onChange((config) => heard.push(config.ui.theme))
    // A second store watching the same file hears the write as an outside edit. Both settle on the same
    // file events, the writing store first (it started watching first), so once the second has heard,
    // the writing store has had its chance to announce its own write, and must not have.
    const other = watchedStore()
    const otherHeard = nextChange(other)
    await store.update({ ui: { theme: 'dark' } })
    expect((await otherHeard).ui.theme).toBe('dark')
    expect(heard).toEqual([])

    const change = nextChange(store)
    await new ConfigStore(path).update({ ui: { theme: 'light' } })
    expect((await change).ui.theme).toBe('light')
    expect(heard).toEqual(['light'])
  })

  it('keeps the last good settings when an edit breaks the file, reports it once, and will not overwrite it', async () => {
    writeFileSync(path, '{"ui":{"theme":"dark"}}')
    const store = watchedStore()
    const problems: string[] = []
    store.onProblem((message) => problems.push(message))
    const problem = nextProblem(store)
    writeFileSync(path, '{"ui": {"theme": ')
    expect(await problem).toContain('is not valid JSON')
    expect(store.get().ui.theme).toBe('dark')
    expect(store.get().ui.theme).toBe('dark')
    expect(problems).toHaveLength(1)
    await expect(store.update({ ui: { theme: 'light' } })).rejects.toThrow(ConfigError)
    expect(readFileSync(path, 'utf8')).toBe('{"ui": {"theme": ')

    const fixed = nextChange(store)
    writeFileSync(path, '{"ui":{"theme":"light"}}')
    expect((await fixed).ui.theme).toBe('light')
    expect(store.problem).toBeNull()
    expect(problems).toHaveLength(1)
  })

  it('stops watching on close', async () => {
    const store = watchedStore()
    const heard: string[] = []
    store.onChange((config) => heard.push(config.ui.theme))
    store.close()
    // A second, still-watching store hears the edit; by then the closed one would have too.
    const witness = watchedStore()
    const change = nextChange(witness)
    await new ConfigStore(path).update({ ui: { theme: 'light' } })
    await change
    expect(heard).toEqual([])
  })

  it('loses no update when two processes write at the same time (shared lock)', async () => {
    writeFileSync(path, '{}')
    const store = new ConfigStore(path)
    const count = 150
    const cli = promisify(execFile)(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'cli-config-writer.ts'), path, String(count)], {
      cwd: join(__dirname, '..', '..', '..')
    })
    // Start once the other process is writing, so the two really overlap.
    await until(() => readFileSync(path, 'utf8').includes('"cli"'), 'the other process to start writing')
    for (let i = 0; i < count; i++) await store.update({ app: { [`k${i}`]: i } } as never)
    await cli
    const written = JSON.parse(readFileSync(path, 'utf8'))
    expect(Object.keys(written.app)).toHaveLength(count)
    expect(Object.keys(written.cli)).toHaveLength(count)
  })
})

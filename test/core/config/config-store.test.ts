import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { ConfigError, ConfigStore } from '../../../electron/core/config/config-store'
import { ensureHome, expandTilde, resolveHome } from '../../../electron/core/config/home'

let home: string
let path: string

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-config-'))
  path = join(home, 'config.json')
})

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

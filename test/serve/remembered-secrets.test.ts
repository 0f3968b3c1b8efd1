import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listHomeFiles } from '../../electron/core/backup/home-files'
import { isSyncedPath } from '../../electron/core/sync/synced-paths'
import { ProcessSecretStore, secretEnvNames } from '../../electron/serve/process-secrets'
import { REMEMBERED_SECRETS_FILE, rememberedSecretsPath, withRememberedSecrets } from '../../electron/serve/remembered-secrets'

let home: string
let file: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-remembered-'))
  file = rememberedSecretsPath(home)
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

describe('browser mode: "Remember on this computer"', () => {
  it('keeps a typed key only in this process until asked to remember it', async () => {
    const store = new ProcessSecretStore({}, file)
    await store.setApiKey('sk-typed-1234')
    expect(store.storage()).toBe('memory')
    expect(store.remembering()).toEqual({ remember: false, file })
    expect(existsSync(file)).toBe(false)
    expect(new ProcessSecretStore({}, file).getApiKey()).toBeNull()
  })

  it('remembers every key and secret in a file only the user may read, and a restarted store reads them back', async () => {
    const store = new ProcessSecretStore({}, file)
    await store.setApiKey('sk-typed-1234')
    await store.setSecret('sync.token', 'tok-sync')
    await store.setRemembering(true)
    await store.setApiKey('sk-embed-5678', 'embedding')
    await store.setSecret('mcp.github.env.TOKEN', 'gh-token')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(store.storage()).toBe('file')

    const restarted = new ProcessSecretStore({}, file)
    expect(restarted.remembering()).toEqual({ remember: true, file })
    expect(restarted.getApiKey()).toBe('sk-typed-1234')
    expect(restarted.getApiKey('embedding')).toBe('sk-embed-5678')
    expect(restarted.getSecret('sync.token')).toBe('tok-sync')
    expect(restarted.getSecret('mcp.github.env.TOKEN')).toBe('gh-token')
    expect(restarted.storage()).toBe('file')

    // Removing a key removes it from the file too.
    await restarted.setApiKey(null, 'embedding')
    expect(new ProcessSecretStore({}, file).getApiKey('embedding')).toBeNull()
  })

  it('precedence: typed in this process, then the environment, then the remembered file', async () => {
    writeFileSync(file, JSON.stringify({ apiKeys: { chat: 'sk-remembered' }, secrets: { 'sync.token': 'tok-remembered' } }), { mode: 0o600 })
    const fromFile = new ProcessSecretStore({}, file)
    expect(fromFile.getApiKey()).toBe('sk-remembered')
    const envFirst = new ProcessSecretStore({ CAIRN_API_KEY: 'sk-env', CAIRN_SYNC_TOKEN: 'tok-env' }, file)
    expect(envFirst.getApiKey()).toBe('sk-env')
    expect(envFirst.storage()).toBe('env')
    expect(envFirst.getSecret('sync.token')).toBe('tok-env')
    await envFirst.setApiKey('sk-typed')
    expect(envFirst.getApiKey()).toBe('sk-typed')
  })

  it('turning it off deletes the file; what it held lasts until the process stops', async () => {
    const store = new ProcessSecretStore({}, file)
    await store.setRemembering(true)
    await store.setApiKey('sk-typed-1234')
    await store.setRemembering(false)
    expect(existsSync(file)).toBe(false)
    expect(store.getApiKey()).toBe('sk-typed-1234')
    expect(store.storage()).toBe('memory')
    expect(new ProcessSecretStore({}, file).getApiKey()).toBeNull()
  })

  it('without a file (the desktop app has its keyring) there is no choice to offer', () => {
    expect(new ProcessSecretStore({}).remembering()).toBeUndefined()
  })

  it('the CLI reads remembered secrets as the variables they stand for, the environment first', () => {
    writeFileSync(file, JSON.stringify({ apiKeys: { chat: 'sk-remembered', learning: 'sk-learn' }, secrets: { 'sync.token': 'tok-remembered' } }), { mode: 0o600 })
    const env = withRememberedSecrets({ CAIRN_LEARNING_API_KEY: 'sk-learn-env', PATH: '/bin' }, file, secretEnvNames)
    expect(env).toMatchObject({ CAIRN_API_KEY: 'sk-remembered', CAIRN_LEARNING_API_KEY: 'sk-learn-env', CAIRN_SECRET_SYNC_TOKEN: 'tok-remembered', PATH: '/bin' })
    expect(withRememberedSecrets({ PATH: '/bin' }, join(home, 'none.json'), secretEnvNames)).toEqual({ PATH: '/bin' })
  })

  it('a remembered key is the last fallback after every variable naming it: OPENAI_API_KEY and CAIRN_SYNC_TOKEN win', () => {
    writeFileSync(file, JSON.stringify({ apiKeys: { chat: 'sk-remembered' }, secrets: { 'sync.token': 'tok-remembered' } }), { mode: 0o600 })
    const env = withRememberedSecrets({ OPENAI_API_KEY: 'sk-openai', CAIRN_SYNC_TOKEN: 'tok-env' }, file, secretEnvNames)
    expect(env.CAIRN_API_KEY).toBeUndefined()
    expect(env.CAIRN_SECRET_SYNC_TOKEN).toBeUndefined()
    expect(new ProcessSecretStore(env).getApiKey()).toBe('sk-openai')
    // The store that reads the file itself (cairn serve) keeps the same order.
    const store = new ProcessSecretStore({ OPENAI_API_KEY: 'sk-openai', CAIRN_SYNC_TOKEN: 'tok-env' }, file)
    expect(store.getApiKey()).toBe('sk-openai')
    expect(store.storage()).toBe('env')
    expect(store.getSecret('sync.token')).toBe('tok-env')
  })

  it('with the raw environment, removing or forgetting a remembered key applies at once', async () => {
    writeFileSync(file, JSON.stringify({ apiKeys: { chat: 'sk-remembered', learning: 'sk-learn' }, secrets: {} }), { mode: 0o600 })
    const store = new ProcessSecretStore({}, file)
    expect(store.storage()).toBe('file')
    await store.setApiKey(null)
    expect(store.getApiKey()).toBeNull()
    expect(store.storage()).toBe('none')
    await store.setRemembering(false)
    // What the file held stays for this process, as typed now; not "from the environment".
    expect(store.storage('learning')).toBe('memory')
    await store.setApiKey(null, 'learning')
    expect(store.getApiKey('learning')).toBeNull()
  })

  it('writes through a temp file of its own: a symbolic link left under the temp name is not followed, and the file is 0600', async () => {
    const victim = join(home, 'victim.txt')
    writeFileSync(victim, 'untouched', { mode: 0o644 })
    symlinkSync(victim, `${file}.${process.pid}.tmp`)
    const store = new ProcessSecretStore({}, file)
    await store.setApiKey('sk-typed-1234')
    await store.setRemembering(true)
    expect(readFileSync(victim, 'utf8')).toBe('untouched')
    expect(statSync(victim).mode & 0o777).toBe(0o644)
    expect(lstatSync(file).isSymbolicLink()).toBe(false)
    expect(lstatSync(file).mode & 0o777).toBe(0o600)
    expect(existsSync(`${file}.${process.pid}.tmp`)).toBe(false)
    expect(new ProcessSecretStore({}, file).getApiKey()).toBe('sk-typed-1234')
  })

  it('is never synced nor backed up', () => {
    mkdirSync(join(home, 'memories'))
    writeFileSync(join(home, 'memories', 'MEMORY.md'), 'x')
    writeFileSync(join(home, 'config.json'), '{}')
    writeFileSync(file, '{"apiKeys":{},"secrets":{}}', { mode: 0o600 })
    const backedUp = listHomeFiles(home).files.map((entry) => entry.path)
    expect(backedUp).toContain('memories/MEMORY.md')
    expect(backedUp).not.toContain(REMEMBERED_SECRETS_FILE)
    expect(isSyncedPath(REMEMBERED_SECRETS_FILE)).toBe(false)
    expect(readFileSync(file, 'utf8')).toContain('apiKeys')
  })
})

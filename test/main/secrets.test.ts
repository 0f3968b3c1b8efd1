import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { KeyringSecretStore, type Keyring } from '../../electron/main/settings/secrets'

const KEY = 'sk-live-abcdefghijklmnop-9876'
const dirs: string[] = []

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-'))
  dirs.push(dir)
  return dir
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A keyring that really transforms the text (XOR with a per-keyring byte), like safeStorage would. */
function keyring(options: { available?: boolean; backend?: string | null; salt?: number } = {}): Keyring {
  const salt = options.salt ?? 0x5a
  const flip = (data: Buffer) => Buffer.from(data.map((byte) => byte ^ salt))
  return {
    isEncryptionAvailable: () => options.available ?? true,
    encryptString: (text) => Buffer.concat([Buffer.from([salt]), flip(Buffer.from(text))]),
    decryptString: (data) => {
      if (data[0] !== salt) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
      return flip(data.subarray(1)).toString()
    },
    selectedBackend: () => (options.backend === undefined ? 'gnome_libsecret' : options.backend)
  }
}

describe('API key storage', () => {
  it('keeps only ciphertext in secrets.json, owner-only, and reads it back after a restart', async () => {
    const dir = home()
    const file = join(dir, 'secrets.json')
    await new KeyringSecretStore(file, keyring(), { platform: 'linux' }).setApiKey(KEY)
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(KEY)
    expect(JSON.parse(text).apiKey).toMatchObject({ backend: 'gnome_libsecret' })
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const restarted = new KeyringSecretStore(file, keyring(), { platform: 'linux' })
    expect(restarted.getApiKey()).toBe(KEY)
    expect(restarted.storage()).toBe('os')
  })

  it('reports basic_text on Linux so the UI can warn that the key is not really protected', async () => {
    const store = new KeyringSecretStore(join(home(), 'secrets.json'), keyring({ backend: 'basic_text' }), { platform: 'linux' })
    await store.setApiKey(KEY)
    expect(store.storage()).toBe('basic_text')
    expect(new KeyringSecretStore(join(home(), 'secrets.json'), keyring({ backend: null }), { platform: 'darwin' }).storage()).toBe('os')
  })

  it('without any keyring keeps the key for this session only, writes nothing, and says so', async () => {
    const dir = home()
    const problems: string[] = []
    const store = new KeyringSecretStore(join(dir, 'secrets.json'), keyring({ available: false }), { onProblem: (message) => problems.push(message) })
    await store.setApiKey(KEY)
    expect(store.getApiKey()).toBe(KEY)
    expect(store.storage()).toBe('memory')
    expect(existsSync(join(dir, 'secrets.json'))).toBe(false)
    expect(problems[0]).toContain('for this session only')
  })

  it('forgets the key when it is cleared', async () => {
    const file = join(home(), 'secrets.json')
    const store = new KeyringSecretStore(file, keyring())
    await store.setApiKey(KEY)
    await store.setApiKey(null)
    expect(store.getApiKey()).toBeNull()
    expect(new KeyringSecretStore(file, keyring()).getApiKey()).toBeNull()
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1 })
  })

  it('a key the keyring can no longer decrypt reads as missing, with a message, and the file is kept', async () => {
    const file = join(home(), 'secrets.json')
    await new KeyringSecretStore(file, keyring({ salt: 1 })).setApiKey(KEY)
    const before = readFileSync(file, 'utf8')
    const problems: string[] = []
    const store = new KeyringSecretStore(file, keyring({ salt: 2 }), { onProblem: (message) => problems.push(message) })
    expect(store.getApiKey()).toBeNull()
    expect(problems[0]).toContain('Enter the key again in Settings')
    expect(readFileSync(file, 'utf8')).toBe(before)
  })

  it('sets an unreadable secrets.json aside instead of overwriting it', async () => {
    const dir = home()
    const file = join(dir, 'secrets.json')
    writeFileSync(file, '{ this is not json')
    const store = new KeyringSecretStore(file, keyring())
    expect(store.getApiKey()).toBeNull()
    await store.setApiKey(KEY)
    expect(store.getApiKey()).toBe(KEY)
    const aside = readdirSync(dir).filter((name) => name.startsWith('secrets.json.unreadable-'))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(dir, aside[0]), 'utf8')).toBe('{ this is not json')
  })

  it('tightens a secrets.json that was copied in readable by others', async () => {
    const file = join(home(), 'secrets.json')
    await new KeyringSecretStore(file, keyring()).setApiKey(KEY)
    chmodSync(file, 0o644)
    expect(new KeyringSecretStore(file, keyring(), { platform: 'linux' }).getApiKey()).toBe(KEY)
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })
})

describe('the embedding key', () => {
  it('is kept apart from the chat and learning keys, encrypted, and survives a restart', async () => {
    const file = join(home(), 'secrets.json')
    const store = new KeyringSecretStore(file, keyring(), { platform: 'linux' })
    await store.setApiKey(KEY)
    await store.setApiKey('sk-embed-1234', 'embedding')
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain('sk-embed-1234')
    expect(Object.keys(JSON.parse(text))).toEqual(expect.arrayContaining(['apiKey', 'embeddingApiKey']))
    const restarted = new KeyringSecretStore(file, keyring(), { platform: 'linux' })
    expect(restarted.getApiKey('embedding')).toBe('sk-embed-1234')
    expect(restarted.getApiKey('learning')).toBeNull()
    await restarted.setApiKey(null, 'embedding')
    expect(restarted.getApiKey('embedding')).toBeNull()
    expect(restarted.getApiKey()).toBe(KEY)
  })

  it('without a keyring names CAIRN_EMBEDDING_API_KEY as the way to avoid entering it again', async () => {
    const problems: string[] = []
    const store = new KeyringSecretStore(join(home(), 'secrets.json'), keyring({ available: false }), { onProblem: (message) => problems.push(message) })
    await store.setApiKey('sk-embed-1234', 'embedding')
    expect(store.storage('embedding')).toBe('memory')
    expect(problems[0]).toMatch(/embedding API key.*CAIRN_EMBEDDING_API_KEY/)
  })
})

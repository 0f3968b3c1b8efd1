import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { KeyringSecretStore, type Keyring } from '../../electron/main/settings/secrets'

const TOKEN = 'ghp_supersecret-token-1234'
const dirs: string[] = []

function secretsFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-'))
  dirs.push(dir)
  return join(dir, 'secrets.json')
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A keyring that really transforms the text (XOR), like safeStorage would. */
function keyring(available = true): Keyring {
  const flip = (data: Buffer) => Buffer.from(data.map((byte) => byte ^ 0x33))
  return {
    isEncryptionAvailable: () => available,
    encryptString: (text) => flip(Buffer.from(text)),
    decryptString: (data) => flip(data).toString(),
    selectedBackend: () => 'gnome_libsecret'
  }
}

describe('named secrets (MCP env and header values)', () => {
  it('keeps only ciphertext in secrets.json beside the API key, and reads both back after a restart', async () => {
    const file = secretsFile()
    const store = new KeyringSecretStore(file, keyring())
    await store.setApiKey('sk-key-0001')
    await store.setSecret('mcp.github.env.GITHUB_TOKEN', TOKEN)
    await store.setSecret('mcp.search.headers.Authorization', 'Bearer abc')
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(TOKEN)
    expect(Object.keys(JSON.parse(text).secrets)).toEqual(['mcp.github.env.GITHUB_TOKEN', 'mcp.search.headers.Authorization'])
    const restarted = new KeyringSecretStore(file, keyring())
    expect(restarted.getSecret('mcp.github.env.GITHUB_TOKEN')).toBe(TOKEN)
    expect(restarted.getApiKey()).toBe('sk-key-0001')
    expect(restarted.getSecret('mcp.other')).toBeNull()
  })

  it('removes one secret and leaves the others', async () => {
    const file = secretsFile()
    const store = new KeyringSecretStore(file, keyring())
    await store.setSecret('a', '1')
    await store.setSecret('b', '2')
    await store.setSecret('a', null)
    expect(store.getSecret('a')).toBeNull()
    expect(new KeyringSecretStore(file, keyring()).getSecret('b')).toBe('2')
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).secrets)).toEqual(['b'])
  })

  it('without a keyring keeps a secret for this session only and says so', async () => {
    const file = secretsFile()
    const problems: string[] = []
    const store = new KeyringSecretStore(file, keyring(false), { onProblem: (message) => problems.push(message) })
    await store.setSecret('mcp.x.env.TOKEN', TOKEN)
    expect(store.getSecret('mcp.x.env.TOKEN')).toBe(TOKEN)
    expect(problems[0]).toContain('for this session only')
    expect(new KeyringSecretStore(file, keyring()).getSecret('mcp.x.env.TOKEN')).toBeNull()
  })
})

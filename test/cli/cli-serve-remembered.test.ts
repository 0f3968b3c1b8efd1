import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SecretStore } from '../../electron/core/app/app-context'

// `cairn serve` up to the web server: what it hands the app, captured; the server "fails" so the command ends.
const handed = vi.hoisted(() => ({ options: null as null | { env: NodeJS.ProcessEnv; secrets: SecretStore } }))
vi.mock('../../electron/core/app/cairn-app', () => ({
  CairnApp: class {
    constructor(options: { env: NodeJS.ProcessEnv; secrets: SecretStore }) {
      handed.options = options
    }
    async close(): Promise<void> {}
  }
}))
vi.mock('../../electron/serve/web-server', () => ({
  startWebServer: async () => {
    throw new Error('not started in this test')
  }
}))

const { runCli } = await import('../../electron/cli/main')

let home: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-serve-remembered-'))
  handed.options = null
  writeFileSync(join(home, 'secrets.local.json'), JSON.stringify({ apiKeys: { chat: 'sk-remembered' }, secrets: { 'sync.token': 'tok-remembered' } }), { mode: 0o600 })
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

async function serve(env: NodeJS.ProcessEnv): Promise<{ env: NodeJS.ProcessEnv; secrets: SecretStore }> {
  let err = ''
  const code = await runCli(['--home', home, 'serve', '--port', '0'], { out: () => {}, err: (text) => void (err += text), isTTY: false }, env)
  expect(code).toBe(1)
  expect(err).toContain('not started in this test')
  return handed.options!
}

describe('cairn serve with keys remembered on this computer', () => {
  it('gets the raw environment, so a removed or forgotten key is gone at once', async () => {
    const { env, secrets } = await serve({ PATH: '/bin' })
    expect(env.CAIRN_API_KEY).toBeUndefined()
    expect(env.CAIRN_SECRET_SYNC_TOKEN).toBeUndefined()
    expect(secrets.getApiKey('chat')).toBe('sk-remembered')
    expect(secrets.storage('chat')).toBe('file')
    await secrets.setApiKey(null, 'chat')
    expect(secrets.getApiKey('chat')).toBeNull()
    expect(secrets.storage('chat')).toBe('none')

    await secrets.setRemembering!(false)
    expect(secrets.storage('chat')).toBe('none')
    expect(secrets.getSecret!('sync.token')).toBe('tok-remembered') // kept for this process, as if typed now
    await secrets.setSecret!('sync.token', null)
    expect(secrets.getSecret!('sync.token')).toBeNull()
  }, 60_000)

  it('lets OPENAI_API_KEY win over the remembered key', async () => {
    const { secrets } = await serve({ PATH: '/bin', OPENAI_API_KEY: 'sk-openai' })
    expect(secrets.getApiKey('chat')).toBe('sk-openai')
    expect(secrets.storage('chat')).toBe('env')
  }, 60_000)
})

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../scripted-provider'
import { runCairn } from '../helpers/run-cli'

let home: string
let workspace: string
let server: ScriptedServer

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-remembered-cli-'))
  workspace = mkdtempSync(join(tmpdir(), 'cairn-remembered-cli-ws-'))
  server = await startScriptedServer({ strict: true, apiKey: 'sk-remembered' })
  // What browser mode's "Remember on this computer" wrote.
  writeFileSync(join(home, 'secrets.local.json'), JSON.stringify({ apiKeys: { chat: 'sk-remembered' }, secrets: {} }), { mode: 0o600 })
})
afterEach(async () => {
  await server.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(workspace, { recursive: true, force: true })
})

describe('cairn chat with a key remembered in browser mode', () => {
  it('uses the remembered key when the environment sets none', async () => {
    server.enqueue({ text: 'Hello from the remembered key.' })
    const run = await runCairn(['--home', home, 'chat', 'hello'], { cwd: workspace, env: { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted' } })
    expect(run.stdout).toBe('Hello from the remembered key.\n')
    expect(run.code).toBe(0)
  })

  it('lets the environment win over the remembered key', async () => {
    const run = await runCairn(['--home', home, 'chat', 'hello'], { cwd: workspace, env: { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-from-env' } })
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/key/i)
  })

  it('lets OPENAI_API_KEY win over the remembered key too', async () => {
    const run = await runCairn(['--home', home, 'chat', 'hello'], { cwd: workspace, env: { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', OPENAI_API_KEY: 'sk-openai-env' } })
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/key/i)
  })
})

import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../scripted-provider'
import { startHonchoServer, type HonchoTestServer } from '../helpers/honcho-server'
import { runCairn } from '../helpers/run-cli'

let home: string
let workspace: string
let server: ScriptedServer
let honcho: HonchoTestServer

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-provider-'))
  workspace = mkdtempSync(join(tmpdir(), 'cairn-provider-ws-'))
  server = await startScriptedServer({ fallback: { text: 'Noted.' } })
  honcho = await startHonchoServer({ apiKey: 'hk-cli' })
  writeFileSync(join(home, 'config.json'), JSON.stringify({ memory: { provider: 'honcho', honcho: { baseURL: honcho.url, workspaceId: 'cairn-cli' } } }))
})
afterEach(async () => {
  await server.close()
  await honcho.close()
})

const env = () => ({ CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-test', CAIRN_MEMORY_PROVIDER_API_KEY: 'hk-cli' })

describe('cairn chat with an external memory provider, and cairn memory provider', () => {
  it('sends the finished turn before the command exits, recalls into a later chat with one line on stderr, and prints what was sent', async () => {
    const first = await runCairn(['--home', home, 'chat', 'Our release train leaves every second Thursday from the main branch'], { cwd: workspace, env: env() })
    expect(first.code).toBe(0)
    expect(honcho.messages.map((m) => m.content)).toEqual(['Our release train leaves every second Thursday from the main branch', 'Noted.'])

    const second = await runCairn(['--home', home, 'chat', 'When does the release train leave the main branch?'], { cwd: workspace, env: env() })
    expect(second.code).toBe(0)
    expect(second.stderr).toMatch(/recalled 1: \[honcho #msg_1\] Our release train leaves every second Thursday/)

    const shown = await runCairn(['--home', home, 'memory', 'provider'], { env: env() })
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain('memory.provider = honcho')
    expect(shown.stdout).toMatch(/Finished turn: When does the release train leave the main branch\?/)
    expect(shown.stdout).toMatch(/Recall for a message: When does the release train/)

    const found = await runCairn(['--home', home, 'memory', 'provider', 'search', 'release', 'train'], { env: env() })
    expect(found.stdout).toContain('[honcho #msg_1] Our release train leaves every second Thursday from the main branch')
    const forget = await runCairn(['--home', home, 'memory', 'provider', 'forget', 'msg_1'], { env: env() })
    expect(forget).toMatchObject({ code: 1, stdout: 'Honcho cannot forget msg_1\n' })
  }, 60_000)

  it('an incognito chat builds no provider: Honcho hears nothing, not even a peer', async () => {
    const chat = await runCairn(['--home', home, 'chat', '--incognito', 'Our release train leaves every second Thursday from the main branch'], { cwd: workspace, env: env() })
    expect(chat.code).toBe(0)
    expect(honcho.requests).toEqual([])
  }, 60_000)

  it('search words a failure with the keyed provider wording, and forget answers in the user’s language', async () => {
    const refused = await runCairn(['--home', home, 'memory', 'provider', 'search', 'release', 'train'], { env: { ...env(), CAIRN_MEMORY_PROVIDER_API_KEY: 'hk-wrong' } })
    expect(refused.code).toBe(0)
    expect(refused.stderr).toContain('cairn: Honcho refused the key.')
    expect(refused.stderr).not.toContain('Invalid API key')
    writeFileSync(join(home, 'config.json'), JSON.stringify({ ui: { language: 'zh-CN' }, memory: { provider: 'honcho', honcho: { baseURL: honcho.url, workspaceId: 'cairn-cli' } } }))
    const forget = await runCairn(['--home', home, 'memory', 'provider', 'forget', 'msg_1'], { env: env() })
    expect(forget).toMatchObject({ code: 1, stdout: 'Honcho 无法忘记 msg_1\n' })
  }, 60_000)
})

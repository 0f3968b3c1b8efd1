import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../scripted-provider'
import { runCairn } from '../helpers/run-cli'

let home: string
let server: ScriptedServer

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-cli-export-'))
  server = await startScriptedServer({ strict: true, respond: () => ({ text: 'Use `docker compose up -d`.' }) })
})
afterEach(async () => {
  await server.close()
})

const env = () => ({ CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-test' })
const cairn = (...args: string[]) => runCairn(['--home', home, ...args], { env: env(), cwd: home })

describe('cairn sessions export', () => {
  it('exports a conversation as Markdown to stdout and as JSON to a file', async () => {
    expect((await cairn('chat', 'How do I deploy?')).code).toBe(0)
    const [session] = JSON.parse((await cairn('sessions', '--json')).stdout) as Array<{ id: string }>

    const md = await cairn('sessions', 'export', session.id)
    expect(md.code).toBe(0)
    expect(md.stdout).toContain('## You\n\nHow do I deploy?\n')
    expect(md.stdout).toContain('## Cairn\n\nUse `docker compose up -d`.')
    expect(md.stdout).not.toContain('[Cairn:')

    const out = join(home, 'deploy.json')
    const json = await cairn('sessions', 'export', session.id, '--format', 'json', '--out', out)
    expect(json.code).toBe(0)
    expect(json.stderr).toContain(`Exported ${session.id} to ${out}`)
    const parsed = JSON.parse(readFileSync(out, 'utf8'))
    expect(parsed.session.id).toBe(session.id)
    expect(parsed.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant'])
  })

  it('says what is wrong with an unknown id or format', async () => {
    const missing = await cairn('sessions', 'export', 'no-such-id')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('There is no conversation no-such-id. List them with: cairn sessions')
    const format = await cairn('sessions', 'export', 'x', '--format', 'pdf')
    expect(format.code).toBe(2)
    expect(format.stderr).toContain('--format must be md or json, not "pdf".')
  })
})

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { isReviewRequest } from '../helpers/review-fixture'
import { startScriptedServer, type RecordedChatRequest, type ScriptedReply, type ScriptedServer } from '../scripted-provider'
import { startPty } from './pty-terminal'

const root = join(__dirname, '..', '..')
const tsxLoader = pathToFileURL(createRequire(__filename).resolve('tsx')).href
const everythingBin = join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')

const dirs: string[] = []
let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('cairn chat asking about an MCP tool on a terminal', () => {
  it('offers once, this conversation, and always this tool with any arguments; "always" adds exactly it to autoApprove', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cairn-mcp-pty-'))
    const workspace = mkdtempSync(join(tmpdir(), 'cairn-mcp-pty-ws-'))
    dirs.push(home, workspace)
    writeFileSync(join(home, 'config.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingBin, 'stdio'] } } }))
    const chat: ScriptedReply[] = [{ toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'hi there' } }] }, { text: 'It echoed.' }]
    server = await startScriptedServer({ respond: (request: RecordedChatRequest) => (isReviewRequest(request) ? { text: 'Nothing to save.' } : chat.shift()) })
    const env = { PATH: process.env.PATH, HOME: home, TERM: 'dumb', CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-test' }
    const term = startPty(process.execPath, ['--import', tsxLoader, join(root, 'electron', 'cli', 'index.ts'), '--home', home, 'chat', 'Echo hi'], { cwd: workspace, env })

    const question = await term.waitFor(/Allow\? .*with any arguments/)
    expect(question).toContain('"message": "hi there"')
    expect(question).toContain('[s] allow echo in this conversation')
    expect(question).toContain('[a]lways allow "echo" from everything, with any arguments')
    term.type('a\r')
    await term.waitFor(/It echoed\./)
    expect(await term.exited).toBe(0)
    expect(JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')).mcpServers.everything.autoApprove).toEqual(['echo'])
  }, 60_000)
})

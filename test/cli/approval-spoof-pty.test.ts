import { existsSync, mkdtempSync, rmSync } from 'node:fs'
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

const dirs: string[] = []
let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/**
 * A command built to look harmless on a terminal: a long innocent start, then a carriage return and
 * an ANSI "erase line" that would wipe it, the innocent start again, and what really runs after `;`.
 */
const SPOOF = `ls -la ./docs/${'a'.repeat(150)}\r\u001b[2K\u001b[1Gls -la ./docs/\u202e; touch pwned`

describe('cairn chat asking about a command on a terminal', () => {
  it('shows every character that could hide or rewrite the command, and the whole command', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cairn-spoof-'))
    const workspace = mkdtempSync(join(tmpdir(), 'cairn-spoof-ws-'))
    dirs.push(home, workspace)
    const chat: ScriptedReply[] = [{ toolCalls: [{ name: 'run_command', arguments: { command: SPOOF } }] }, { text: 'Not run.' }]
    server = await startScriptedServer({ respond: (request: RecordedChatRequest) => (isReviewRequest(request) ? { text: 'Nothing to save.' } : chat.shift()) })
    const env = { PATH: process.env.PATH, HOME: home, TERM: 'xterm-256color', CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-test' }
    const term = startPty(process.execPath, ['--import', tsxLoader, join(root, 'electron', 'cli', 'index.ts'), '--home', home, 'chat', 'List the docs'], { cwd: workspace, env })

    const screen = await term.waitFor(/Allow\? /)
    // What the terminal received holds no raw carriage return, escape or bidi override from the command…
    const fromCommand = screen.slice(screen.indexOf('ls -la'))
    expect(fromCommand).not.toMatch(/\u001b\[2K|\u202e/)
    // …but the written-out forms, and the part that really runs.
    expect(fromCommand).toContain('\\r\\x1b[2K\\x1b[1Gls -la ./docs/\\u202e; touch pwned')
    expect(fromCommand).toMatch(/Run `ls -la \.\/docs\/a+…` \(\d+ characters, shown whole\) in /)
    term.type('n\r')
    await term.waitFor(/Not run\./)
    expect(await term.exited).toBe(0)
    expect(existsSync(join(workspace, 'pwned'))).toBe(false)
  }, 60_000)
})

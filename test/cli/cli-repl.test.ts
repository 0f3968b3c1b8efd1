import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../scripted-provider'
import { runCairn } from '../helpers/run-cli'

let home: string
let workspace: string
let server: ScriptedServer

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-repl-'))
  workspace = mkdtempSync(join(tmpdir(), 'cairn-repl-ws-'))
  server = await startScriptedServer({ strict: true, apiKey: 'sk-good' })
})
afterEach(async () => {
  await server.close()
})

const env = () => ({ CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-good' })
const tsxLoader = pathToFileURL(createRequire(__filename).resolve('tsx')).href

/** `cairn chat` with no prompt as a child whose stdin the test types into, line by line. */
function startChat(args: string[] = []) {
  const child = spawn(process.execPath, ['--import', tsxLoader, join(__dirname, '..', '..', 'electron/cli/index.ts'), '--home', home, 'chat', ...args], {
    cwd: workspace,
    env: { PATH: process.env.PATH, HOME: home, ...env() },
    stdio: ['pipe', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  const waiters: Array<() => void> = []
  const changed = () => waiters.splice(0).forEach((wake) => wake())
  child.stdout.on('data', (d) => ((stdout += d), changed()))
  child.stderr.on('data', (d) => ((stderr += d), changed()))
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
  return {
    child,
    type: (line: string) => child.stdin.write(line + '\n'),
    output: () => ({ stdout, stderr }),
    /** Resolves once stdout or stderr matches (the child's own pace, no timers). */
    async waitFor(pattern: RegExp) {
      while (!pattern.test(stdout) && !pattern.test(stderr)) await new Promise<void>((resolve) => waiters.push(resolve))
    },
    exited
  }
}

async function sessionList(): Promise<Array<{ id: string; title: string; messageCount: number }>> {
  return JSON.parse((await runCairn(['--home', home, 'sessions', '--json'])).stdout)
}

describe('cairn chat without a prompt (interactive)', () => {
  it('runs each typed line as a turn, /new starts another conversation, /help and unknown commands answer', async () => {
    server.enqueue({ text: 'Hello there.' }, { text: 'It remembers Porto.' }, { text: 'A fresh start.' })
    const chat = startChat()
    chat.type('/help')
    chat.type('/frobnicate')
    chat.type('Tell me about Porto.')
    chat.type('What did I ask?')
    chat.type('/new')
    chat.type('Something else.')
    chat.child.stdin.end() // Ctrl+D: what was typed still runs, then it exits.
    expect(await chat.exited).toBe(0)
    const { stdout, stderr } = chat.output()
    expect(stdout).toBe('Hello there.\nIt remembers Porto.\nA fresh start.\n')
    expect(stderr).toMatch(/\/new +start a new conversation/)
    expect(stderr).toContain('cairn: unknown command /frobnicate. /help lists them.')
    const second = server.requests[1] as { body: { messages: Array<{ content: unknown }> } }
    expect(second.body.messages.map((m) => m.content)).toContain('Hello there.')
    const sessions = await sessionList()
    expect(sessions.map((s) => s.messageCount).sort()).toEqual([2, 4])
  })

  it('Ctrl+C stops the running answer and the session goes on; /exit leaves', async () => {
    server.enqueue({ fault: { type: 'hang' } }, { text: 'Short one.' })
    const chat = startChat()
    chat.type('Tell me a long story.')
    await server.waitForChatRequests(1, 20_000)
    chat.child.kill('SIGINT')
    await chat.waitFor(/cancelled/)
    chat.type('A short one, then.')
    await chat.waitFor(/Short one\./)
    chat.type('/exit')
    expect(await chat.exited).toBe(0)
    const sessions = await sessionList()
    expect(sessions).toHaveLength(1)
    expect(sessions[0].title).toMatch(/long story/)
  })

  it('--continue goes on with the latest conversation', async () => {
    server.enqueue({ text: 'First.' }, { text: 'Continued.' })
    await runCairn(['--home', home, 'chat', 'Remember Lisbon.'], { cwd: workspace, env: env() })
    const chat = startChat(['--continue'])
    chat.type('Where was it?')
    chat.child.stdin.end()
    expect(await chat.exited).toBe(0)
    expect(chat.output().stdout).toBe('Continued.\n')
    expect(await sessionList()).toMatchObject([{ messageCount: 4 }])
  })

  // Issue 29 part A: as in the app, the conversation stays and the next line goes on in it.
  it('a first turn that fails keeps its conversation, says how to fix it, and the next line goes on in it', async () => {
    server.enqueue({ fault: { type: 'http', status: 401 } }, { text: 'Now it works.' })
    const chat = startChat()
    chat.type('hello')
    chat.type('hello again')
    chat.child.stdin.end()
    expect(await chat.exited).toBe(0)
    expect(chat.output().stderr).toContain('To fix: export CAIRN_API_KEY=<your key>')
    expect(await sessionList()).toMatchObject([{ title: 'hello', messageCount: 3 }])
  })
})

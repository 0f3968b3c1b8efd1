import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../shared/agent-events'
import { startScriptedServer, type ScriptedServer } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { runCairn } from '../helpers/run-cli'

let home: string
let workspace: string
let server: ScriptedServer

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-chat-'))
  workspace = mkdtempSync(join(tmpdir(), 'cairn-chat-ws-'))
  server = await startScriptedServer({ strict: true, apiKey: 'sk-good' })
})
afterEach(async () => {
  await server.close()
})

function chat(args: string[], key = 'sk-good') {
  return runCairn(['--home', home, 'chat', ...args], {
    cwd: workspace,
    env: { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: key }
  })
}

/** util-linux `script` gives a child a real pseudo-terminal (Linux only; BSD `script` takes other flags). */
const hasScript = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0
const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`

/** `cairn chat` on a terminal `columns` wide: what the screen receives, stdout and stderr mixed. */
function chatOnTerminal(args: string[], columns: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; screen: string }> {
  const tsxLoader = pathToFileURL(createRequire(__filename).resolve('tsx')).href
  const cli = [process.execPath, '--import', tsxLoader, join(__dirname, '..', '..', 'electron/cli/index.ts'), '--home', home, 'chat', ...args]
  const command = `stty cols ${columns} rows 24; exec ${cli.map(shellQuote).join(' ')}`
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: workspace,
      env: { PATH: process.env.PATH, HOME: home, TERM: 'xterm-256color', CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-good', ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let screen = ''
    child.stdout.on('data', (data: Buffer) => (screen += data.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, screen }))
  })
}

describe('cairn chat', () => {
  it('streams the answer to stdout and prints the session id on stderr', async () => {
    server.enqueue({ text: 'Hello! How can I help?' })
    const run = await chat(['hello'])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('Hello! How can I help?\n')
    const id = run.stderr.match(/session: (\S+)/)?.[1]
    expect(id).toBeTruthy()

    server.enqueue({ text: 'You said hello before.' })
    const resumed = await chat(['what did I say?', '--session', id!])
    expect(resumed.code).toBe(0)
    // The chat's request (the review of the two turns at exit may come after it).
    const chats = server.chatRequests().filter((request) => !isReviewRequest(request))
    const messages = chats.at(-1)!.body.messages as Array<{ role: string }>
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user'])

    const list = await runCairn(['--home', home, 'sessions', '--json'])
    const sessions = JSON.parse(list.stdout)
    expect(sessions).toHaveLength(1)
    expect(sessions[0]).toMatchObject({ id, title: 'hello', messageCount: 4 })
  })

  it('prints one JSON event per line with --json', async () => {
    server.enqueue({ toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Likes short answers' } }] }, { text: 'Saved.' })
    const run = await chat(['keep answers short, I like that', '--json'])
    expect(run.code).toBe(0)
    const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as AgentEvent)
    expect(events[0].type).toBe('turn_started')
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['tool_call_started', 'tool_call_finished', 'text_delta', 'usage']))
    expect(events.at(-1)).toMatchObject({ type: 'turn_finished', reason: 'completed', text: 'Saved.' })
    expect(readFileSync(join(home, 'memories', 'USER.md'), 'utf8')).toBe('Likes short answers')
  })

  it('runs an approved command with --yes and refuses without a terminal to ask', async () => {
    server.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo made > out.txt' } }] }, { text: 'Done.' })
    const approved = await chat(['make a file', '--yes'])
    expect(approved.code).toBe(0)
    expect(readFileSync(join(workspace, 'out.txt'), 'utf8')).toBe('made\n')

    server.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo again > again.txt' } }] }, { text: 'Declined, fine.' })
    const refused = await chat(['make another'])
    expect(refused.code).toBe(0)
    expect(refused.stderr).toMatch(/needs approval, but there is no terminal to ask.*--yes/)
    const tool = (server.lastChatRequest()!.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'tool')
    expect(tool?.content).toMatch(/declined/i)
  })

  it('marks the text of an answer cut mid-stream as discarded, so the retried answer stands alone', async () => {
    server.enqueue({ text: 'This answer will be cut short', fault: { type: 'cut', afterChunks: 4 } }, { text: 'OK fallback answer.' })
    const run = await chat(['hello'])
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(/dropped in the middle.*Retrying in \d+ s \(attempt 1\)/)
    // stdout is a pipe here, so nothing can be erased: the void text is closed off and the answer starts on a new line.
    expect(run.stdout).toBe('This answer will [discarded, retrying]\nOK fallback answer.\n')
    expect(run.stdout.split('\n').at(-2)).toBe('OK fallback answer.')
  })

  it.skipIf(!hasScript)('erases the text of an answer cut mid-stream from a terminal before the retried answer', async () => {
    server.enqueue({ text: 'This answer will be cut short', fault: { type: 'cut', afterChunks: 4 } }, { text: 'OK fallback answer.' })
    // 10 columns: "This answer will" wraps onto a second row, so the erase must go up one row first.
    // NO_COLOR: the text streams as it comes (rendered markdown would hold the unfinished paragraph back).
    const run = await chatOnTerminal(['hello'], 10, { NO_COLOR: '1' })
    expect(run.code, run.screen).toBe(0)
    expect(run.screen).toContain('This answer will\r\x1b[1A\x1b[J')
    expect(run.screen).not.toContain('[discarded')
    expect(run.screen).toMatch(/Retrying in \d+ s \(attempt 1\)\.\r\nOK fallback answer\.\r\n/)
  })

  it.skipIf(!hasScript)('never shows a terminal the unfinished paragraph of an answer cut mid-stream, when it renders markdown', async () => {
    server.enqueue({ text: 'This answer will be cut short', fault: { type: 'cut', afterChunks: 4 } }, { text: 'OK **fallback** answer.' })
    const run = await chatOnTerminal(['hello'], 80)
    expect(run.code, run.screen).toBe(0)
    expect(run.screen).not.toContain('This answer')
    expect(run.screen).toMatch(/Retrying in \d+ s \(attempt 1\)\.\r\n.*OK .*fallback.* answer\./)
    expect(run.screen).toContain('\x1b[1mfallback')
  })

  it('exits non-zero with a clear message on a provider error', async () => {
    const run = await chat(['hello'], 'sk-wrong')
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/rejected the API key \(401/)
  })

  it('names a missing model whose name and 404 say "vision" as missing, with its address and the setting that fixes it', async () => {
    // As a provider answers for a model it lacks: 404, its name and words holding "vision".
    server.enqueue({ fault: { type: 'http', status: 404, body: { error: { message: 'The model `llama-3.2-vision` does not exist (vision models: see /v1/models).', code: 'model_not_found' } } } })
    const run = await runCairn(['--home', home, 'chat', 'hello'], { cwd: workspace, env: { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'llama-3.2-vision', CAIRN_API_KEY: 'sk-good' } })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`cairn: The provider at ${server.url} has no model "llama-3.2-vision".\n`)
    expect(run.stderr).toContain(`To fix: export CAIRN_MODEL=<a model ${server.url} lists> (or set provider.model in`)
    expect(run.stderr).not.toMatch(/does not take images/)
  })

  it('exits 2 for --json without a prompt (no prompt is otherwise the interactive session)', async () => {
    const run = await chat(['--json'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/--json needs a prompt/)
  })
})

import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI, { AuthenticationError, RateLimitError } from 'openai'
import { afterEach, describe, expect, it } from 'vitest'
import { collectStream } from '../collect'
import { parseScript, startScriptedServer } from '../index'

const root = join(__dirname, '..', '..', '..')
const cliPath = join(root, 'test', 'scripted-provider', 'cli.ts')
const readmePath = join(root, 'test', 'scripted-provider', 'README.md')

interface RunningCli {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  /** Resolves with the printed base URL, or rejects if the process exits first. */
  url: Promise<string>
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

function runCli(args: string[]): RunningCli {
  const child = spawn(process.execPath, ['--import', 'tsx', cliPath, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let out = ''
  let err = ''
  child.stdout!.on('data', (data: Buffer) => (out += data.toString()))
  child.stderr!.on('data', (data: Buffer) => (err += data.toString()))
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    // 'close' (not 'exit') so all output has been read when it resolves.
    child.once('close', (code, signal) => resolve({ code, signal }))
  )
  const url = new Promise<string>((resolve, reject) => {
    const look = (): void => {
      const found = /listening on (http:\/\/\S+\/v1)/.exec(out)
      if (found) resolve(found[1])
    }
    child.stdout!.on('data', look)
    void exit.then(() => reject(new Error(`cli exited before printing its URL. stderr:\n${err}`)))
  })
  // Tests that expect an early exit never await the URL; keep that from being an unhandled rejection.
  url.catch(() => {})
  return { child, stdout: () => out, stderr: () => err, url, exit }
}

/** Output arrives on a pipe, independently of the HTTP response: poll until it shows up. */
async function waitForOutput(read: () => string, pattern: RegExp, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!pattern.test(read())) {
    if (Date.now() > deadline) throw new Error(`Output never matched ${pattern}. Output so far:\n${read()}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

function readmeExampleScript(): unknown {
  const readme = readFileSync(readmePath, 'utf8')
  const section = readme.slice(readme.indexOf('### Example script'))
  const block = /```json\n([\s\S]*?)```/.exec(section)
  if (!block) throw new Error('README has no ```json block under "### Example script"')
  return JSON.parse(block[1])
}

describe('standalone CLI', () => {
  it('prints its URL and the Cairn env vars, answers with the echo, logs, and exits 0 on SIGTERM', async () => {
    const cli = runCli(['--port', '0'])
    const url = await cli.url
    expect(cli.stdout()).toContain(`CAIRN_BASE_URL=${url} CAIRN_MODEL=scripted CAIRN_API_KEY=test`)

    const client = new OpenAI({ apiKey: 'anything', baseURL: url, maxRetries: 0 })
    const stream = await client.chat.completions.create({ model: 'scripted', messages: [{ role: 'user', content: 'ping' }], stream: true })
    expect((await collectStream(stream)).content).toBe('(scripted) You said: ping')
    await waitForOutput(cli.stderr, /\[scripted\] #1 chat model=scripted stream messages=1 → echo/)

    cli.child.kill('SIGTERM')
    expect(await cli.exit).toEqual({ code: 0, signal: null })
    expect(cli.stderr()).toContain('SIGTERM: stopping after 1 requests')
  })

  it('plays the README example script: queue, tool-call rule, regex rule, fault rule, fallback', async () => {
    const script = readmeExampleScript()
    expect(() => parseScript(script, 'README example')).not.toThrow()
    const file = join(mkdtempSync(join(tmpdir(), 'cairn-')), 'script.json')
    writeFileSync(file, JSON.stringify(script))
    const cli = runCli(['--port', '0', '--script', file])
    const url = await cli.url
    expect(cli.stdout()).toContain(file)

    const wrongKey = new OpenAI({ apiKey: 'wrong', baseURL: url, maxRetries: 0 })
    await expect(wrongKey.models.list()).rejects.toBeInstanceOf(AuthenticationError)

    const client = new OpenAI({ apiKey: 'test', baseURL: url, maxRetries: 0 })
    const say = async (messages: OpenAI.Chat.ChatCompletionMessageParam[]) =>
      (await client.chat.completions.create({ model: 'scripted', messages })).choices[0]
    expect((await say([{ role: 'user', content: 'first' }])).message.content).toContain('scripted model')

    const history: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Please remember I like green tea' }]
    const call = await say(history)
    expect(call.finish_reason).toBe('tool_calls')
    const toolCall = call.message.tool_calls![0]
    expect(toolCall.type === 'function' && toolCall.function.name).toBe('memory')
    expect(toolCall.type === 'function' && JSON.parse(toolCall.function.arguments)).toMatchObject({ action: 'add', target: 'user' })
    history.push(call.message, { role: 'tool', tool_call_id: toolCall.id, content: '{"success":true}' })
    expect((await say(history)).message.content).toBe('(scripted) I have no rule for that.')

    expect((await say([{ role: 'user', content: 'Hello there' }])).message.content).toBe('Hello again!')
    await expect(say([{ role: 'user', content: 'show me a rate limit' }])).rejects.toBeInstanceOf(RateLimitError)
    expect((await say([{ role: 'user', content: 'rate limit again' }])).message.content).toBe('(scripted) I have no rule for that.')

    cli.child.kill('SIGINT')
    expect((await cli.exit).code).toBe(0)
  })

  it('refuses an invalid script with the file and field named, exit code 1', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cairn-')), 'bad.json')
    writeFileSync(file, JSON.stringify({ rules: [{ contains: 'x', reply: { toolCalls: [{ name: 'memory' }] } }] }))
    const cli = runCli(['--port', '0', '--script', file])
    await expect(cli.url).rejects.toThrow(/exited before printing/)
    expect((await cli.exit).code).toBe(1)
    expect(cli.stderr()).toContain(file)
    expect(cli.stderr()).toMatch(/rules\[0\]\.reply\.toolCalls\[0\]\.arguments/)
  })

  it('explains a port that is already taken, and a bad flag with the usage', async () => {
    const occupant = await startScriptedServer()
    try {
      const cli = runCli(['--port', String(occupant.port)])
      expect((await cli.exit).code).toBe(1)
      expect(cli.stderr()).toContain(`Port ${occupant.port} on 127.0.0.1 is already in use. Pass --port 0`)
      expect(cli.stderr()).not.toContain('Usage:')
    } finally {
      await occupant.close()
    }
    const badFlag = runCli(['--port', 'eighty'])
    expect((await badFlag.exit).code).toBe(1)
    expect(badFlag.stderr()).toContain('--port must be a number from 0 to 65535, got "eighty".')
    expect(badFlag.stderr()).toContain('Usage:')
  })
})

import { readFileSync } from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { isReviewRequest } from '../helpers/review-fixture'
import { runCairn } from '../helpers/run-cli'
import { startScriptedServer, type RecordedChatRequest, type ScriptedReply, type ScriptedServer } from '../scripted-provider'
import { CommandOutputs } from '../../electron/cli/command-output'
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

async function setup(chat: ScriptedReply[]) {
  const home = mkdtempSync(join(tmpdir(), 'cairn-output-'))
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-output-ws-'))
  dirs.push(home, workspace)
  server = await startScriptedServer({ respond: (request: RecordedChatRequest) => (isReviewRequest(request) ? { text: 'Nothing to save.' } : chat.shift()) })
  const env = { PATH: process.env.PATH, HOME: home, TERM: 'xterm-256color', CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-test' }
  return { home, workspace, env }
}

/** Fifty lines on stdout, one on stderr, and a failing exit. */
const NOISY = 'for i in $(seq 1 50); do echo "line $i"; done; echo "something went wrong" >&2; exit 3'

describe('cairn chat shows what an approved command printed', () => {
  it('shows the last lines of stdout and stderr apart, says how much was cut and where all of it is, also for a failing exit', async () => {
    const { home, workspace, env } = await setup([{ toolCalls: [{ name: 'run_command', arguments: { command: NOISY } }] }, { text: 'It failed.' }])
    const run = await runCairn(['--home', home, 'chat', 'Run the noisy script', '--yes'], { cwd: workspace, env })
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('It failed.\n')
    const file = join(home, 'logs', 'last-command-output.txt')
    expect(run.stderr).toMatch(/✗ run_command \(\d+ ms\): exit 3\n {4}stdout:\n {4}│ line 32\n/)
    expect(run.stderr).toContain('    │ line 50\n    stderr:\n    ! something went wrong\n')
    expect(run.stderr).not.toContain('│ line 31\n')
    expect(run.stderr).toContain(`    (31 earlier lines not shown; all of it is in ${file})\n`)
    const whole = readFileSync(file, 'utf8')
    expect(whole).toContain(`$ ${NOISY}\nstdout:\nline 1\nline 2\n`)
    expect(whole).toContain('line 50\n\nstderr:\nsomething went wrong\n')
  }, 120_000)

  it('at a terminal: asks again on an unclear answer instead of taking it as no, and /output prints the whole output', async () => {
    const { home, workspace, env } = await setup([
      { toolCalls: [{ name: 'run_command', arguments: { command: 'seq 1 30' } }] },
      { text: 'Counted.' },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo never' } }] },
      { text: 'Not run then.' }
    ])
    const term = startPty(process.execPath, ['--import', tsxLoader, join(root, 'electron', 'cli', 'index.ts'), '--home', home, 'chat'], { cwd: workspace, env })
    await term.waitFor(/\/help lists the commands/)
    term.type('Count to thirty\r')
    await term.waitFor(/Allow\? \[y\]es/)
    term.type('what does it do?\r')
    await term.waitFor(/"what does it do\?" is not an answer here \(it was not sent\)\. Answer y \(yes\), n \(no\)[^\n]*\.\r?\n\s*Allow\? \[y\]es/)
    term.type('是\r')
    const shown = await term.waitFor(/Counted\./)
    expect(term.text()).toMatch(/✓ run_command \(\d+ ms\): exit 0/)
    expect(shown).toContain('│ 30')
    expect(shown).toMatch(/\(10 earlier lines not shown; \/output prints all of it\)/)
    term.type('/output\r')
    const whole = await term.waitFor(/\n30\r?\n/)
    expect(whole).toMatch(/\$ seq 1 30\r?\nstdout:\r?\n1\r?\n2\r?\n/)
    // Ctrl+C at the question is a no: the command does not run and the conversation goes on.
    term.type('Say never\r')
    await term.waitFor(/Allow\? \[y\]es/)
    term.type('\x03')
    await term.waitFor(/Not run then\./)
    expect(term.text()).not.toMatch(/✓ run_command \(\d+ ms\): exit 0[\s\S]*✓ run_command/)
    term.type('\x04')
    expect(await term.exited).toBe(0)
  }, 180_000)
})

describe('/output', () => {
  it('writes out the control characters of the whole output, as the shortened view does, so it cannot drive the terminal', () => {
    const outputs = new CommandOutputs(null, true)
    outputs.started('call-1', 'printf x')
    outputs.remember('call-1', { stdout: 'ok\x1b]0;pwned\x07\x1b[2J\rfake prompt\nline 2\n', stderr: 'warn\x1b[31m\n' })
    const whole = outputs.whole()
    expect(whole).not.toMatch(/[\x1b\x07\r]/)
    expect(whole).toBe('$ printf x\nstdout:\nok\\x1b]0;pwned\\x07\\x1b[2J\\rfake prompt\nline 2\n\nstderr:\nwarn\\x1b[31m\n')
  })
})

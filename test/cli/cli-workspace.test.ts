import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../scripted-provider'
import { runCairn } from '../helpers/run-cli'

let home: string
let here: string
let elsewhere: string
let server: ScriptedServer

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-cli-ws-home-'))
  // Real paths: a child's current folder is one (macOS's temp folder is behind a link).
  here = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-cli-ws-here-')))
  elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-cli-ws-else-')))
  server = await startScriptedServer({ strict: true, apiKey: 'sk-good' })
  // These chats are about folders: a review at exit would take a scripted answer meant for the next chat.
  writeFileSync(join(home, 'config.json'), JSON.stringify({ learning: { mode: 'off' } }))
})
afterEach(async () => {
  await server.close()
  for (const dir of [home, here, elsewhere]) rmSync(dir, { recursive: true, force: true })
})

const providerEnv = () => ({ CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-good' })

/** `cairn chat --yes …` started in `cwd`, after queueing a write_file of `name` and a closing answer. */
function chatWriting(name: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: name, content: `${name} content` } }] }, { text: 'Written.' })
  return runCairn(['--home', home, 'chat', '--yes', ...args, `write ${name}`], { cwd, env: { ...providerEnv(), ...env } })
}

const sessionIdOf = (stderr: string) => stderr.match(/session: (\S+)/)![1]

async function storedWorkspace(id: string): Promise<string> {
  const list = await runCairn(['--home', home, 'sessions', '--json'])
  return (JSON.parse(list.stdout) as Array<{ id: string; workspace: string }>).find((s) => s.id === id)!.workspace
}

describe('cairn chat works in a folder', () => {
  it('writes in the folder it was started in, says so, and stores it with the session', async () => {
    const run = await chatWriting('notes.md', [], here)
    expect(run.code, run.stderr).toBe(0)
    expect(readFileSync(join(here, 'notes.md'), 'utf8')).toBe('notes.md content')
    expect(run.stderr).toContain(`workspace: ${here}\n`)
    expect(await storedWorkspace(sessionIdOf(run.stderr))).toBe(here)
  })

  it('works in --workspace DIR instead, a relative DIR taken from where it was started', async () => {
    mkdirSync(join(here, 'site'))
    const run = await chatWriting('index.html', ['--workspace', 'site'], here)
    expect(run.code, run.stderr).toBe(0)
    expect(readFileSync(join(here, 'site', 'index.html'), 'utf8')).toBe('index.html content')
    expect(existsSync(join(here, 'index.html'))).toBe(false)
    expect(await storedWorkspace(sessionIdOf(run.stderr))).toBe(join(here, 'site'))
  })

  it('resumes a session in its own folder from anywhere, and moves it with --workspace', async () => {
    const first = await chatWriting('a.txt', [], here)
    const id = sessionIdOf(first.stderr)

    const resumed = await chatWriting('b.txt', ['--session', id], elsewhere)
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(readFileSync(join(here, 'b.txt'), 'utf8')).toBe('b.txt content')
    expect(existsSync(join(elsewhere, 'b.txt'))).toBe(false)
    expect(await storedWorkspace(id)).toBe(here)

    const moved = await chatWriting('c.txt', ['--session', id, '--workspace', elsewhere], here)
    expect(moved.code, moved.stderr).toBe(0)
    expect(readFileSync(join(elsewhere, 'c.txt'), 'utf8')).toBe('c.txt content')
    expect(existsSync(join(here, 'c.txt'))).toBe(false)
    expect(await storedWorkspace(id)).toBe(elsewhere)
    // The model was told where it works now.
    const system = (server.lastChatRequest()!.body.messages as Array<{ content: string }>)[0].content
    expect(system).toContain(`Workspace folder: ${elsewhere}`)
  })

  it('refuses a --workspace that is missing or a file, and a resumed session whose folder is gone, as usage errors', async () => {
    const missing = await runCairn(['--home', home, 'chat', '--workspace', join(here, 'nope'), 'hi'], { cwd: here, env: providerEnv() })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(`--workspace: There is no folder ${join(here, 'nope')}.`)
    writeFileSync(join(here, 'file.txt'), 'x')
    const file = await runCairn(['--home', home, 'chat', '--workspace', 'file.txt', 'hi'], { cwd: here, env: providerEnv() })
    expect(file.code).toBe(2)
    expect(file.stderr).toContain('is a file, not a folder')

    const gone = join(here, 'gone')
    mkdirSync(gone)
    const first = await chatWriting('x.txt', [], gone)
    rmSync(gone, { recursive: true })
    const resumed = await runCairn(['--home', home, 'chat', '--session', sessionIdOf(first.stderr), 'again'], { cwd: here, env: providerEnv() })
    expect(resumed.code).toBe(2)
    expect(resumed.stderr).toMatch(/folder that is gone\. Pass --workspace DIR to move it/)
    expect(server.remainingReplies()).toBe(0)
  })

  it('under `npm run cairn` works where npm was started (INIT_CWD), not in the package folder npm runs it in', async () => {
    const run = await chatWriting('npm.txt', [], elsewhere, { npm_lifecycle_event: 'cairn', INIT_CWD: here })
    expect(run.code, run.stderr).toBe(0)
    expect(readFileSync(join(here, 'npm.txt'), 'utf8')).toBe('npm.txt content')
    expect(existsSync(join(elsewhere, 'npm.txt'))).toBe(false)
  })
})

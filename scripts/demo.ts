/**
 * `npm run demo`: Cairn in browser mode against a scripted model, on a fresh temporary data home, so
 * a newcomer can watch it learn in two minutes without an API key. It prints the URL (and opens
 * nothing); Ctrl+C stops everything and removes the temporary folders. The story is in demo-story.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CairnCore } from '../electron/core/cairn'
import { ConfigStore } from '../electron/core/config/config-store'
import { ensureHome } from '../electron/core/config/home'
import { newTurnState } from '../electron/core/tools/types'
import buildRendererIfStale from '../test/e2e/global-setup'
import { startScriptedServer, type ScriptedServer } from '../test/scripted-provider'
import { DEMO_PROMPTS, USER_SKILL, USER_SKILL_CATEGORY, USER_SKILL_CONTENT, respond } from './demo-story'

const root = join(__dirname, '..')
const tsxLoader = pathToFileURL(createRequire(__filename).resolve('tsx')).href
const API_KEY = 'sk-demo'

/** The data home: the scripted provider, no skills from the user's other folders, and the user's own skill. */
async function prepareHome(home: string, workspace: string, server: ScriptedServer): Promise<void> {
  const config = new ConfigStore(ensureHome(home).configFile)
  await config.update({
    provider: { preset: 'custom', baseURL: server.url, model: 'scripted', maxRetries: 0 },
    skills: { extraDirs: [] },
    agent: { workspace }
  })
  const core = await CairnCore.open({ home })
  try {
    const manage = core.learningTools().find((tool) => tool.name === 'skill_manage')
    if (!manage) throw new Error('The skill_manage tool is missing, so the demo cannot add its example skill.')
    const args = { action: 'create', name: USER_SKILL, category: USER_SKILL_CATEGORY, content: USER_SKILL_CONTENT }
    const result = (await manage.run(args, { write: { source: 'user', sessionId: null }, turn: newTurnState() })) as { success: boolean; error?: string }
    if (!result.success) throw new Error(`The demo's example skill could not be written: ${result.error ?? 'unknown error'}`)
  } finally {
    await core.close()
  }
}

/** Resolves with the URL `cairn serve` prints; rejects with its output when it exits first. */
function waitForUrl(serve: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const url = output().match(/Open: (\S+)/)?.[1]
      if (!url) return
      serve.stdout?.off('data', check)
      serve.off('close', onClose)
      resolve(url)
    }
    const onClose = (code: number | null): void => reject(new Error(`cairn serve exited (${code}) before it was ready:\n${output()}`))
    serve.stdout?.on('data', check)
    serve.once('close', onClose)
  })
}

async function main(): Promise<void> {
  buildRendererIfStale()
  const home = mkdtempSync(join(tmpdir(), 'cairn-demo-'))
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-demo-ws-'))
  const server = await startScriptedServer({ respond, apiKey: API_KEY, models: ['scripted'] })
  let serve: ChildProcess | null = null
  let stopping: Promise<void> | null = null

  const stop = (code: number): Promise<void> =>
    (stopping ??= (async () => {
      if (serve && serve.exitCode === null && serve.signalCode === null) {
        const exited = new Promise((resolve) => serve!.once('close', resolve))
        serve.kill('SIGTERM')
        const timer = setTimeout(() => serve?.kill('SIGKILL'), 5_000)
        await exited
        clearTimeout(timer)
      }
      await server.close()
      for (const dir of [home, workspace]) rmSync(dir, { recursive: true, force: true })
      process.stdout.write(`\nDemo stopped; removed ${home}.\n`)
      process.exitCode = code
    })())
  // In a terminal Ctrl+C reaches `cairn serve` too, and tsx relays it once more: stopping runs once and waits.
  process.on('SIGINT', () => void stop(0))
  process.on('SIGTERM', () => void stop(0))

  try {
    await prepareHome(home, workspace, server)
    serve = spawn(process.execPath, ['--import', tsxLoader, join(root, 'electron/cli/index.ts'), '--home', home, 'serve', '--port', '0'], {
      cwd: workspace,
      env: { ...process.env, CAIRN_API_KEY: API_KEY },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let output = ''
    serve.stdout?.on('data', (data: Buffer) => (output += data.toString()))
    serve.stderr?.on('data', (data: Buffer) => (output += data.toString()))
    const url = await waitForUrl(serve, () => output)
    serve.once('close', (code) => {
      if (stopping) return
      // Exit code 0: Ctrl+C reached `cairn serve` before this process handled it.
      if (code !== 0) process.stderr.write(`cairn serve stopped unexpectedly (${code}):\n${output}\n`)
      void stop(code === 0 ? 0 : 1)
    })
    process.stdout.write(
      [
        'Cairn demo: a scripted model and a fresh data home, so nothing of yours is read or changed.',
        '',
        `  Open: ${url}`,
        '',
        'Then, in the chat:',
        `  1. “${DEMO_PROMPTS[0]}”`,
        `  2. “${DEMO_PROMPTS[1]}”`,
        '  3. A few seconds later a background review learns from it: the Timeline shows the remembered',
        '     preference and a new skill (open its diff); the Inbox holds a change to the skill you wrote',
        `     (${USER_SKILL}): approve it, then revert something on the Timeline.`,
        '',
        `Data home: ${home}`,
        'Press Ctrl+C to stop; the data home is removed.',
        ''
      ].join('\n')
    )
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`)
    await stop(1)
  }
}

void main()

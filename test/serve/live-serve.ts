import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ConfigStore } from '../../electron/core/config/config-store'
import { ensureHome } from '../../electron/core/config/home'

const tsxLoader = pathToFileURL(createRequire(__filename).resolve('tsx')).href

/** A browser-mode server in its own process (serve-entry.ts), talking to a provider at `providerUrl`. */
export interface LiveServe {
  port: number
  token: string
  /** Whether the process is still running. */
  alive(): boolean
  /** Everything it printed, for failure messages. */
  output(): string
  close(): Promise<void>
}

export async function startLiveServe(providerUrl: string): Promise<LiveServe> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-serve-home-'))
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-serve-ws-'))
  const rendererDir = mkdtempSync(join(tmpdir(), 'cairn-serve-renderer-'))
  mkdirSync(join(rendererDir, 'assets'))
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Cairn</title>')
  const config = new ConfigStore(ensureHome(home).configFile)
  await config.update({
    skills: { extraDirs: [] },
    agent: { workspace },
    provider: { preset: 'custom', baseURL: providerUrl, model: 'scripted', maxRetries: 0, requestTimeoutMs: 15_000 }
  })

  const child = spawn(process.execPath, ['--import', tsxLoader, join(__dirname, 'serve-entry.ts'), home, rendererDir], {
    cwd: workspace,
    env: { PATH: process.env.PATH, HOME: home, CAIRN_API_KEY: 'sk-serve-test' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout.on('data', (data: Buffer) => (output += data.toString()))
  child.stderr.on('data', (data: Buffer) => (output += data.toString()))
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()))
  const removeDirs = () => {
    for (const dir of [home, workspace, rendererDir]) rmSync(dir, { recursive: true, force: true })
  }

  const ready = await new Promise<{ url: string; port: number }>((resolve, reject) => {
    const onData = () => {
      const line = output.split('\n').find((candidate) => candidate.startsWith('{"url"'))
      if (!line) return
      child.stdout.off('data', onData)
      child.off('close', onClose)
      resolve(JSON.parse(line) as { url: string; port: number })
    }
    const onClose = (code: number | null) => reject(new Error(`the server exited (${code}) before it was ready:\n${output}`))
    child.stdout.on('data', onData)
    child.once('close', onClose)
  }).catch((error: Error) => {
    removeDirs()
    throw error
  })

  return {
    port: ready.port,
    token: new URL(ready.url).hash.replace('#token=', ''),
    alive: () => child.exitCode === null && child.signalCode === null,
    output: () => output,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        // A server that does not stop in time is killed, so a hang cannot stall the suite.
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
        await exited
        clearTimeout(timer)
      }
      removeDirs()
    }
  }
}

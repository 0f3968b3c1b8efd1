import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { CairnCore } from '../../electron/core/cairn'
import { ConfigStore } from '../../electron/core/config/config-store'
import { ensureHome } from '../../electron/core/config/home'
import type { ConfigPatch } from '../../shared/config'
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from '../scripted-provider'

const root = join(__dirname, '..', '..')
const tsxLoader = pathToFileURL(createRequire(__filename).resolve('tsx')).href
export const SCREENSHOTS = join(root, 'test-results', 'screenshots')
export const CHROMIUM = process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium'

export const WIDE = { width: 1280, height: 820 }
export const NARROW = { width: 1000, height: 700 }

export interface PageOptions {
  viewport?: { width: number; height: number }
  colorScheme?: 'light' | 'dark'
}

/**
 * A real Cairn in browser mode for UI tests: a temp data home, the scripted LLM, `cairn serve` as a
 * child process (the real CLI from source), and headless Debian Chromium driven by playwright-core.
 */
export interface E2E {
  home: string
  workspace: string
  server: ScriptedServer
  url: string
  quickUrl: string
  browser: Browser
  /** The main page (1280×820, light), not navigated yet. */
  page: Page
  /** Uncaught errors of every page this fixture opened (a test can assert there were none). */
  pageErrors: string[]
  /** A page in a fresh browser profile (its own localStorage), e.g. to prove state came from the server. */
  newPage(options?: PageOptions): Promise<Page>
  /** Saves `test-results/screenshots/<name>.png` of `target` (default: the main page). */
  screenshot(name: string, target?: Page): Promise<string>
  /** What `cairn serve` printed so far (for failure messages). */
  serveOutput(): string
  close(): Promise<void>
}

export interface E2EOptions {
  server?: ScriptedServerOptions
  config?: ConfigPatch
  /** false: no provider in config.json (first run). */
  configured?: boolean
  /** Prepares the data home before `cairn serve` starts (e.g. a skill the user already has). */
  seed?: (core: CairnCore) => Promise<void> | void
}

export async function startE2E(options: E2EOptions = {}): Promise<E2E> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}. Install it (apt-get install chromium, as .ci/run does) or point CAIRN_CHROMIUM at a Chromium binary.`)
  }
  const home = mkdtempSync(join(tmpdir(), 'cairn-e2e-'))
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-e2e-ws-'))
  const server = await startScriptedServer({ ...options.server })
  const config = new ConfigStore(ensureHome(home).configFile)
  // Titles from the model are tested on their own: elsewhere they would take scripted replies meant for the test.
  await config.update({ skills: { extraDirs: [] }, agent: { workspace, autoTitle: false } })
  if (options.configured !== false) {
    await config.update({ provider: { preset: 'custom', baseURL: server.url, model: 'scripted', maxRetries: 0, requestTimeoutMs: 15_000 } })
  }
  if (options.config) await config.update(options.config)
  if (options.seed) {
    const core = await CairnCore.open({ home })
    try {
      await options.seed(core)
    } finally {
      await core.close()
    }
  }

  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME }
  // First run means no key either: the key would otherwise come from the environment.
  if (options.configured !== false) env.CAIRN_API_KEY = 'sk-e2e'
  const serve = spawn(process.execPath, ['--import', tsxLoader, join(root, 'electron/cli/index.ts'), '--home', home, 'serve', '--port', '0'], {
    cwd: workspace,
    env,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  serve.stdout?.on('data', (data: Buffer) => (output += data.toString()))
  serve.stderr?.on('data', (data: Buffer) => (output += data.toString()))
  const exited = new Promise<void>((resolve) => serve.once('close', () => resolve()))
  let browser: Browser | null = null
  try {
    const { url, quickUrl } = await waitForUrls(serve, () => output)
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
    })
    const pageErrors: string[] = []
    const opened = browser
    const newPage = async (pageOptions: PageOptions = {}): Promise<Page> => {
      const context = await opened.newContext({ viewport: pageOptions.viewport ?? WIDE, colorScheme: pageOptions.colorScheme ?? 'light' })
      // Fail in seconds, not the 30 s default, when something never shows up.
      context.setDefaultTimeout(15_000)
      const created = await context.newPage()
      context.on('page', (other) => other.on('pageerror', (error) => pageErrors.push(error.message)))
      created.on('pageerror', (error) => pageErrors.push(error.message))
      return created
    }
    const page = await newPage()
    mkdirSync(SCREENSHOTS, { recursive: true })
    return {
      home,
      workspace,
      server,
      url,
      quickUrl,
      browser,
      page,
      pageErrors,
      newPage,
      async screenshot(name, target = page) {
        const path = join(SCREENSHOTS, `${name}.png`)
        await target.screenshot({ path, fullPage: false, animations: 'disabled', caret: 'hide' })
        return path
      },
      serveOutput: () => output,
      close: () => shutdown(browser, serve, exited, server, [home, workspace])
    }
  } catch (error) {
    await shutdown(browser, serve, exited, server, [home, workspace])
    throw error
  }
}

async function shutdown(browser: Browser | null, serve: ChildProcess, exited: Promise<void>, server: ScriptedServer, dirs: string[]): Promise<void> {
  await browser?.close().catch(() => {})
  if (serve.exitCode === null && serve.signalCode === null) {
    serve.kill('SIGTERM')
    // A serve that does not stop within a few seconds is killed, so a hang cannot stall the suite.
    const timer = setTimeout(() => serve.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }
  await server.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
}

/** The main and quick-prompt URLs `cairn serve` prints once it listens (the bench starts it the same way). */
export function waitForUrls(child: ChildProcess, output: () => string, timeoutMs = 30_000): Promise<{ url: string; quickUrl: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`cairn serve printed no URL in time:\n${output()}`)), timeoutMs)
    const check = (): void => {
      const url = output().match(/Open: (\S+)/)?.[1]
      const quickUrl = output().match(/Quick prompt: (\S+)/)?.[1]
      if (url && quickUrl) finish(null, { url, quickUrl })
    }
    const onClose = (code: number | null): void => finish(new Error(`cairn serve exited (${code}) before it was ready:\n${output()}`))
    function finish(error: Error | null, urls?: { url: string; quickUrl: string }): void {
      clearTimeout(timer)
      child.stdout?.off('data', check)
      child.stderr?.off('data', check)
      child.off('close', onClose)
      if (error) reject(error)
      else resolve(urls!)
    }
    child.stdout?.on('data', check)
    child.stderr?.on('data', check)
    child.once('close', onClose)
  })
}

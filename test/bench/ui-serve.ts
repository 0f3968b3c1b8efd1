/**
 * One seeded Cairn for the UI benchmark: a temp data home, the scripted LLM, the BUILT CLI
 * (`<root>/out/cli/cairn.js serve`, which serves `<root>/out/renderer`) as a child process, and
 * headless Chromium. Running the build rather than the sources lets the benchmark measure a copy of
 * an earlier build (`--root`) while the working tree changes.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { CairnCore } from '../../electron/core/cairn'
import { ConfigStore } from '../../electron/core/config/config-store'
import { ensureHome } from '../../electron/core/config/home'
import { waitForUrls } from '../e2e/fixture'
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from '../scripted-provider'

export const CHROMIUM = process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium'
export const VIEWPORT = { width: 1280, height: 820 }

export interface BenchCairn {
  url: string
  server: ScriptedServer
  browser: Browser
  /** A fresh page (its own browser context) at the app's URL, the composer shown. */
  openApp(): Promise<Page>
  close(): Promise<void>
}

export interface BenchCairnOptions {
  /** The Cairn folder with `out/` built (`npm run build`). */
  root: string
  server?: ScriptedServerOptions
  seed: (core: CairnCore) => void
}

export async function startBenchCairn(options: BenchCairnOptions): Promise<BenchCairn> {
  const cli = join(options.root, 'out', 'cli', 'cairn.js')
  if (!existsSync(cli) || !existsSync(join(options.root, 'out', 'renderer', 'index.html'))) {
    throw new Error(`No build in ${options.root}/out (cli/cairn.js and renderer/index.html). Run "npm run build" first.`)
  }
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}. Install it or point CAIRN_CHROMIUM at a Chromium binary.`)
  const home = mkdtempSync(join(tmpdir(), 'cairn-bench-ui-'))
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-bench-ui-ws-'))
  const server = await startScriptedServer({ ...options.server })
  const config = new ConfigStore(ensureHome(home).configFile)
  await config.update({
    provider: { preset: 'custom', baseURL: server.url, model: 'scripted', maxRetries: 0, requestTimeoutMs: 60_000 },
    skills: { extraDirs: [] },
    agent: { workspace, autoTitle: false },
    // The long conversation is sent whole: no compression call, no review, so only the UI is measured.
    context: { windowTokens: 100_000_000 },
    learning: { mode: 'off' }
  })
  const core = await CairnCore.open({ home })
  try {
    options.seed(core)
  } finally {
    await core.close()
  }

  const serve = spawn(process.execPath, [cli, '--home', home, 'serve', '--port', '0'], {
    cwd: workspace,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, CAIRN_API_KEY: 'sk-bench' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  serve.stdout?.on('data', (data: Buffer) => (output += data.toString()))
  serve.stderr?.on('data', (data: Buffer) => (output += data.toString()))
  const exited = new Promise<void>((resolve) => serve.once('close', () => resolve()))
  let browser: Browser | null = null
  const close = async (): Promise<void> => {
    await browser?.close().catch(() => {})
    if (serve.exitCode === null && serve.signalCode === null) {
      serve.kill('SIGTERM')
      const timer = setTimeout(() => serve.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(timer)
    }
    await server.close()
    for (const dir of [home, workspace]) rmSync(dir, { recursive: true, force: true })
  }
  try {
    const { url } = await waitForUrls(serve, () => output, 60_000)
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--enable-precise-memory-info']
    })
    const opened = browser
    return {
      url,
      server,
      browser,
      async openApp() {
        const context = await newBenchContext(opened)
        const page = await context.newPage()
        await page.goto(url)
        await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor()
        return page
      },
      close
    }
  } catch (error) {
    await close()
    throw error
  }
}

/**
 * A fresh browser profile at the benchmark's window size. tsx compiles the page callbacks with
 * esbuild's keepNames, which wraps inner functions in `__name(…)`: the page gets a no-op one.
 */
export async function newBenchContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: 'light' })
  context.setDefaultTimeout(120_000)
  await context.addInitScript('globalThis.__name = (target) => target')
  return context
}

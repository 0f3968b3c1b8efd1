/**
 * `npm start`, driven for real: scripts/desktop.mjs, electron-vite's build and its launch of
 * Electron, where a stand-in executable (ELECTRON_EXEC_PATH) runs the built main bundle under the
 * Electron stub. Also the steps before it: downloading Electron from a local mirror (and failing to,
 * with no network), and the native build's failures, each worded in three lines with no stack trace.
 */
import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

const ROOT = join(__dirname, '..', '..')
const STAND_IN = join(__dirname, 'fixtures', 'electron-stand-in')
const NODE_SQLITE = join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node')
const ELECTRON_VERSION = (JSON.parse(readFileSync(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version
const dirs: string[] = []
const servers: Server[] = []

function tempDir(prefix: string, parent = tmpdir()): string {
  const dir = mkdtempSync(join(parent, prefix))
  dirs.push(dir)
  return dir
}

afterEach(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))))
})

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** The environment of a developer's terminal, minus what would change the run (CI sets ELECTRON_SKIP_BINARY_DOWNLOAD). */
function baseEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of Object.keys(env)) {
    if (/^(ELECTRON_|CAIRN_|npm_)/i.test(key) || key === 'NODE_OPTIONS' || key === 'VITEST' || key.startsWith('VITEST_')) delete env[key]
  }
  // npm reads no ~/.npmrc under a temporary HOME: keep it from looking for its own updates.
  return { ...env, npm_config_update_notifier: 'false', ...extra }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

const desktop = (args: string[], env: NodeJS.ProcessEnv) => run(process.execPath, [join(ROOT, 'scripts', 'desktop.mjs'), ...args], baseEnv(env))

/** A project root whose node_modules/electron is a copy (so a download lands there, not in the checkout). */
function projectWithElectronCopy(): string {
  const root = tempDir('cairn-start-root-')
  const electron = join(root, 'node_modules', 'electron')
  mkdirSync(electron, { recursive: true })
  for (const file of ['package.json', 'install.js', 'checksums.json', 'index.js']) copyFileSync(join(ROOT, 'node_modules', 'electron', file), join(electron, file))
  for (const scope of ['@electron', '@electron-internal']) symlinkSync(join(ROOT, 'node_modules', scope), join(root, 'node_modules', scope))
  return root
}

/** A mirror that serves one Electron zip (a stand-in executable and its version file) and its checksum. */
async function electronMirror(): Promise<string> {
  const content = tempDir('cairn-electron-zip-')
  writeFileSync(join(content, 'electron'), '#!/bin/sh\necho stand-in\n', { mode: 0o755 })
  writeFileSync(join(content, 'version'), `v${ELECTRON_VERSION}`)
  const fileName = `electron-v${ELECTRON_VERSION}-${process.platform}-${process.arch}.zip`
  const zip = join(content, fileName)
  execFileSync('python3', ['-m', 'zipfile', '-c', zip, 'electron', 'version'], { cwd: content })
  const bytes = readFileSync(zip)
  const sums = `${createHash('sha256').update(bytes).digest('hex')} *${fileName}\n`
  const server = createServer((request, response) => {
    if (request.url === `/v${ELECTRON_VERSION}/${fileName}`) return response.writeHead(200, { 'content-length': bytes.length }).end(bytes)
    if (request.url === `/v${ELECTRON_VERSION}/SHASUMS256.txt`) return response.writeHead(200).end(sums)
    response.writeHead(404).end()
  })
  servers.push(server)
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/`
}

/** A port nothing listens on (a server opened and closed again). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as { port: number }
  await new Promise((closed) => server.close(closed))
  return port
}

function expectThreeLines(run: Run): string[] {
  const lines = run.stderr.trim().split('\n')
  expect(lines).toHaveLength(3)
  expect(run.stderr).not.toMatch(/^\s+at /m)
  expect(lines[2]).toContain('npm run demo')
  expect(lines[2]).toContain('cairn -- serve')
  return lines
}

describe('npm start', () => {
  it('builds the app and starts Electron: the app reaches ready, opens both windows with the built preload, and quits cleanly', async () => {
    mkdirSync(join(ROOT, 'test-results'), { recursive: true })
    const out = tempDir('start-chain-', join(ROOT, 'test-results'))
    const report = join(out, 'report.json')
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
    const started = await run(npm, ['start', '--', '--outDir', out, '--entry', join(out, 'main', 'index.js'), '--logLevel', 'warn'], baseEnv({
      ELECTRON_EXEC_PATH: STAND_IN,
      CAIRN_SQLITE_BINDING: NODE_SQLITE,
      CAIRN_STAND_IN_REPORT: report,
      CAIRN_HOME: tempDir('cairn-start-home-'),
      HOME: tempDir('cairn-start-user-')
    }))
    expect(started.stderr).not.toMatch(/Error|uninstall/)
    expect(started.code).toBe(0)
    expect(started.stdout).toContain('starting the Electron at ELECTRON_EXEC_PATH')
    const seen = JSON.parse(readFileSync(report, 'utf8'))
    expect(seen).toMatchObject({ entry: join(out, 'main', 'index.js'), started: true, ready: true, dialogs: [], exits: [] })
    const preload = join(out, 'preload', 'index.js')
    expect(seen.windows).toEqual([
      { page: 'index.html', pageExists: true, preload, preloadExists: true, sandbox: true, contextIsolation: true },
      { page: 'quick.html', pageExists: true, preload, preloadExists: true, sandbox: true, contextIsolation: true }
    ])
    expect(seen.quit).toEqual({ requested: true, completed: true, shortcutsReleased: true })
  }, 120_000)

  it('downloads a missing Electron binary (here from a local mirror), shows progress, and then goes on', async () => {
    const root = projectWithElectronCopy()
    const prepared = await desktop(['prepare'], {
      CAIRN_DESKTOP_ROOT: root,
      CAIRN_SQLITE_BINDING: NODE_SQLITE,
      ELECTRON_MIRROR: await electronMirror(),
      electron_use_remote_checksums: '1',
      electron_config_cache: tempDir('cairn-electron-cache-')
    })
    expect(prepared.stderr).toBe('')
    expect(prepared.code).toBe(0)
    expect(prepared.stdout).toContain(`downloading Electron ${ELECTRON_VERSION}`)
    expect(prepared.stdout).toMatch(/downloading Electron: 100%/)
    expect(prepared.stdout).toContain(`Electron ${ELECTRON_VERSION} is installed.`)
    expect(readFileSync(join(root, 'node_modules', 'electron', 'path.txt'), 'utf8')).toBe('electron')
    expect(statSync(join(root, 'node_modules', 'electron', 'dist', 'electron')).mode & 0o111).not.toBe(0)
  })

  it('with no network, says so in three lines (how to retry, what works without Electron) and keeps the details in a log', async () => {
    const root = projectWithElectronCopy()
    const failed = await desktop(['preview'], {
      CAIRN_DESKTOP_ROOT: root,
      ELECTRON_MIRROR: `http://127.0.0.1:${await closedPort()}/`,
      electron_config_cache: tempDir('cairn-electron-cache-')
    })
    expect(failed.code).toBe(1)
    const lines = expectThreeLines(failed)
    expect(lines[0]).toBe(`cairn: Electron ${ELECTRON_VERSION} could not be downloaded: no network (connect ECONNREFUSED 127.0.0.1:${/127\.0\.0\.1:(\d+)/.exec(lines[0])?.[1]}).`)
    expect(lines[1]).toContain('Run "npm start" again when online')
    const log = join(root, 'node_modules', '.cache', 'cairn-desktop', 'electron-download.log')
    expect(lines[1]).toContain(log)
    expect(readFileSync(log, 'utf8')).toMatch(/ECONNREFUSED[\s\S]*\n\s+at /)
    expect(existsSync(join(root, 'node_modules', 'electron', 'path.txt'))).toBe(false)
  })

  it('when better-sqlite3 cannot be built for Electron, names the cause: no network, or no build tools', async () => {
    const common = { ELECTRON_EXEC_PATH: STAND_IN, HOME: tempDir('cairn-start-user-'), CAIRN_ELECTRON_HEADERS_URL: `http://127.0.0.1:${await closedPort()}/` }
    const offline = await desktop(['preview'], { ...common, CAIRN_DESKTOP_ROOT: nativeProject() })
    expect(offline.code).toBe(1)
    expect(expectThreeLines(offline)[0]).toMatch(new RegExp(`could not be built for Electron ${ELECTRON_VERSION.replace(/\./g, '\\.')}: no network \\(`))

    // A PATH with node alone: no python3, make or C++ compiler.
    const bare = tempDir('cairn-bare-path-')
    symlinkSync(process.execPath, join(bare, 'node'))
    const noTools = await desktop(['preview'], { ...common, CAIRN_DESKTOP_ROOT: nativeProject(), PATH: bare })
    expect(noTools.code).toBe(1)
    const lines = expectThreeLines(noTools)
    expect(lines[0]).toContain('no C++ build tools (python3, make and a C++ compiler not found on PATH)')
    expect(lines[1]).toMatch(/Install the build tools \(.+\), then run "npm start" again/)
  })
})

/** A project root with the checkout's electron and better-sqlite3 (linked): the native step builds there, never in the checkout. */
function nativeProject(): string {
  const root = tempDir('cairn-start-native-')
  mkdirSync(join(root, 'node_modules'), { recursive: true })
  for (const name of ['electron', 'better-sqlite3']) symlinkSync(join(ROOT, 'node_modules', name), join(root, 'node_modules', name))
  return root
}

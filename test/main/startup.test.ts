import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildShell, REPO_ROOT, type ShellBuild } from './build-shell'

interface BootReport {
  windowsAtStart: number
  shownWhileQuitting: number
  quickWindow: Record<string, unknown> | null
  dialogs: Array<{ title: string; content: string }>
  exits: number[]
  quits: number
  windows: number
  handlers: string[]
}

let build: ShellBuild
const dirs: string[] = []

function tempDir(prefix = 'cairn-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(dir)
  return dir
}

/** Boots the built main process under the stub in a child process (real process, real files). */
async function boot(home: string, options: Record<string, unknown> = {}, extraEnv: NodeJS.ProcessEnv = {}): Promise<BootReport> {
  const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: home, HOME: tempDir('cairn-user-') }
  for (const key of ['ELECTRON_RENDERER_URL', 'CAIRN_SQLITE_BINDING', 'CAIRN_BASE_URL', 'CAIRN_MODEL', 'XDG_SESSION_TYPE', 'WAYLAND_DISPLAY']) delete env[key]
  Object.assign(env, extraEnv)
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'fixtures', 'boot-shell.ts'), build.mainEntry, tempDir('cairn-userdata-'), REPO_ROOT, JSON.stringify(options)],
    { cwd: REPO_ROOT, env, timeout: 60_000 }
  )
  // The report is the one JSON line; the shell's own log lines may come after it.
  return JSON.parse(stdout.split('\n').findLast((line) => line.startsWith('{'))!) as BootReport
}

beforeAll(async () => {
  build = await buildShell()
}, 120_000)

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('starting the app', () => {
  it('refuses a config.json that is not JSON: names the file in a dialog, quits, leaves the file untouched', async () => {
    const home = tempDir()
    const broken = '{ "ui": { "theme": "dark", }\n'
    writeFileSync(join(home, 'config.json'), broken)
    const report = await boot(home)
    expect(report.dialogs).toHaveLength(1)
    expect(report.dialogs[0].title).toBe('Cairn cannot start')
    expect(report.dialogs[0].content).toContain(join(home, 'config.json'))
    expect(report.dialogs[0].content).toContain('is not valid JSON')
    expect(report.exits).toEqual([1])
    expect(report.windows).toBe(0)
    expect(readFileSync(join(home, 'config.json'), 'utf8')).toBe(broken)
  })

  it('refuses settings that do not validate, saying which one, without rewriting the file', async () => {
    const home = tempDir()
    const invalid = JSON.stringify({ learning: { enabled: 'yes' }, mine: 1 })
    writeFileSync(join(home, 'config.json'), invalid)
    const report = await boot(home)
    expect(report.dialogs[0]?.content).toContain(join(home, 'config.json'))
    expect(report.dialogs[0]?.content).toContain('learning.enabled')
    expect(report.exits).toEqual([1])
    expect(readFileSync(join(home, 'config.json'), 'utf8')).toBe(invalid)
  })

  it('a second instance quits at once and opens nothing', async () => {
    const report = await boot(tempDir(), { singleInstance: false })
    expect(report).toMatchObject({ dialogs: [], exits: [], windows: 0, handlers: [] })
    expect(report.quits).toBe(1)
  })

  it('starts on an empty data home with defaults and registers exactly one IPC handler', async () => {
    const home = tempDir()
    const report = await boot(home)
    expect(report).toMatchObject({ dialogs: [], exits: [], windows: 2, handlers: ['cairn:request'] })
    expect(JSON.parse(readFileSync(join(home, 'config.json'), 'utf8'))).toEqual({})
  })

  it('writes its log under the data home, where cairn doctor points', async () => {
    const home = tempDir()
    await boot(home)
    const logged = readFileSync(join(home, 'logs', 'main.log'), 'utf8')
    expect(logged).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z INFO Cairn 0\.0\.0-smoke starting \(.+\), data home /m)
  })
})

describe('behaving like a desktop app', () => {
  it('quits when the main window is closed and no tray shows it is still running (the hidden quick prompt does not keep it alive)', async () => {
    const report = await boot(tempDir(), { then: 'closeMain' })
    expect(report.windowsAtStart).toBe(2)
    expect(report.quits).toBeGreaterThanOrEqual(1)
    expect(report.dialogs).toEqual([])
  })

  it('opens no window while quitting, when the Dock icon is clicked or Cairn is started again', async () => {
    const report = await boot(tempDir(), { then: 'activateWhileQuitting' })
    expect(report.quits).toBe(1)
    expect(report.windows).toBe(report.windowsAtStart)
    expect(report.shownWhileQuitting).toBe(0)
  })

  it('on Wayland opens the quick prompt without asking to stay on top (it cannot)', async () => {
    const wayland = await boot(tempDir(), {}, { XDG_SESSION_TYPE: 'wayland' })
    expect(wayland.quickWindow).toMatchObject({ alwaysOnTop: false })
    const forcedX11 = await boot(tempDir(), { switches: { 'ozone-platform': 'x11' } }, { XDG_SESSION_TYPE: 'wayland' })
    expect(forcedX11.quickWindow).toMatchObject({ alwaysOnTop: true })
  })
})

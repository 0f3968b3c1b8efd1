/**
 * Smoke test of the built shell: the main bundle, built by electron-vite exactly as `out/main/index.js`
 * is but into test-results/app-shell (build-shell.ts, so a concurrent `npm run build` cannot race it), runs under
 * plain Node with a stub `electron` module, over a real data home, a real SQLite file, the scripted
 * OpenAI-compatible server, and a real review worker process started through the stubbed
 * `utilityProcess.fork`. Tests run in order and share one running shell.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ipcRoutes, type IpcRoute } from '../../shared/ipc/contract'
import type { IpcResult } from '../../shared/ipc/define'
import { ConfigStore } from '../../electron/core/config/config-store'
import { HERMETIC_ENV_KEYS } from '../../electron/core/learning/host/spawn-worker'
import { until } from '../helpers/review-fixture'
import { isChatRequest, startScriptedServer, type ScriptedServer } from '../scripted-provider'
import { buildShell, REPO_ROOT, type ShellBuild } from './build-shell'
import { routeSamples } from './route-samples'
import { installElectronStub, ipcEvent, stubState, type ElectronStub, type FakeBrowserWindow, type FakeWebContents } from './electron-stub'

const API_KEY = 'sk-smoke-secret-1234'
const REFUSED_SHORTCUT = 'CommandOrControl+Alt+K'
// HOME too: the default workspace is a Cairn folder in the user's home, and the test must not make one in the real home.
const ENV_KEYS = ['CAIRN_HOME', 'CAIRN_BASE_URL', 'CAIRN_MODEL', 'CAIRN_API_KEY', 'OPENAI_API_KEY', 'ELECTRON_RENDERER_URL', 'CAIRN_SQLITE_BINDING', 'HOME'] as const

let build: ShellBuild
let stub: ElectronStub
let server: ScriptedServer
let home: string
let userData: string
let userHome: string
const savedEnv: Record<string, string | undefined> = {}
// Writable view (electron-vite's types declare ELECTRON_RENDERER_URL read-only).
const env = process.env as Record<string, string | undefined>

function windowLoading(page: string): FakeBrowserWindow {
  const window = stubState.windows.find((candidate) => candidate.loaded.file?.endsWith(`${page}.html`))
  if (!window) throw new Error(`no window loaded ${page}.html`)
  return window
}
const mainWindow = () => windowLoading('index')
const quickWindow = () => windowLoading('quick')

async function request(route: string, input?: unknown, contents: FakeWebContents = mainWindow().webContents, frame?: { url?: string; parent?: unknown } | null): Promise<IpcResult<any>> {
  const handler = stubState.handlers.get('cairn:request')
  if (!handler) throw new Error('cairn:request is not registered')
  return (await handler(ipcEvent(contents, frame), route, input)) as IpcResult<any>
}

async function ok(route: string, input?: unknown): Promise<any> {
  const result = await request(route, input)
  if (!result.ok) throw new Error(`${route} failed: ${result.error.code} ${result.error.message}`)
  return result.data
}

/** Payloads of one event, as the main window received them on `cairn:event`. */
function events(name: string, window: FakeBrowserWindow = mainWindow()): any[] {
  return window.webContents.sent.filter((sent) => sent.channel === 'cairn:event' && sent.args[0] === name).map((sent) => sent.args[1])
}

async function chatIdle(sessionId: string): Promise<void> {
  await until(() => (events('chat.status').filter((status) => status.sessionId === sessionId).at(-1)?.running ?? true) === false, 'the chat turn to finish')
}

beforeAll(async () => {
  build = await buildShell()
  server = await startScriptedServer({ apiKey: API_KEY })
  home = mkdtempSync(join(tmpdir(), 'cairn-'))
  userData = mkdtempSync(join(tmpdir(), 'cairn-userdata-'))
  userHome = mkdtempSync(join(tmpdir(), 'cairn-userhome-'))
  const config = {
    provider: { preset: 'custom', baseURL: server.url, model: 'scripted', maxRetries: 0, requestTimeoutMs: 10_000 },
    skills: { extraDirs: [] },
    agent: { autoTitle: false },
    futureSection: { keptBy: 'older versions' }
  }
  writeFileSync(join(home, 'config.json'), JSON.stringify(config, null, 2) + '\n')
  for (const key of ENV_KEYS) savedEnv[key] = env[key]
  for (const key of ENV_KEYS) delete env[key]
  env.CAIRN_HOME = home
  env.HOME = userHome
  stub = installElectronStub({ userData, appPath: REPO_ROOT, registerShortcut: (accelerator) => accelerator !== REFUSED_SHORTCUT })
  createRequire(__filename)(build.mainEntry)
  await until(() => stubState.handlers.has('cairn:request') && stubState.trays.length === 1, 'the shell to start')
}, 120_000)

afterAll(async () => {
  if (stub && stub.app.quits.length === 0) {
    stub.app.quit()
    await until(() => stub.app.quits.length > 0, 'the app to quit').catch(() => {})
  }
  for (const call of stubState.forks) call.child.kill('SIGKILL')
  stub?.restore()
  await server?.close()
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete env[key]
    else env[key] = savedEnv[key]
  }
  for (const dir of [home, userData, userHome]) if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('the built shell', () => {
  it('opens the main and quick windows sandboxed, isolated and with the built preload', () => {
    expect(stubState.dialogs).toEqual([])
    expect(stubState.windows).toHaveLength(2)
    for (const window of stubState.windows) {
      expect(window.options.webPreferences).toMatchObject({
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        webSecurity: true,
        webviewTag: false,
        allowRunningInsecureContent: false,
        preload: build.preloadEntry
      })
      expect(window.webContents.windowOpenHandler).toBeTypeOf('function')
    }
    expect(existsSync(build.preloadEntry)).toBe(true)
    expect(mainWindow().loaded.file).toBe(join(build.outDir, 'renderer', 'index.html'))
    expect(mainWindow().isVisible()).toBe(true)
    expect(quickWindow().options).toMatchObject({ width: 560, height: 420, frame: false, alwaysOnTop: true, skipTaskbar: true, show: false })
    expect(quickWindow().isVisible()).toBe(false)
    expect(stubState.trays).toHaveLength(1)
    expect(stubState.trays[0].item('Quick prompt')).toBeDefined()
    expect([...stubState.shortcuts.registered.keys()]).toEqual(['CommandOrControl+Shift+Space'])
  })

  it('keeps pages on their own files, denies new windows and permissions, sends only https links out, adds a CSP header', () => {
    const contents = mainWindow().webContents
    expect(contents.navigate('https://evil.example/phish')).toBe(true)
    expect(contents.navigate('file:///etc/passwd')).toBe(true)
    expect(contents.navigate(pathToFileURL(join(build.outDir, 'renderer', 'index.html')).href + '#/timeline')).toBe(false)

    expect(contents.windowOpenHandler!({ url: 'https://example.com/docs' })).toEqual({ action: 'deny' })
    expect(contents.windowOpenHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
    expect(contents.windowOpenHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' })
    expect(contents.windowOpenHandler!({ url: 'http://example.com/plain' })).toEqual({ action: 'deny' })
    expect(stubState.openedExternally).toEqual(['https://example.com/docs'])

    const answers: boolean[] = []
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read']) stubState.session.permissionRequest!(contents, permission, (granted) => answers.push(granted))
    expect(answers).toEqual([false, false, false, false])
    expect(stubState.session.permissionCheck!(contents, 'hid')).toBe(false)

    let headers: Record<string, string[]> | undefined
    stubState.session.headers!({ responseHeaders: { 'content-security-policy': ["script-src *"], 'x-other': ['1'] } }, (response) => (headers = response.responseHeaders))
    expect(headers!['x-other']).toEqual(['1'])
    expect(headers!['content-security-policy']).toBeUndefined()
    expect(headers!['Content-Security-Policy'][0]).toContain("script-src 'self';")
    expect(headers!['Content-Security-Policy'][0]).not.toMatch(/unsafe-eval/)
  })

  it('refuses requests that do not come from the main frame of a Cairn page, and the quick window what is not its own', async () => {
    const main = mainWindow().webContents
    const refusals = [
      await request('app.info', undefined, main, { url: 'https://evil.example/' }),
      await request('app.info', undefined, main, { parent: {} }),
      await request('app.info', undefined, main, null),
      await request('app.info', undefined, Object.assign(Object.create(main), { id: 9999 })),
      await request('app.info', undefined, Object.assign(Object.create(main), { getType: () => 'webview' })),
      await request('app.info', undefined, main, { url: pathToFileURL(join(build.outDir, 'renderer-evil', 'index.html')).href })
    ]
    for (const refusal of refusals) expect(refusal).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } })
    expect(await request('app.info', undefined, quickWindow().webContents)).toMatchObject({ ok: true, data: { mode: 'desktop' } })
    // The quick prompt asks and answers; it cannot change settings or undo what was learned.
    expect(await request('settings.setApiKey', { apiKey: 'sk-from-quick' }, quickWindow().webContents)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_ROUTE' } })
    expect(await request('timeline.revert', { id: 1 }, quickWindow().webContents)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_ROUTE' } })
    expect(await request('no.such.route', {})).toMatchObject({ ok: false, error: { code: 'ROUTE_NOT_FOUND' } })
  })

  it('stores the API key encrypted in secrets.json (0600), never in config.json or in what windows receive', async () => {
    const view = await ok('settings.setApiKey', { apiKey: API_KEY })
    expect(view).toMatchObject({ hasApiKey: true, keyHint: '1234', keyStorage: 'os' })
    expect(JSON.stringify(view)).not.toContain(API_KEY)
    const secretsFile = join(home, 'secrets.json')
    expect(statSync(secretsFile).mode & 0o777).toBe(0o600)
    const secrets = readFileSync(secretsFile, 'utf8')
    expect(secrets).not.toContain(API_KEY)
    expect(JSON.parse(secrets).apiKey.ciphertext).toMatch(/^[A-Za-z0-9+/=]+$/)
    expect(readFileSync(join(home, 'config.json'), 'utf8')).not.toContain(API_KEY)
  })

  let sessionId = ''

  it('chats through the IPC bridge and streams the turn to the windows', async () => {
    const started = await ok('chat.send', { sessionId: null, text: 'I always deploy with docker compose.' })
    sessionId = started.sessionId
    await chatIdle(sessionId)
    const stored = await ok('sessions.get', { sessionId })
    expect(stored.messages.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant'])
    expect(events('chat.event', quickWindow()).length).toBeGreaterThan(0)
    const chat = server.chatRequests()
    expect(chat.length).toBeGreaterThan(0)
    expect(chat[0].headers.authorization).toBe(`Bearer ${API_KEY}`)
  })

  it('runs a review in the built worker chunk through utilityProcess.fork, with the key in the start message only', async () => {
    const { reviewId } = await ok('learning.reviewNow', { sessionId })
    await until(() => events('review.event').some((event) => event.reviewId === reviewId && (event.type === 'review_finished' || event.type === 'review_failed')), 'the review to end', 60_000)
    const ended = events('review.event').find((event) => event.reviewId === reviewId && event.type !== 'review_started' && event.type.startsWith('review_f'))
    expect(ended.type, JSON.stringify(ended)).toBe('review_finished')

    expect(stubState.forks).toHaveLength(1)
    const [call] = stubState.forks
    expect(build.workerChunks).toContain(call.modulePath)
    expect(call.options).toMatchObject({ serviceName: 'Cairn review', stdio: 'pipe' })
    expect(Object.keys(call.options.env ?? {}).every((key) => (HERMETIC_ENV_KEYS as readonly string[]).includes(key))).toBe(true)
    expect(JSON.stringify(call.options.env)).not.toContain(API_KEY)
    // The chunk stands alone: a utility process must not run the main entry (toolchain.md §2).
    const firstLine = readFileSync(call.modulePath, 'utf8').split('\n')[0]
    expect(firstLine).not.toMatch(/require\(["']\.\.?\/(index|main)/)
    expect(readFileSync(call.modulePath, 'utf8')).not.toMatch(/require\(["'](\.\.\/)+index(\.js)?["']\)|require\(["']electron["']\)/)

    const reviewRequests = server.chatRequests().filter((chat) => JSON.stringify(chat.body.messages[0]).includes('background review'))
    expect(reviewRequests.length).toBeGreaterThan(0)
    expect(reviewRequests.every((chat) => chat.status === 200)).toBe(true)
  })

  it('works in ~/Cairn by default, picks another folder with the system dialog, never the app’s own folder', async () => {
    expect((await ok('sessions.get', { sessionId })).session.workspace).toBe(join(userHome, 'Cairn'))
    expect(statSync(join(userHome, 'Cairn')).isDirectory()).toBe(true)

    const picked = mkdtempSync(join(tmpdir(), 'cairn-picked-'))
    stubState.openDialogAnswer = { canceled: false, filePaths: [picked] }
    expect(await ok('window.pickFolder', { defaultPath: userHome })).toEqual({ path: picked })
    expect(stubState.openDialogs.at(-1)).toMatchObject({
      parent: mainWindow(),
      options: { title: 'Choose the folder Cairn works in', properties: ['openDirectory', 'createDirectory'], defaultPath: userHome }
    })
    expect(await ok('sessions.setWorkspace', { sessionId, path: picked })).toEqual({ path: picked })
    expect((await ok('sessions.get', { sessionId })).session.workspace).toBe(picked)
    // The shell told the core the app's own folder (app.getAppPath()): no conversation works there.
    expect(await request('sessions.setWorkspace', { sessionId, path: join(REPO_ROOT, 'electron') })).toMatchObject({
      ok: false,
      error: { code: 'WORKSPACE', params: { problem: 'forbidden', root: REPO_ROOT } }
    })
    stubState.openDialogAnswer = { canceled: true, filePaths: [] }
    expect(await ok('window.pickFolder', {})).toEqual({ path: null })
    // The quick prompt may not change folders.
    expect(await request('window.pickFolder', {}, quickWindow().webContents)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_ROUTE' } })
    rmSync(picked, { recursive: true, force: true })
  })

  it('answers every route of the contract through the one handler (none unknown, none crashing)', async () => {
    let ledgerId = 0
    const latestLedgerId = () => {
      ledgerId = events('ledger.changed').at(-1)?.entry.id ?? 0
      return ledgerId
    }
    const samples = routeSamples({ sessionId, apiKey: API_KEY, userHome, latestLedgerId, chatIdle, events: (name) => events(name) })
    expect(Object.keys(samples).sort()).toEqual(Object.keys(ipcRoutes).sort())
    const failures: string[] = []
    for (const [route, sample] of Object.entries(samples) as Array<[IpcRoute, () => unknown]>) {
      const result = await request(route, await sample())
      expect(result.ok === true || result.ok === false, `${route} answered with an envelope`).toBe(true)
      if (!result.ok && !['NOT_FOUND', 'BUSY'].includes(result.error.code)) failures.push(`${route}: ${result.error.code} ${result.error.message}`)
    }
    expect(failures).toEqual([])
    expect(ledgerId).toBeGreaterThan(0)
    expect(events('app.navigate')).toContainEqual({ view: 'chat', sessionId })
    expect(quickWindow().calls).toContain('hide')
    expect(stubState.openedExternally).toContain('https://example.com/guide')
    const config = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8'))
    expect(config.ui.theme).toBe('dark')
    expect(config.futureSection).toEqual({ keptBy: 'older versions' })
  })

  it('refuses to open anything but https links from the renderer', async () => {
    const before = stubState.openedExternally.length
    expect(await request('shell.openExternal', { url: 'http://example.com/' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect(await request('shell.openExternal', { url: 'file:///etc/passwd' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect(stubState.openedExternally).toHaveLength(before)
  })

  it('shows recently learned changes in the tray and opens the timeline at the clicked one', async () => {
    const tray = stubState.trays[0]
    await until(() => (tray.item('Recently learned')?.submenu?.[0]?.label ?? '').startsWith('Undo: Profile'), 'the tray to list the revert')
    const recent = tray.item('Recently learned')!.submenu!
    expect(recent.length).toBeLessThanOrEqual(5)
    expect(recent.map((item) => item.label)).toContain('Profile + "Deploys with docker compose"')
    const navigations = events('app.navigate').length
    recent[0].click!({ checked: false })
    const navigation = events('app.navigate').at(navigations)
    expect(navigation).toMatchObject({ view: 'timeline' })
    expect(navigation.ledgerId).toBeGreaterThan(0)
    expect(stubState.images.some((path) => /tray(Template)?\.png$/.test(path) && existsSync(path))).toBe(true)
  })

  it('pauses learning from the tray and writes learning.enabled to config.json', async () => {
    const tray = stubState.trays[0]
    tray.item('Pause learning')!.click!({ checked: true })
    await until(() => JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')).learning?.enabled === false, 'learning.enabled to be written')
    await until(() => tray.item('Pause learning')?.checked === true, 'the tray checkbox to follow')
    expect(tray.tooltip).toContain('Learning is paused')
    expect(events('settings.changed').at(-1).config.learning.enabled).toBe(false)
    expect((await ok('learning.status')).enabled).toBe(false)
  })

  it('toggles the quick prompt with the global shortcut and re-registers it when the setting changes', async () => {
    const toggle = stubState.shortcuts.registered.get('CommandOrControl+Shift+Space')
    expect(toggle).toBeTypeOf('function')
    toggle!()
    expect(quickWindow().isVisible()).toBe(true)
    expect(quickWindow().getBounds()).toMatchObject({ x: (1920 - 560) / 2, y: (1040 - 420) / 2 })
    toggle!()
    expect(quickWindow().isVisible()).toBe(false)

    await ok('settings.update', { patch: { ui: { shortcut: REFUSED_SHORTCUT } } })
    const tray = stubState.trays[0]
    await until(() => tray.tooltip.includes('taken by another application'), 'the tooltip to explain the refused shortcut')
    expect(tray.tooltip).toContain(`${REFUSED_SHORTCUT} is taken by another application. Cairn kept CommandOrControl+Shift+Space.`)
    expect([...stubState.shortcuts.registered.keys()]).toEqual(['CommandOrControl+Shift+Space'])

    await ok('settings.update', { patch: { ui: { shortcut: 'Alt+Shift+C' } } })
    await until(() => tray.tooltip.includes('Quick prompt: Alt+Shift+C'), 'the tooltip to show the new shortcut')
    expect([...stubState.shortcuts.registered.keys()]).toEqual(['Alt+Shift+C'])
  })

  it('has an application menu and a text context menu, both in the user\'s language; the menu\'s New chat opens one', async () => {
    const roles = (menu: any[] | undefined, top: string) => menu?.find((item) => item.label === top)?.submenu?.map((item: any) => item.role).filter(Boolean)
    expect(roles(stubState.applicationMenus.at(-1), 'Edit')).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']))
    expect(roles(stubState.applicationMenus.at(-1), 'View')).toEqual(expect.arrayContaining(['zoomIn', 'zoomOut', 'resetZoom', 'toggleDevTools']))
    const contents = mainWindow().webContents
    const field = { isEditable: true, selectionText: '', linkURL: '', misspelledWord: 'recieve', dictionarySuggestions: ['receive'], editFlags: { canUndo: false, canRedo: false, canCut: false, canCopy: false, canPaste: true, canSelectAll: true } }
    contents.emit('context-menu', {}, field)
    const popup = stubState.popups.at(-1)!
    expect(popup.window).toBe(mainWindow())
    popup.template.find((item) => item.label === 'receive')!.click!({ checked: false })
    expect(contents.replacedWords).toEqual(['receive'])
    expect(popup.template.find((item) => item.role === 'paste')).toMatchObject({ enabled: true })

    await ok('settings.update', { patch: { ui: { language: 'zh-CN' } } })
    await until(() => stubState.applicationMenus.at(-1)?.some((item) => item.label === '编辑') ?? false, 'the menu to follow the language')
    contents.emit('context-menu', {}, { ...field, misspelledWord: '', isEditable: false, selectionText: 'some text' })
    expect(stubState.popups.at(-1)!.template).toEqual([{ role: 'copy', label: '复制' }])
    await ok('settings.update', { patch: { ui: { language: 'en' } } })

    const fileMenu = stubState.applicationMenus.at(-1)!.find((item) => item.label === 'File')!
    fileMenu.submenu!.find((item) => item.label === 'New chat')!.click!({ checked: false })
    expect(events('app.navigate')).toContainEqual({ view: 'chat', newChat: true })
  })

  it('picks up settings the CLI writes to config.json while the app runs', async () => {
    await new ConfigStore(join(home, 'config.json')).update({ ui: { theme: 'light' } })
    expect((await ok('settings.get')).config.ui.theme).toBe('light')
    await until(() => events('settings.changed').at(-1)?.config.ui.theme === 'light', 'the windows to hear about the CLI change', 20_000)
  })

  it('quits in order: shortcuts, tray and IPC released, the core closed, the window place remembered', async () => {
    stub.app.quit()
    await until(() => stub.app.quits.length === 1, 'the app to quit', 30_000)
    expect(stubState.shortcuts.unregisterAll).toBeGreaterThan(0)
    expect(stubState.shortcuts.registered.size).toBe(0)
    expect(stubState.trays[0].isDestroyed()).toBe(true)
    expect(stubState.handlers.has('cairn:request')).toBe(false)
    const state = JSON.parse(readFileSync(join(userData, 'window-state.json'), 'utf8'))
    expect(state.bounds).toMatchObject({ width: 1100, height: 760 })
    expect(stubState.forks.every((call) => call.child.exitCode !== null || call.child.signalCode !== null)).toBe(true)
  })
})

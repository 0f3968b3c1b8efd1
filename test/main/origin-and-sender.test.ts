import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IpcResult } from '../../shared/ipc/define'
import { checkSender, type SenderFacts } from '../../electron/main/ipc/validate-sender'
import { appOrigin, externalUrl, isAppUrl, pageLocation } from '../../electron/main/windows/app-origin'
import { appFixture, type AppFixture } from '../helpers/app-fixture'
import { installElectronStub, type ElectronStub } from './electron-stub'

const rendererDir = join('/', 'opt', 'cairn', 'out', 'renderer')
const built = appOrigin(rendererDir, {})
const dev = appOrigin(rendererDir, { ELECTRON_RENDERER_URL: 'http://localhost:5173' })
const page = (name: string) => pathToFileURL(join(rendererDir, name)).href

describe('which pages are Cairn’s', () => {
  it('accepts the built pages, with a hash or query', () => {
    expect(isAppUrl(page('index.html'), built)).toBe(true)
    expect(isAppUrl(`${page('quick.html')}#/chat?x=1`, built)).toBe(true)
  })

  it('rejects look-alike folders, traversal, other files and other schemes', () => {
    expect(isAppUrl(pathToFileURL(join('/', 'opt', 'cairn', 'out', 'renderer-evil', 'index.html')).href, built)).toBe(false)
    expect(isAppUrl('file:///opt/cairn/out/renderer/../main/index.js', built)).toBe(false)
    expect(isAppUrl('file:///etc/passwd', built)).toBe(false)
    expect(isAppUrl('file://evil-host/opt/cairn/out/renderer/index.html', built)).toBe(false)
    expect(isAppUrl(pathToFileURL(rendererDir).href, built)).toBe(false)
    expect(isAppUrl('https://evil.example/index.html', built)).toBe(false)
    expect(isAppUrl('about:blank', built)).toBe(false)
    expect(isAppUrl('not a url', built)).toBe(false)
    expect(isAppUrl(undefined, built)).toBe(false)
  })

  it('in development accepts only the dev server’s own origin', () => {
    expect(isAppUrl('http://localhost:5173/index.html', dev)).toBe(true)
    expect(isAppUrl('http://localhost:5174/index.html', dev)).toBe(false)
    expect(isAppUrl('http://localhost:5173.evil.example/index.html', dev)).toBe(false)
    expect(isAppUrl('http://localhost:5173/index.html', built)).toBe(false)
  })

  it('loads the dev server page in development and the built file otherwise', () => {
    expect(pageLocation('quick', dev)).toEqual({ kind: 'url', url: 'http://localhost:5173/quick.html' })
    expect(pageLocation('index', built)).toEqual({ kind: 'file', path: join(rendererDir, 'index.html') })
    expect(appOrigin(rendererDir, { ELECTRON_RENDERER_URL: '::not a url' }).devServerUrl).toBeNull()
  })

  it('lets only https links out', () => {
    expect(externalUrl('https://example.com/a b')).toBe('https://example.com/a%20b')
    for (const url of ['http://example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'mailto:a@b.c', 'smb://host/share', 'https://', 'nope']) {
      expect(externalUrl(url), url).toBeNull()
    }
  })
})

describe('checking an IPC sender', () => {
  const windows = (id: number) => (id === 1 ? 'main' : id === 2 ? 'quick' : null)
  const facts = (overrides: Partial<SenderFacts> = {}): SenderFacts => ({
    frame: { url: page('index.html'), isMainFrame: true },
    webContentsId: 1,
    webContentsType: 'window',
    ...overrides
  })

  it('trusts the main frame of our windows and says which window asked', () => {
    expect(checkSender(facts(), windows, built)).toEqual({ ok: true, kind: 'main' })
    expect(checkSender(facts({ webContentsId: 2, frame: { url: page('quick.html'), isMainFrame: true } }), windows, built)).toEqual({ ok: true, kind: 'quick' })
  })

  it('refuses sub-frames, webviews, unknown windows, gone frames and foreign pages, saying why', () => {
    const cases: Array<[Partial<SenderFacts>, string]> = [
      [{ frame: { url: page('index.html'), isMainFrame: false } }, 'sub-frame'],
      [{ webContentsType: 'webview' }, 'webview'],
      [{ webContentsId: 7 }, 'not one of the Cairn windows'],
      [{ frame: null }, 'frame is gone'],
      [{ frame: { url: 'https://evil.example/', isMainFrame: true } }, 'is not a Cairn page']
    ]
    for (const [overrides, reason] of cases) {
      const verdict = checkSender(facts(overrides), windows, built)
      expect(verdict.ok).toBe(false)
      expect(!verdict.ok && verdict.reason).toContain(reason)
    }
  })
})

describe('routes a window may call, through the IPC bridge', () => {
  const MAIN = 1
  const QUICK = 2
  let stub: ElectronStub
  let fx: AppFixture
  let userData: string
  let ask: (contentsId: number, page: string, route: string, input?: unknown) => Promise<IpcResult<any>>
  /** What a request answered, failing the test on a refusal. */
  const dataOf = async (answer: Promise<IpcResult<any>>): Promise<any> => {
    const result = await answer
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
    return result.data
  }

  beforeAll(async () => {
    userData = mkdtempSync(join(tmpdir(), 'cairn-userdata-'))
    stub = installElectronStub({ userData, appPath: rendererDir })
    // The bridge imports electron: load it once the stub stands in for it.
    const { answerRequest } = await import('../../electron/main/ipc/bridge')
    fx = await appFixture()
    const options = {
      app: fx.app,
      origin: built,
      windowKind: (id: number) => (id === MAIN ? 'main' : id === QUICK ? 'quick' : null),
      broadcast: () => {},
      checkOutputs: true
    } as const
    ask = (contentsId, name, route, input) => {
      const event = { sender: { id: contentsId, getType: () => 'window' }, senderFrame: { url: page(name), parent: null } }
      return answerRequest(options, event as never, route, input)
    }
  })

  afterAll(async () => {
    await fx?.close()
    stub?.restore()
    rmSync(userData, { recursive: true, force: true })
  })

  it('refuses the quick window everything but its own routes, and changes nothing', async () => {
    for (const [route, input] of [
      ['settings.setApiKey', { apiKey: 'sk-from-quick' }],
      ['timeline.revert', { id: 1 }],
      ['memory.add', { target: 'user', content: 'Planted by the quick window.' }],
      ['settings.update', { patch: { ui: { theme: 'dark' } } }]
    ] as const) {
      const result = await ask(QUICK, 'quick.html', route, input)
      expect(result, route).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_ROUTE' } })
    }
    const settings = await ask(MAIN, 'index.html', 'settings.get')
    expect(settings).toMatchObject({ ok: true, data: { keyHint: 'test', config: { ui: { theme: 'system' } } } })
    expect((await dataOf(ask(MAIN, 'index.html', 'memory.get'))).user.entries).toEqual([])
    expect(await ask(QUICK, 'quick.html', 'app.info')).toMatchObject({ ok: true })
    expect(await ask(MAIN, 'index.html', 'timeline.list', {})).toMatchObject({ ok: true })
  })

  it('marks a conversation started in the quick window as such, whatever the page says', async () => {
    fx.server.enqueue({ text: 'Quick answer.' }, { text: 'Main answer.' })
    const quick = await dataOf(ask(QUICK, 'quick.html', 'chat.send', { sessionId: null, text: 'hello', source: 'main' }))
    const main = await dataOf(ask(MAIN, 'index.html', 'chat.send', { sessionId: null, text: 'hello', source: 'quick' }))
    expect(fx.core.sessions.get(quick.sessionId)?.source).toMatch(/-quick$/)
    expect(fx.core.sessions.get(main.sessionId)?.source).not.toMatch(/quick/)
    await fx.waitFor('chat.status', (status) => status.sessionId === main.sessionId && !status.running)
    await fx.waitFor('chat.status', (status) => status.sessionId === quick.sessionId && !status.running)
  })
})

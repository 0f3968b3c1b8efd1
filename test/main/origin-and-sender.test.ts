import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { checkSender, type SenderFacts } from '../../electron/main/ipc/validate-sender'
import { appOrigin, externalUrl, isAppUrl, pageLocation } from '../../electron/main/windows/app-origin'

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

import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildShell, REPO_ROOT, type ShellBuild } from './build-shell'

const SCRIPT = join(REPO_ROOT, 'scripts', 'check-electron-security.mjs')

interface Finding {
  severity: string
  id: string
  file: string
  line: number
  message: string
}

async function check(args: string[]): Promise<{ code: number; findings: Finding[]; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRIPT, ...args, '--json'], { cwd: REPO_ROOT })
    return { code: 0, findings: JSON.parse(stdout).findings, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    const findings = failed.stdout.trim() ? (JSON.parse(failed.stdout).findings as Finding[]) : []
    return { code: failed.code, findings, stdout: failed.stdout, stderr: failed.stderr }
  }
}

let build: ShellBuild
let bad: string

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, text)
}

beforeAll(async () => {
  build = await buildShell()
  bad = mkdtempSync(join(tmpdir(), 'cairn-insecure-'))
  write(
    join(bad, 'main', 'index.js'),
    [
      '// electron/main/windows/main-window.ts',
      'let electron = require("electron");',
      'const win = new electron.BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: !1, webSecurity: false,',
      '  allowRunningInsecureContent: true, experimentalFeatures: true, enableBlinkFeatures: "X", webviewTag: true } });',
      'function isSafe(url) { const parsed = new URL(url); return parsed.protocol === "https:"; }',
      'function openChecked(url) { if (isSafe(url)) electron.shell.openExternal(url); }',
      'function openAnything(url) { electron.shell.openExternal(url); }',
      'eval("1 + 1");',
      'const f = new Function("return 1");',
      '// a comment that mentions eval(x) and nodeIntegration: true is not code',
      '// node_modules/some-validator/dist/compile.js',
      'const probe = new Function("");',
      '// electron/core/skills/skill-file.ts',
      'const again = eval("2");'
    ].join('\n')
  )
  write(
    join(bad, 'preload', 'index.js'),
    [
      'let electron = require("electron");',
      'let fs = require("fs");',
      'electron.contextBridge.exposeInMainWorld("cairn", { request: () => {} });',
      'electron.contextBridge.exposeInMainWorld("ipc", { ipcRenderer: electron.ipcRenderer });'
    ].join('\n')
  )
  write(join(bad, 'renderer', 'index.html'), '<!doctype html><html><head><title>x</title></head><body><script src="https://cdn.example.com/x.js"></script></body></html>')
  write(
    join(bad, 'renderer', 'quick.html'),
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'unsafe-eval' https://cdn.example.com" /></head><body><webview src="https://x"></webview></body></html>`
  )
}, 120_000)

afterAll(() => {
  if (bad) rmSync(bad, { recursive: true, force: true })
})

describe('npm run check:security', () => {
  it('passes the built shell and the renderer pages: string evaluation only inside bundled packages, reported as such', async () => {
    const result = await check(['--out', build.outDir, '--html', join(REPO_ROOT, 'renderer')])
    expect(result.findings.filter((finding) => finding.severity === 'high')).toEqual([])
    for (const finding of result.findings) expect(finding.message).toMatch(/in the bundled package \S+$/)
    expect(result.code).toBe(0)
  })

  it('fails on each insecure setting, unguarded openExternal, eval, extra preload exposure and weak pages', async () => {
    const result = await check(['--out', bad])
    expect(result.code).toBe(1)
    const ids = result.findings.map((finding) => finding.id)
    for (const id of [
      'node-integration',
      'context-isolation',
      'sandbox',
      'web-security',
      'insecure-content',
      'experimental-features',
      'blink-features',
      'webview-tag',
      'eval',
      'new-function',
      'open-external-unguarded',
      'window-open-handler',
      'will-navigate',
      'preload-exposure',
      'preload-raw-ipc',
      'preload-require',
      'csp-missing',
      'remote-script',
      'csp-unsafe-eval',
      'csp-script-source',
      'webview'
    ]) {
      expect(ids, `expected a ${id} finding`).toContain(id)
    }
    // Precision: the guarded call and the comment line are not reported.
    expect(result.findings.filter((finding) => finding.id === 'open-external-unguarded')).toHaveLength(1)
    expect(result.findings.filter((finding) => finding.id === 'eval').map((finding) => finding.line)).toEqual([8, 14])
    // A bundled package's probe is listed apart; our own code's evaluation fails the check.
    expect(result.findings.filter((finding) => finding.severity !== 'high')).toEqual([
      { severity: 'low', id: 'new-function', file: expect.any(String), line: 12, message: 'new Function() in main/preload code, in the bundled package some-validator' }
    ])
  })

  it('says to build first when there is nothing to check', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'cairn-empty-'))
    try {
      const result = await check(['--out', empty])
      expect(result.code).toBe(2)
      expect(result.stderr).toContain('npm run build')
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })
})

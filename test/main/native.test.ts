import { createHash } from 'node:crypto'
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { electronNativeBinary, electronNativeDir, resolveNativeBinding } from '../../electron/main/native'
import { REPO_ROOT } from './build-shell'

const SCRIPT = join(REPO_ROOT, 'scripts', 'electron-native.mjs')
const NODE_BUILD = join(REPO_ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node')
const ELECTRON_VERSION = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')).version as string
const SQLITE_VERSION = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8')).version as string
const dirs: string[] = []

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-native-'))
  dirs.push(dir)
  return dir
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A project root with this repo's electron version and better-sqlite3 sources (linked, never copied over). */
function fakeProject(): string {
  const root = tempDir()
  mkdirSync(join(root, 'node_modules', 'electron'), { recursive: true })
  writeFileSync(join(root, 'node_modules', 'electron', 'package.json'), JSON.stringify({ version: ELECTRON_VERSION }))
  symlinkSync(join(REPO_ROOT, 'node_modules', 'better-sqlite3'), join(root, 'node_modules', 'better-sqlite3'))
  return root
}

async function runScript(root: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRIPT, ...args], {
      env: { ...process.env, CAIRN_NATIVE_ROOT: root, ...env },
      timeout: 120_000
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

describe('choosing the SQLite binary', () => {
  const facts = { appPath: '/project', env: {}, platform: 'linux', arch: 'x64' }

  it('uses the default binding in a packaged app and under plain Node', () => {
    expect(resolveNativeBinding({ ...facts, packaged: true, electronVersion: '45.5.0', env: { CAIRN_SQLITE_BINDING: '/tmp/evil.node' } })).toEqual({ ok: true, path: undefined })
    expect(resolveNativeBinding({ ...facts, packaged: false, electronVersion: undefined })).toEqual({ ok: true, path: undefined })
  })

  it('in development asks for the Electron build and says how to make it when it is missing', () => {
    const result = resolveNativeBinding({ ...facts, packaged: false, electronVersion: '45.5.0' })
    expect(result.ok).toBe(false)
    expect(!result.ok && result.message).toContain('/project/node_modules/.cache/cairn-electron-native/electron-45.5.0-linux-x64/node_modules/better-sqlite3/build/Release/better_sqlite3.node')
    expect(!result.ok && result.message).toContain('npm start')
  })

  it('finds a built copy, and honours CAIRN_SQLITE_BINDING in development', () => {
    const root = tempDir()
    const binary = electronNativeBinary(electronNativeDir(root, '45.5.0', 'linux', 'x64'))
    mkdirSync(join(binary, '..'), { recursive: true })
    writeFileSync(binary, 'stand-in')
    expect(resolveNativeBinding({ ...facts, appPath: root, packaged: false, electronVersion: '45.5.0' })).toEqual({ ok: true, path: binary })
    expect(resolveNativeBinding({ ...facts, packaged: false, electronVersion: '45.5.0', env: { CAIRN_SQLITE_BINDING: binary } })).toEqual({ ok: true, path: binary })
    expect(resolveNativeBinding({ ...facts, packaged: false, electronVersion: '45.5.0', env: { CAIRN_SQLITE_BINDING: '/nope.node' } }).ok).toBe(false)
  })
})

describe('scripts/electron-native.mjs (prestart)', () => {
  it('prints the folder main looks in for the Electron build', async () => {
    const result = await runScript(REPO_ROOT, ['--print-dir'])
    expect(result.stdout.trim()).toBe(electronNativeDir(REPO_ROOT, ELECTRON_VERSION))
  })

  it('does nothing when the copy is already built for this Electron', async () => {
    const root = fakeProject()
    const dir = electronNativeDir(root, ELECTRON_VERSION)
    mkdirSync(join(electronNativeBinary(dir), '..'), { recursive: true })
    writeFileSync(electronNativeBinary(dir), 'built earlier')
    writeFileSync(join(dir, 'cairn-native.json'), JSON.stringify({ electron: ELECTRON_VERSION, betterSqlite3: SQLITE_VERSION, platform: process.platform, arch: process.arch }))
    const result = await runScript(root)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`already built for Electron ${ELECTRON_VERSION}`)
    expect(readFileSync(electronNativeBinary(dir), 'utf8')).toBe('built earlier')
  })

  it('when it cannot build (no headers), explains what is needed and leaves the Node build alone', async () => {
    const root = fakeProject()
    const before = hash(NODE_BUILD)
    // A fresh HOME: no cached Electron headers, so the (unreachable) header URL is really needed.
    const result = await runScript(root, [], { HOME: tempDir(), CAIRN_ELECTRON_HEADERS_URL: 'http://127.0.0.1:9/' })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`could not build better-sqlite3 for Electron ${ELECTRON_VERSION}`)
    expect(result.stderr).toContain('https://www.electronjs.org/headers')
    expect(result.stderr).toContain('was not touched')
    expect(hash(NODE_BUILD)).toBe(before)
    expect(existsSync(electronNativeBinary(electronNativeDir(root, ELECTRON_VERSION)))).toBe(false)
  })
})

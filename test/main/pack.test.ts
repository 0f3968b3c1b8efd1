/**
 * Packs the app offline as `npm run package` would, with electron-builder.yml as it is, except that
 * Electron is a stand-in unpacked build (`electronDist`), nothing is rebuilt (`npmRebuild: false`) and
 * the app is built fresh into a private folder (mapped to out/ in the package). Then reads the packed
 * tree: what the app loads at run time is there, where it looks for it, and nothing else is.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { builtinModules, createRequire } from 'node:module'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from './build-shell'

const requireFromRepo = createRequire(join(REPO_ROOT, 'package.json'))
const yaml = requireFromRepo('js-yaml') as { load(text: string): unknown }
const asar = requireFromRepo('@electron/asar') as { listPackage(archive: string, options: object): string[]; extractFile(archive: string, file: string): Buffer }

/** The packed payload may not grow past this (it was 173 MB before bundling; see README, Packaging). */
const PAYLOAD_LIMIT_MB = 60
/** Install-time helpers of better-sqlite3, left out on purpose (electron-builder.yml). */
const INSTALL_ONLY = new Set(['prebuild-install'])

let work: string
let resources: string
let archive: string
let unpacked: string
let packed: Set<string>

function dirSize(path: string): number {
  const stats = statSync(path)
  if (!stats.isDirectory()) return stats.size
  return readdirSync(path).reduce((sum, name) => sum + dirSize(join(path, name)), 0)
}

/** Just enough of an unpacked Electron for electron-builder to copy (toolchain.md §12). */
function standInElectron(dir: string): void {
  mkdirSync(join(dir, 'locales'), { recursive: true })
  mkdirSync(join(dir, 'resources'), { recursive: true })
  writeFileSync(join(dir, 'electron'), '#!/bin/sh\necho stand-in\n', { mode: 0o755 })
  for (const file of ['LICENSE', 'LICENSES.chromium.html', 'chrome-sandbox', 'icudtl.dat', 'v8_context_snapshot.bin', 'locales/en-US.pak']) writeFileSync(join(dir, file), 'stand-in')
}

const inAsar = (path: string) => packed.has(path)
const readPacked = (path: string) => asar.extractFile(archive, path.replace(/^\//, '')).toString('utf8')

/** A package packed anywhere (in the asar or unpacked beside it), as `/node_modules/<name>`. */
function packedPackage(name: string): boolean {
  return inAsar(`/node_modules/${name}/package.json`) || existsSync(join(unpacked, 'node_modules', name, 'package.json'))
}

function packageJson(name: string): { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> } {
  const path = `/node_modules/${name}/package.json`
  return JSON.parse(inAsar(path) ? readPacked(path) : readFileSync(join(unpacked, 'node_modules', name, 'package.json'), 'utf8'))
}

beforeAll(async () => {
  mkdirSync(join(REPO_ROOT, 'test-results'), { recursive: true })
  work = mkdtempSync(join(REPO_ROOT, 'test-results', 'pack-'))
  const run = promisify(execFile)
  await run(process.execPath, [join(REPO_ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--outDir', join(work, 'out'), '--logLevel', 'error'], { cwd: REPO_ROOT, maxBuffer: 16 << 20 })
  standInElectron(join(work, 'electron'))
  const config = yaml.load(readFileSync(join(REPO_ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, any>
  config.files = (config.files as Array<string | object>).map((entry) => {
    const built = typeof entry === 'string' ? /^out\/(main|preload|renderer)\/\*\*$/.exec(entry) : null
    return built ? { from: join(work, 'out', built[1]), to: `out/${built[1]}`, filter: ['**/*'] } : entry
  })
  Object.assign(config, { electronDist: join(work, 'electron'), npmRebuild: false, directories: { ...config.directories, output: join(work, 'dist') } })
  writeFileSync(join(work, 'electron-builder.json'), JSON.stringify(config))
  await run(process.execPath, [join(REPO_ROOT, 'node_modules', 'electron-builder', 'cli.js'), '--config', join(work, 'electron-builder.json'), '--linux', 'dir'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
    maxBuffer: 16 << 20
  })
  resources = join(work, 'dist', 'linux-unpacked', 'resources')
  archive = join(resources, 'app.asar')
  unpacked = join(resources, 'app.asar.unpacked')
  packed = new Set(asar.listPackage(archive, { isPack: false }).map((path) => path.replace(/\\/g, '/')))
}, 180_000)

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

describe('the packed app (electron-builder --dir, offline)', () => {
  it('holds main, the review worker, preload, both pages, the icons and package.json pointing at main', () => {
    for (const path of ['/out/main/index.js', '/out/preload/index.js', '/out/renderer/index.html', '/out/renderer/quick.html', '/resources/icon.png', '/resources/tray.png', '/resources/tray@2x.png', '/resources/trayTemplate.png', '/resources/trayTemplate@2x.png']) {
      expect(inAsar(path), path).toBe(true)
    }
    expect(JSON.parse(readPacked('/package.json')).main).toBe('out/main/index.js')
    const workers = [...packed].filter((path) => /^\/out\/main\/chunks\/review-entry-[\w-]+\.js$/.test(path))
    expect(workers).toHaveLength(1)
    // A standalone chunk: it must not start by loading the main entry (which would run the whole app).
    expect(readPacked(workers[0])).not.toMatch(/require\(["']\.\.?\/index\.js["']\)/)
    // The schema migrations travel inside the main bundle.
    expect(readPacked('/out/main/index.js')).toContain('CREATE TABLE sessions')
  })

  it('ships the native modules unpacked, where better-sqlite3 and sqlite-vec look for them', () => {
    expect(statSync(join(unpacked, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node')).size).toBeGreaterThan(500_000)
    expect(existsSync(join(unpacked, 'node_modules', 'better-sqlite3', 'lib', 'index.js'))).toBe(true)
    const vec = join(unpacked, 'node_modules', `sqlite-vec-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`)
    expect(readdirSync(vec).some((name) => /^vec0\.(so|dylib|dll)$/.test(name))).toBe(true)
    // bindings finds the .node file from better-sqlite3's own folder.
    expect(packedPackage('bindings') && packedPackage('file-uri-to-path')).toBe(true)
    // pdfjs loads its worker from beside itself; the legacy build is what Node and Electron's main use.
    expect(inAsar('/node_modules/pdfjs-dist/legacy/build/pdf.mjs') && inAsar('/node_modules/pdfjs-dist/legacy/build/pdf.worker.mjs')).toBe(true)
  })

  it('has every package that main and the worker load at run time, and each shipped package\'s own dependencies', () => {
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]))
    const bundles = [...packed].filter((path) => /^\/out\/main\/.*\.js$/.test(path))
    const loaded = new Set<string>()
    for (const bundle of bundles) {
      // Bundled packages keep their doc comments (`* const pm = require('picomatch')`): code lines only.
      const code = readPacked(bundle)
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
        .join('\n')
      for (const match of code.matchAll(/\b(?:require|import)\(\s*["']([^"'./][^"']*)["']\s*\)/g)) {
        const specifier = match[1]
        if (builtins.has(specifier) || specifier === 'electron' || builtins.has(specifier.split('/')[0])) continue
        loaded.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0])
      }
    }
    // ajv's code generator writes require() calls into source text it compiles itself; they are not loads.
    for (const generated of ['ajv', 'ajv-formats']) loaded.delete(generated)
    expect([...loaded].sort()).toEqual(['better-sqlite3', 'pdfjs-dist', 'sqlite-vec'])

    const names = [...packed].flatMap((path) => /^\/node_modules\/((?:@[^/]+\/)?[^/]+)\/package\.json$/.exec(path)?.[1] ?? [])
    const shipped = new Set([...names, ...readdirSync(join(unpacked, 'node_modules')).flatMap((name) => (name.startsWith('@') ? readdirSync(join(unpacked, 'node_modules', name)).map((inner) => `${name}/${inner}`) : [name]))])
    for (const name of shipped) {
      for (const dependency of Object.keys(packageJson(name).dependencies ?? {})) {
        if (!INSTALL_ONLY.has(dependency)) expect(packedPackage(dependency), `${name} needs ${dependency}`).toBe(true)
      }
    }
  })

  it('leaves out sources, maps, types, renderer-only packages and install-time helpers, and stays small', () => {
    const unwanted = [...packed].filter((path) => /\.(map|ts|mts|cc|cpp|h|gyp)$/.test(path) || /\/node_modules\/better-sqlite3\/(deps|src)\//.test(path))
    expect(unwanted).toEqual([])
    for (const name of ['react', 'react-dom', 'highlight.js', 'zod', 'openai', '@modelcontextprotocol/client', 'isomorphic-git', 'prebuild-install', 'electron']) {
      expect(packedPackage(name), `${name} should not ship`).toBe(false)
    }
    const megabytes = (statSync(archive).size + dirSize(unpacked)) / 1e6
    console.log(`packed payload: ${megabytes.toFixed(1)} MB (app.asar ${(statSync(archive).size / 1e6).toFixed(1)} MB + unpacked ${(dirSize(unpacked) / 1e6).toFixed(1)} MB)`)
    expect(megabytes).toBeLessThanOrEqual(PAYLOAD_LIMIT_MB)
  })
})

#!/usr/bin/env node
// Builds a second copy of better-sqlite3 for the installed Electron, so `npm start` works while
// node_modules/better-sqlite3 keeps the Node build that `npm test` and the CLI need. Run by
// `prestart`/`predev`; skipped when the copy is already built for this Electron version.
//
//   node scripts/electron-native.mjs            build if needed
//   node scripts/electron-native.mjs --force    rebuild
//   node scripts/electron-native.mjs --print-dir
//
// The folder layout is repeated in electron/main/native.ts (a test checks they agree).
// CAIRN_NATIVE_ROOT (project root) and CAIRN_ELECTRON_HEADERS_URL exist for tests and mirrors.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(process.env.CAIRN_NATIVE_ROOT || join(here, '..'))
const args = new Set(process.argv.slice(2))
const toolRequire = createRequire(import.meta.url)

function say(line) {
  console.log(`electron-native: ${line}`)
}

function fail(lines) {
  for (const line of lines) console.error(`electron-native: ${line}`)
  process.exit(1)
}

function packageVersion(name) {
  const file = join(root, 'node_modules', name, 'package.json')
  if (!existsSync(file)) return null
  return JSON.parse(readFileSync(file, 'utf8')).version
}

export function nativeDir(electronVersion) {
  return join(root, 'node_modules', '.cache', 'cairn-electron-native', `electron-${electronVersion}-${process.platform}-${process.arch}`)
}

function binaryIn(dir) {
  return join(dir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node')
}

/** The ABI number Electron reports (NODE_MODULE_VERSION), when node-abi knows this version. */
function electronAbi(electronVersion) {
  try {
    return String(toolRequire('node-abi').getAbi(electronVersion, 'electron'))
  } catch {
    return null
  }
}

/**
 * A binary built for Electron must be refused by this Node (different NODE_MODULE_VERSION). One that
 * loads here was compiled against Node's headers (e.g. a `nodedir` in ~/.npmrc) and would crash Electron.
 */
function checkAbi(binary, abi) {
  const probe = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(binary)})`], { encoding: 'utf8' })
  const output = `${probe.stdout}\n${probe.stderr}`
  if (probe.status === 0) return 'it loads in this Node, so it was built against Node\'s headers, not Electron\'s'
  if (abi && !output.includes(`NODE_MODULE_VERSION ${abi}`)) {
    const found = /NODE_MODULE_VERSION (\d+)/.exec(output)?.[1]
    return found ? `it was built for NODE_MODULE_VERSION ${found}, Electron needs ${abi}` : `it could not be checked: ${output.trim().split('\n')[0]}`
  }
  return null
}

async function main() {
  const electronVersion = packageVersion('electron')
  if (!electronVersion) fail(['Electron is not installed (node_modules/electron is missing). Run "npm install" first.'])
  const dir = nativeDir(electronVersion)
  if (args.has('--print-dir')) {
    console.log(dir)
    return
  }
  const sqliteVersion = packageVersion('better-sqlite3')
  if (!sqliteVersion) fail(['better-sqlite3 is not installed. Run "npm install" first.'])
  const wanted = { electron: electronVersion, betterSqlite3: sqliteVersion, platform: process.platform, arch: process.arch }
  const stampFile = join(dir, 'cairn-native.json')
  const binary = binaryIn(dir)
  if (!args.has('--force') && existsSync(binary) && existsSync(stampFile)) {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'))
    if (Object.entries(wanted).every(([key, value]) => stamp[key] === value)) {
      say(`better-sqlite3 ${sqliteVersion} is already built for Electron ${electronVersion} (${relative(root, dir) || dir}).`)
      return
    }
  }

  say(`building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (about a minute)…`)
  // Build in a staging folder and rename at the end: an interrupted build never looks finished.
  const staging = `${dir}.staging-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(join(staging, 'node_modules'), { recursive: true })
  writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: 'cairn-electron-native', private: true, dependencies: { 'better-sqlite3': sqliteVersion } }, null, 2))
  const source = join(root, 'node_modules', 'better-sqlite3')
  const skip = join(source, 'build') // the Node build stays where it is; only sources are copied
  cpSync(source, join(staging, 'node_modules', 'better-sqlite3'), {
    recursive: true,
    dereference: true,
    filter: (path) => path !== skip && !path.startsWith(skip + sep)
  })

  // npm passes the user's npmrc to scripts as npm_config_*: a `nodedir` there would make node-gyp
  // compile against Node's headers instead of Electron's.
  for (const key of Object.keys(process.env)) {
    if (/^npm_config_(nodedir|target|runtime|disturl|dist_url|arch)$/i.test(key)) delete process.env[key]
  }

  try {
    const { rebuild } = await import(pathToFileURL(toolRequire.resolve('@electron/rebuild')).href)
    await rebuild({
      buildPath: staging,
      electronVersion,
      onlyModules: ['better-sqlite3'],
      force: true,
      mode: 'sequential',
      ...(process.env.CAIRN_ELECTRON_HEADERS_URL ? { headerURL: process.env.CAIRN_ELECTRON_HEADERS_URL } : {})
    })
    const built = binaryIn(staging)
    if (!existsSync(built)) throw new Error(`the build finished but ${built} is missing`)
    const abiProblem = checkAbi(built, electronAbi(electronVersion))
    if (abiProblem) throw new Error(`the built module is wrong: ${abiProblem}`)
    writeFileSync(join(staging, 'cairn-native.json'), JSON.stringify({ ...wanted, builtAt: new Date().toISOString() }, null, 2) + '\n')
    rmSync(dir, { recursive: true, force: true })
    renameSync(staging, dir)
  } catch (error) {
    rmSync(staging, { recursive: true, force: true })
    const reason = String(error?.message ?? error).split('\n').find((line) => line.trim()) ?? 'unknown error'
    fail([
      `could not build better-sqlite3 for Electron ${electronVersion}: ${reason}`,
      'Building needs Electron\'s headers from https://www.electronjs.org/headers (network access) and a C++ toolchain (python3, make, a C++ compiler).',
      'When those are available, run: node scripts/electron-native.mjs',
      'node_modules/better-sqlite3 (the Node build the tests and the CLI use) was not touched.'
    ])
  }
  say(`done: ${relative(root, binary) || binary}`)
}

await main()

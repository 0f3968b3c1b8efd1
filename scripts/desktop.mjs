#!/usr/bin/env node
// `npm start` and `npm run dev`: makes sure Electron's binary is installed (downloading it when it
// is missing) and better-sqlite3 is built for Electron's ABI, then hands over to electron-vite.
// When a step cannot be done here it says why in three lines (no network, no compiler, …), how to
// retry, and what works without Electron; the tools' full output goes to a log file.
//
//   node scripts/desktop.mjs preview [electron-vite options]   npm start: build, then start the app
//   node scripts/desktop.mjs dev [electron-vite options]       npm run dev: start with hot reload
//   node scripts/desktop.mjs prepare                           only the two steps, start nothing
//
// ELECTRON_EXEC_PATH: an Electron executable to start instead of the downloaded one (electron-vite
// honours it; the start-chain test uses a stand-in). CAIRN_SQLITE_BINDING: a better_sqlite3.node to
// load instead of building one. CAIRN_DESKTOP_ROOT: the project root (tests).
import { spawn } from 'node:child_process'
import { accessSync, constants, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { electronPackage, installElectron } from './desktop/electron-binary.mjs'
import { buildTools, diagnose, problemLines } from './desktop/problems.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(process.env.CAIRN_DESKTOP_ROOT || join(here, '..'))
const [mode = 'preview', ...passThrough] = process.argv.slice(2)
const logDir = join(root, 'node_modules', '.cache', 'cairn-desktop')

function say(line) {
  console.log(`cairn: ${line}`)
}

function stop(lines) {
  for (const line of lines) console.error(`cairn: ${line}`)
  process.exit(1)
}

/** Keeps a step's full output where the three lines can point to it. */
function keepLog(name, output) {
  mkdirSync(logDir, { recursive: true })
  const file = join(logDir, name)
  writeFileSync(file, output)
  const shown = relative(process.cwd(), file)
  return shown.startsWith('..') ? file : shown
}

async function ensureElectron() {
  const override = process.env.ELECTRON_EXEC_PATH
  if (override) {
    try {
      accessSync(override, constants.X_OK)
    } catch {
      stop([`ELECTRON_EXEC_PATH is set to ${override}, which is not an executable file.`, 'Unset it to use the Electron that npm installed, or point it at an Electron executable.'])
    }
    say(`starting the Electron at ELECTRON_EXEC_PATH (${override}).`)
    return
  }
  const pkg = electronPackage(root)
  if (!pkg) stop(['Electron is not installed (node_modules/electron is missing).', 'Run "npm install" first, then "npm start".'])
  if (pkg.installed) return pkg.version
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    stop([
      `Electron ${pkg.version}'s binary is not downloaded yet, and ELECTRON_SKIP_BINARY_DOWNLOAD is set.`,
      'Unset ELECTRON_SKIP_BINARY_DOWNLOAD and run "npm start" again (it downloads about 100 MB, once).',
      problemLines({ step: 'electron', electronVersion: pkg.version, problem: { cause: 'other' }, log: '' }).at(-1)
    ])
  }
  say(`downloading Electron ${pkg.version} (about 100 MB, once)…`)
  const result = await installElectron({ pkg, say })
  const log = keepLog('electron-download.log', result.output)
  if (!result.ok) stop(problemLines({ step: 'electron', electronVersion: pkg.version, problem: diagnose(result.output), log }))
  say(`Electron ${pkg.version} is installed.`)
  return pkg.version
}

/** Runs scripts/electron-native.mjs: its progress lines are shown, everything else goes to the log. */
function ensureNativeModule(electronVersion) {
  if (process.env.CAIRN_SQLITE_BINDING) {
    say(`loading better-sqlite3 from CAIRN_SQLITE_BINDING (${process.env.CAIRN_SQLITE_BINDING}).`)
    return Promise.resolve()
  }
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(here, 'electron-native.mjs')], {
      env: { ...process.env, CAIRN_NATIVE_ROOT: root },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let output = ''
    let pending = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
      pending += chunk
      const lines = pending.split('\n')
      pending = lines.pop()
      for (const line of lines) if (line.startsWith('electron-native: ')) say(line.slice('electron-native: '.length))
    })
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('close', (code) => {
      if (code === 0) return done()
      const log = keepLog('native-build.log', output)
      const version = electronVersion ?? electronPackage(root)?.version ?? '?'
      stop(problemLines({ step: 'native', electronVersion: version, problem: diagnose(output, buildTools()), log }))
    })
  })
}

/** electron-vite (preview or dev), in the foreground: its exit code is ours; Ctrl+C reaches it and Electron directly. */
function startElectronVite() {
  const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
  const child = spawn(process.execPath, [cli, mode, ...passThrough], { cwd: root, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {})
  child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

if (!['preview', 'dev', 'prepare'].includes(mode)) {
  console.error(`cairn: unknown mode "${mode}"; use preview (npm start), dev (npm run dev) or prepare.`)
  process.exit(2)
}
const electronVersion = await ensureElectron()
await ensureNativeModule(electronVersion)
if (mode !== 'prepare') startElectronVite()

// Electron 42 and later install their binary lazily (no postinstall): this finds it, or downloads it
// with progress through @electron/get (Electron's own downloader, into its cache) and then lets
// Electron's install.js unpack it from that cache and write path.txt, exactly as `install-electron` does.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** Where electron/install.js puts the executable, per platform (its getPlatformPath). */
function platformPath(env = process.env) {
  const platform = env.ELECTRON_INSTALL_PLATFORM || env.npm_config_platform || process.platform
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron'
  if (platform === 'win32') return 'electron.exe'
  return 'electron'
}

/** The installed `electron` package and whether its binary is there (the checks install.js makes). */
export function electronPackage(root, env = process.env) {
  const dir = join(root, 'node_modules', 'electron')
  const manifest = join(dir, 'package.json')
  if (!existsSync(manifest)) return null
  const { version } = JSON.parse(readFileSync(manifest, 'utf8'))
  const relative = platformPath(env)
  const read = (file) => {
    try {
      return readFileSync(join(dir, file), 'utf8')
    } catch {
      return null
    }
  }
  const executable = join(env.ELECTRON_OVERRIDE_DIST_PATH || join(dir, 'dist'), relative)
  const installed =
    read(join('dist', 'version'))?.replace(/^v/, '').trim() === version && read('path.txt') === relative && existsSync(executable)
  return { dir, version, executable, installed }
}

function describeBytes(bytes) {
  return bytes >= 1e6 ? `${Math.round(bytes / 1e6)} MB` : `${Math.round(bytes / 1e3)} KB`
}

/** One progress line: rewritten in place on a terminal, every quarter into a pipe or a file. */
function progressPrinter(say, stream) {
  let lastQuarter = -1
  return ({ percent, total }) => {
    const shown = Math.floor(percent * 100)
    const of = total ? ` of ${describeBytes(total)}` : ''
    if (stream.isTTY) {
      stream.write(`\rcairn: downloading Electron: ${shown}%${of}   `)
      if (percent >= 1) stream.write('\n')
      return
    }
    const quarter = Math.floor(percent * 4)
    if (quarter > lastQuarter) {
      lastQuarter = quarter
      say(`downloading Electron: ${shown}%${of}`)
    }
  }
}

/** An error with its causes (fetch's "fetch failed" hides the network error in `cause`). */
function describeError(error) {
  const parts = []
  for (let current = error, depth = 0; current && depth < 5; current = current.cause, depth++) {
    parts.push(depth === 0 ? String(current.stack ?? current) : `Caused by: ${current.stack ?? current}`)
  }
  return parts.join('\n')
}

/** Runs a Node script with its output kept (for the log), never shown. */
function runQuiet(script, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', (error) => resolve({ code: 1, output: `${output}\n${error.stack ?? error}` }))
    child.on('close', (code) => resolve({ code: code ?? 1, output }))
  })
}

/**
 * Downloads and unpacks Electron's binary for the installed `electron` package. Returns
 * `{ ok: true }` or `{ ok: false, output }` with everything the tools printed (for the log and the diagnosis).
 */
export async function installElectron({ pkg, env = process.env, say, stream = process.stderr }) {
  const requireFromElectron = createRequire(join(pkg.dir, 'package.json'))
  const platform = env.ELECTRON_INSTALL_PLATFORM || env.npm_config_platform || process.platform
  const arch = env.ELECTRON_INSTALL_ARCH || env.npm_config_arch || process.arch
  let output = ''
  try {
    const { downloadArtifact } = await import(pathToFileURL(requireFromElectron.resolve('@electron/get')).href)
    const zip = await downloadArtifact({
      version: pkg.version,
      artifactName: 'electron',
      force: env.force_no_cache === 'true',
      cacheRoot: env.electron_config_cache,
      checksums: env.electron_use_remote_checksums || env.npm_config_electron_use_remote_checksums ? undefined : requireFromElectron('./checksums.json'),
      platform,
      arch,
      downloadOptions: { quiet: true, getProgressCallback: progressPrinter(say, stream) }
    })
    output += `downloaded ${zip}\n`
  } catch (error) {
    return { ok: false, output: `${output}${describeError(error)}\n` }
  }
  // The zip is in @electron/get's cache now: install.js takes it from there, unpacks it and writes path.txt.
  const unpack = await runQuiet(join(pkg.dir, 'install.js'), env)
  output += unpack.output
  if (unpack.code !== 0) return { ok: false, output }
  const after = electronPackage(join(pkg.dir, '..', '..'), env)
  if (!after?.installed) return { ok: false, output: `${output}\nElectron's install.js finished but ${pkg.executable} is missing.\n` }
  return { ok: true, output }
}

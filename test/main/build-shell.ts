/**
 * Builds the shell (main + preload, not the renderer) into test-results/app-shell for the app tests:
 * a private folder, so renderer work in progress and other builds of out/ cannot break or race it.
 * Rebuilt only when a source is newer than the last build; a lock keeps parallel test files from
 * building twice. Inside the repository so the bundle resolves node_modules like out/ does.
 */
import { execFile } from 'node:child_process'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { withLock } from '../../electron/core/fs/lock'

export const REPO_ROOT = join(__dirname, '..', '..')
export const SHELL_OUT = join(REPO_ROOT, 'test-results', 'app-shell')
const STAMP = join(SHELL_OUT, '.built')
const CONFIG = join(__dirname, 'fixtures', 'electron.vite.shell.config.ts')
const SOURCES = ['electron', 'shared', 'resources', 'electron.vite.config.ts', 'package.json', 'test/main/fixtures/electron.vite.shell.config.ts']

export interface ShellBuild {
  outDir: string
  mainEntry: string
  preloadEntry: string
  /** The review worker chunk(s) next to the main bundle. */
  workerChunks: string[]
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0
  const stats = statSync(path)
  if (!stats.isDirectory()) return stats.mtimeMs
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stats.mtimeMs)
}

function describe(): ShellBuild {
  const chunksDir = join(SHELL_OUT, 'main', 'chunks')
  const workerChunks = existsSync(chunksDir)
    ? readdirSync(chunksDir)
        .filter((name) => /^review-entry-.*\.js$/.test(name))
        .map((name) => join(chunksDir, name))
    : []
  return { outDir: SHELL_OUT, mainEntry: join(SHELL_OUT, 'main', 'index.js'), preloadEntry: join(SHELL_OUT, 'preload', 'index.js'), workerChunks }
}

export async function buildShell(): Promise<ShellBuild> {
  return withLock(
    SHELL_OUT,
    async () => {
      const sourcesChanged = SOURCES.reduce((newest, path) => Math.max(newest, newestMtime(join(REPO_ROOT, path))), 0)
      if (existsSync(STAMP) && statSync(STAMP).mtimeMs >= sourcesChanged) return describe()
      const cli = join(REPO_ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
      await promisify(execFile)(process.execPath, [cli, 'build', '-c', CONFIG, '--outDir', SHELL_OUT, '--logLevel', 'warn'], {
        cwd: REPO_ROOT,
        maxBuffer: 16 * 1024 * 1024
      })
      writeFileSync(STAMP, new Date().toISOString())
      return describe()
    },
    { lockfilePath: `${SHELL_OUT}.lock`, timeoutMs: 120_000 }
  )
}

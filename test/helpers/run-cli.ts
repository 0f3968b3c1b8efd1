import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = join(__dirname, '..', '..')
const tsxLoader = pathToFileURL(createRequire(__filename).resolve('tsx')).href
const emptyHome = mkdtempSync(join(tmpdir(), 'cairn-cli-home-'))

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

export interface CliRunOptions {
  env?: NodeJS.ProcessEnv
  cwd?: string
  input?: string
}

/** Runs the real `cairn` CLI from source in a child process, as `npm run cairn` does. */
export function runCairn(args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  return runProcess(process.execPath, ['--import', tsxLoader, join(root, 'electron/cli/index.ts'), ...args], options)
}

/** Runs a bundled `cairn` (scripts/build-cli.mjs) as the installed command does: the file itself, through its shebang. */
export function runBuiltCairn(bundle: string, args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  return runProcess(bundle, args, options)
}

function runProcess(file: string, args: string[], options: CliRunOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd ?? root,
      // A throwaway HOME: the developer's own ~/.claude/skills or ~/.agents/skills must not leak in.
      env: { PATH: process.env.PATH, HOME: emptyHome, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(options.input ?? '')
  })
}

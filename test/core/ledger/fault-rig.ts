/** Spawning {@link ./fault-child.ts} processes and waiting on what they leave behind (files, exits), never on the clock. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

const repoRoot = resolve(__dirname, '..', '..', '..')
const childScript = join(repoRoot, 'test', 'core', 'ledger', 'fault-child.ts')

export interface ChildRun {
  child: ChildProcessWithoutNullStreams
  /** Exit code/signal, stdout and stderr once the process is gone. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>
}

export function runChild(home: string, action: string, args: object, env: Record<string, string> = {}): ChildRun {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, home, action, JSON.stringify(args)], {
    cwd: repoRoot,
    env: { ...process.env, CAIRN_FAULT: '', CAIRN_FAULT_MARK: '', ...env }
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((settle) =>
    child.once('close', (code, signal) => settle({ code, signal, stdout, stderr }))
  )
  return { child, done }
}

/** The JSON line a child printed. */
export function resultOf(run: { stdout: string; stderr: string }): Record<string, any> {
  const line = run.stdout.trim().split('\n').pop()
  if (!line) throw new Error(`the child printed nothing; stderr:\n${run.stderr}`)
  return JSON.parse(line)
}

/** Resolves once `condition` holds, polling every few milliseconds; fails after `timeoutMs` (a hang, not a timing proof). */
export async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((wake) => setTimeout(wake, 5))
  }
}

export const fileExists = (path: string) => () => existsSync(path)

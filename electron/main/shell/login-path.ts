import { spawn } from 'node:child_process'
import { userInfo } from 'node:os'
import { delimiter as pathDelimiter } from 'node:path'
import { withoutCairnSecrets } from '../../core/security/secret-env'

/**
 * An app started from Finder, the Dock or a Linux desktop menu gets the session's short PATH
 * (`/usr/bin:/bin:/usr/sbin:/sbin` from launchd on macOS), not the one the user's shell builds, so
 * commands and MCP servers would not find `node`, `npx`, `pnpm` or `git`. Once at start, the packaged
 * app asks the user's login shell for its PATH and puts it in front of its own.
 */
export function wantsLoginShellPath(facts: { platform: NodeJS.Platform; packaged: boolean }): boolean {
  // Started from a terminal (npm start), the app already has the shell's PATH; Windows has no login shell.
  return facts.packaged && (facts.platform === 'darwin' || facts.platform === 'linux')
}

const MARKER = '__CAIRN_LOGIN_PATH__'
/** A shell whose start-up files hang or prompt must not hold the app: past this it is stopped and ignored. */
const LOGIN_SHELL_TIMEOUT_MS = 5_000

/**
 * The PATH the user's login shell sets up, or null when it cannot be had in time (no shell, a
 * failing or hanging rc file). `env` prints it colon-separated in every shell, fish included, and
 * the markers keep a message of the day or other start-up noise out of it.
 */
export function loginShellPath(shell: string, env: NodeJS.ProcessEnv, timeoutMs = LOGIN_SHELL_TIMEOUT_MS): Promise<string | null> {
  return new Promise((resolve) => {
    let output = ''
    let settled = false
    const finish = (value: string | null) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(value)
    }
    const child = spawn(shell, ['-i', '-l', '-c', `printf '%s' '${MARKER}'; command env; printf '%s' '${MARKER}'`], {
      // oh-my-zsh would otherwise offer to update itself and wait for an answer.
      env: { ...withoutCairnSecrets(env), DISABLE_AUTO_UPDATE: 'true' },
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true
    })
    const timer = setTimeout(() => {
      try {
        // Its own process group: the rc file's children go too.
        if (child.pid) process.kill(-child.pid, 'SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
      finish(null)
    }, timeoutMs)
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (output.length > 1_000_000) child.kill('SIGKILL')
    })
    child.on('error', () => finish(null))
    child.on('close', () => {
      const between = output.split(MARKER)[1]
      const line = between?.split('\n').find((candidate) => candidate.startsWith('PATH='))
      finish(line ? line.slice('PATH='.length).trim() || null : null)
    })
  })
}

/** The login shell's entries first (that is the order the user set up), then ours that it lacks. */
export function mergePaths(login: string, current: string | undefined, delimiter = pathDelimiter): string {
  const seen = new Set<string>()
  const merged: string[] = []
  for (const entry of [...login.split(delimiter), ...(current ?? '').split(delimiter)]) {
    if (!entry || seen.has(entry)) continue
    seen.add(entry)
    merged.push(entry)
  }
  return merged.join(delimiter)
}

/**
 * Sets `env.PATH` from the login shell when this launch needs it. Answers what happened, for the log:
 * null when nothing was asked.
 */
export async function adoptLoginShellPath(
  facts: { platform: NodeJS.Platform; packaged: boolean },
  env: NodeJS.ProcessEnv,
  shell = env.SHELL || passwdShell() || '/bin/sh'
): Promise<{ shell: string; adopted: boolean } | null> {
  if (!wantsLoginShellPath(facts)) return null
  const login = await loginShellPath(shell, env)
  if (!login) return { shell, adopted: false }
  env.PATH = mergePaths(login, env.PATH)
  return { shell, adopted: true }
}

/** The login shell from the user's account (SHELL is missing in some launch environments). */
function passwdShell(): string | null {
  try {
    return userInfo().shell
  } catch {
    return null
  }
}

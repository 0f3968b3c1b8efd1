import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/** Where everything Cairn learns lives. A plain folder the user can read, back up and edit. */
export interface HomePaths {
  root: string
  memoriesDir: string
  memoryFile: string
  userFile: string
  skillsDir: string
  stateDb: string
  configFile: string
  /** Lock files for cross-process writes that have no natural file to lock (a skill name, the config). */
  locksDir: string
  /** Team skill libraries (`skills.shared`), one git copy each, read as a read-only skill root. */
  sharedSkillsDir: string
  /** Logs: the app's main process, the background reviews, and one per MCP server (in `mcp/`). */
  logsDir: string
  mainLog: string
  reviewLog: string
}

/** `--home DIR`, else `CAIRN_HOME`, else `~/.cairn`. */
export function resolveHome(explicit?: string | null, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = explicit || env.CAIRN_HOME || join(homedir(), '.cairn')
  return resolve(expandTilde(chosen))
}

export function expandTilde(p: string): string {
  if (p === '~') return homedir()
  if (p.startsWith('~/') || p.startsWith('~\\')) return join(homedir(), p.slice(2))
  return p
}

export function homePaths(root: string): HomePaths {
  const memoriesDir = join(root, 'memories')
  return {
    root,
    memoriesDir,
    memoryFile: join(memoriesDir, 'MEMORY.md'),
    userFile: join(memoriesDir, 'USER.md'),
    skillsDir: join(root, 'skills'),
    stateDb: join(root, 'state.db'),
    configFile: join(root, 'config.json'),
    locksDir: join(root, '.locks'),
    sharedSkillsDir: join(root, 'shared-skills'),
    logsDir: join(root, 'logs'),
    mainLog: join(root, 'logs', 'main.log'),
    reviewLog: join(root, 'logs', 'review.log')
  }
}

/** Creates the folders of the layout (never touches existing files). */
export function ensureHome(root: string): HomePaths {
  const paths = homePaths(root)
  for (const dir of [paths.root, paths.memoriesDir, paths.skillsDir, paths.locksDir]) {
    mkdirSync(dir, { recursive: true })
  }
  return paths
}

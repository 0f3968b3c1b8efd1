import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A restored backup's settings that grant power: an MCP server runs a program of its choosing on the
 * next chat, a saved command prefix or read folder lets commands and reads go unasked, a provider or
 * embedding URL receives the API key and every conversation, a team library or extra skill folder
 * puts instructions in the prompt, a sync remote receives memory, a workspace of `~` puts every file
 * inside it, custom instructions go into every prompt, a backup folder receives every backup. An archive is only as trustworthy
 * as whoever handed it over, so these come in held back: taken out of the restored `config.json`
 * and kept in {@link HELD_SETTINGS_FILE} until the user confirms them.
 */

export const HELD_SETTINGS_FILE = 'restore-held-settings.json'

/** One held setting: where it lives in config.json, and its value. */
export interface HeldSetting {
  /** A dotted path in config.json, e.g. `agent.allowedCommandPrefixes`, `mcpServers.github`. */
  key: string
  value: unknown
}

const LISTS = ['agent.allowedCommandPrefixes', 'agent.allowedReadFolders', 'agent.allowedFetchHosts', 'skills.shared'] as const
/** Text settings that grant power: where the key and conversations go, where the agent works, what it is told. */
const TEXTS = ['provider.baseURL', 'learning.baseURL', 'search.embeddingBaseURL', 'sync.remote', 'agent.workspace', 'agent.instructions', 'backup.folder'] as const
/** What `skills.extraDirs` holds by default: other agents' skill folders on this machine, no reason to hold back. */
const DEFAULT_EXTRA_DIRS = new Set(['~/.agents/skills', '~/.claude/skills'])

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

function section(config: Json, name: string): Json | null {
  const value = config[name]
  return isObject(value) ? value : null
}

/** Takes what grants power out of `config` (changed in place) and answers what was taken. */
export function takePowerfulSettings(config: Json): HeldSetting[] {
  const held: HeldSetting[] = []
  const servers = section(config, 'mcpServers')
  if (servers) {
    for (const [name, value] of Object.entries(servers)) held.push({ key: `mcpServers.${name}`, value })
    config.mcpServers = {}
  }
  for (const key of LISTS) {
    const [part, field] = key.split('.')
    const owner = section(config, part)
    const value = owner?.[field]
    if (Array.isArray(value) && value.length > 0) {
      held.push({ key, value })
      owner![field] = []
    }
  }
  const skills = section(config, 'skills')
  if (skills && Array.isArray(skills.extraDirs)) {
    const extra = skills.extraDirs.filter((dir) => !DEFAULT_EXTRA_DIRS.has(String(dir)))
    if (extra.length) {
      held.push({ key: 'skills.extraDirs', value: extra })
      skills.extraDirs = skills.extraDirs.filter((dir) => DEFAULT_EXTRA_DIRS.has(String(dir)))
    }
  }
  for (const key of TEXTS) {
    const [part, field] = key.split('.')
    const owner = section(config, part)
    const value = owner?.[field]
    if (typeof value === 'string' && value.trim() !== '') {
      held.push({ key, value })
      owner![field] = ''
    }
  }
  return held
}

/**
 * Holds back what grants power in the restored home's `config.json` (a file that is not JSON is left
 * for `cairn doctor` to report). Answers what was held (none when there was nothing to hold) and the
 * file as the backup had it, to put back as it was when the user agrees.
 */
export function holdRestoredSettings(home: string): { held: HeldSetting[]; original: string } {
  const path = join(home, 'config.json')
  const none = { held: [], original: '' }
  if (!existsSync(path)) return none
  const original = readFileSync(path, 'utf8')
  let config: unknown
  try {
    config = JSON.parse(original)
  } catch {
    return none
  }
  if (!isObject(config)) return none
  const held = takePowerfulSettings(config)
  if (held.length === 0) return none
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`)
  writeFileSync(join(home, HELD_SETTINGS_FILE), `${JSON.stringify({ held }, null, 2)}\n`)
  return { held, original }
}

/** The user agreed: `config.json` as the backup had it, byte for byte, and the held file is gone. */
export function acceptHeldSettings(home: string, original: string): void {
  writeFileSync(join(home, 'config.json'), original)
  rmSync(join(home, HELD_SETTINGS_FILE), { force: true })
}

import { closeSync, constants, existsSync, fchmodSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import type { ApiKeyWhich } from '../core/app/app-context'

/**
 * Browser mode and the CLI: the secrets a user chose to "Remember on this computer", in
 * `<home>/secrets.local.json`, readable by the user alone (0600). Never synced (sync carries only
 * `memories/` and `skills/`), never in a backup (which holds state.db, config.json and its folders by
 * name) nor a team library. The desktop app keeps its keys encrypted by the OS keyring instead.
 */
export const REMEMBERED_SECRETS_FILE = 'secrets.local.json'

export function rememberedSecretsPath(home: string): string {
  return join(home, REMEMBERED_SECRETS_FILE)
}

const fileSchema = z.object({
  apiKeys: z.partialRecord(z.enum(['chat', 'learning', 'embedding', 'memoryProvider']), z.string()).default({}),
  secrets: z.record(z.string(), z.string()).default({})
})
export type RememberedSecrets = z.infer<typeof fileSchema>

/**
 * The variables each provider key is read from, first match wins, before a remembered key (as in
 * provider-access.ts's API_KEY_VARIABLES, which this module does not import: it would load the OpenAI SDK).
 */
export const API_KEY_ENV: Record<ApiKeyWhich, readonly string[]> = {
  chat: ['CAIRN_API_KEY', 'OPENAI_API_KEY'],
  learning: ['CAIRN_LEARNING_API_KEY'],
  embedding: ['CAIRN_EMBEDDING_API_KEY'],
  memoryProvider: ['CAIRN_MEMORY_PROVIDER_API_KEY']
}

/** The first of `names` the environment sets (an empty value counts as unset), or null. */
export function envValue(env: NodeJS.ProcessEnv, names: readonly string[]): string | null {
  for (const name of names) if (env[name]) return env[name]!
  return null
}

/** The remembered secrets, or null when the user has not chosen to remember any (no file, or one that cannot be read). */
export function readRememberedSecrets(file: string): RememberedSecrets | null {
  if (!existsSync(file)) return null
  try {
    return fileSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
  } catch {
    return null
  }
}

/**
 * Writes the file owner-only from its first byte: a temp file created anew (a leftover, or a symbolic
 * link planted under its name, is removed, never followed nor reused), set 0600 before anything is
 * written, flushed to disk, then renamed over.
 */
export function writeRememberedSecrets(file: string, secrets: RememberedSecrets): void {
  const temp = `${file}.${process.pid}.tmp`
  rmSync(temp, { force: true })
  // O_EXCL: created here or not at all (it does not follow a link either); O_NOFOLLOW where the platform has it.
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600)
  try {
    fchmodSync(fd, 0o600) // exactly 0600, whatever the umask
    writeFileSync(fd, `${JSON.stringify(secrets, null, 2)}\n`)
    fsyncSync(fd)
  } catch (error) {
    closeSync(fd)
    rmSync(temp, { force: true })
    throw error
  }
  closeSync(fd)
  renameSync(temp, file)
}

export function forgetRememberedSecrets(file: string): void {
  rmSync(file, { force: true })
}

/**
 * `env` with the remembered secrets filled in as the variables they stand for, where no variable that
 * names the same key or secret is set (`OPENAI_API_KEY` for the chat key, `CAIRN_SYNC_TOKEN` for the
 * sync token): the environment first, then the remembered file. The one-shot CLI commands read their
 * keys and tokens from the environment, so this is how `cairn chat`, `cairn sync` and `cairn mcp` see
 * them; `cairn serve` does not use it (its secret store reads the file itself).
 */
export function withRememberedSecrets(env: NodeJS.ProcessEnv, file: string, secretEnvNames: (name: string) => string[]): NodeJS.ProcessEnv {
  const remembered = readRememberedSecrets(file)
  if (!remembered) return env
  const filled: NodeJS.ProcessEnv = { ...env }
  const fill = (names: readonly string[], value: string): void => {
    if (envValue(env, names) === null) filled[names[0]] = value
  }
  for (const [which, value] of Object.entries(remembered.apiKeys)) fill(API_KEY_ENV[which as ApiKeyWhich], value)
  for (const [name, value] of Object.entries(remembered.secrets)) fill(secretEnvNames(name), value)
  return filled
}

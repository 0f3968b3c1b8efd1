/**
 * Cairn's own secrets as environment variables: its provider keys, the sync and MCP-server tokens, and
 * every named secret browser mode and the CLI read from `CAIRN_SECRET_<NAME>`. No child process Cairn
 * starts (a command the model runs, an MCP server, the login shell it asks for PATH) gets them: a
 * prompt-injected `env` or `printenv` would otherwise print them where a fetch could send them away.
 *
 * The list is kept here, and a test checks every `CAIRN_*` variable the code reads against it.
 */
export const CAIRN_SECRET_ENV = [
  'CAIRN_API_KEY',
  'CAIRN_LEARNING_API_KEY',
  'CAIRN_EMBEDDING_API_KEY',
  'CAIRN_MEMORY_PROVIDER_API_KEY',
  'CAIRN_SYNC_TOKEN',
  'CAIRN_MCP_TOKEN',
  // The provider keys Cairn falls back to when CAIRN_API_KEY is not set.
  'OPENAI_API_KEY',
  'OPENROUTER_API_KEY'
] as const

/** Named secrets: `mcp.github.env.TOKEN` is read from `CAIRN_SECRET_MCP_GITHUB_ENV_TOKEN`. */
export const CAIRN_SECRET_PREFIX = 'CAIRN_SECRET_'

const NAMES: ReadonlySet<string> = new Set(CAIRN_SECRET_ENV)

/** Whether `name` holds one of Cairn's secrets (case-insensitively: Windows does not tell case apart). */
export function isCairnSecretEnv(name: string): boolean {
  const upper = name.toUpperCase()
  return NAMES.has(upper) || upper.startsWith(CAIRN_SECRET_PREFIX)
}

/** A copy of `env` without Cairn's secrets. */
export function withoutCairnSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(env)) if (!isCairnSecretEnv(name)) kept[name] = value
  return kept
}

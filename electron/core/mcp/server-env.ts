import type { ErrorParamsByKey, McpValueParams } from '../../../shared/error-keys'
import { KeyedError } from '../../../shared/keyed-error'
import type { McpServerConfig } from '../../../shared/mcp'
import { isRemoteServer } from '../../../shared/mcp'
import { isCairnSecretEnv } from '../security/secret-env'

type McpValueKey = 'mcp.own_secret_named' | 'mcp.secret_not_stored' | 'mcp.own_env_named' | 'mcp.env_not_set'

/** A value could not be resolved: a secret not in the store, or an environment variable not set (with no default). */
export class McpValueError<K extends McpValueKey = McpValueKey> extends KeyedError<K> {
  constructor(
    readonly code: 'secret_missing' | 'config_invalid',
    key: K,
    params: ErrorParamsByKey[K]
  ) {
    super(key, params)
    this.name = 'McpValueError'
  }
}

// One pass over `${secret:NAME}` (as MCP_SECRET_REF names them, anywhere in a value: `Bearer ${secret:TOKEN}`)
// and Claude Code's `${VAR}` / `${VAR:-default}` (Cairn adds `${env:VAR}` to say it plainly). A single
// pass means a value filled in is never read again: a secret holding `${HOME}` stays as it is.
const REFS = /\$\{secret:([A-Za-z0-9_.\-/]+)\}|\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g

/** Names of headers, variables and query parameters whose values are credentials even when written out literally. */
const CREDENTIAL_NAME = /key|token|secret|passw|auth|credential|cookie|signature/i

export interface ValueSources {
  resolveSecret?: (name: string) => string | null
  env: NodeJS.ProcessEnv
}

/** A server's config with every reference filled in, and the secret and credential values it now holds (to keep them out of logs and errors). */
export interface ResolvedServer {
  config: McpServerConfig
  secrets: string[]
}

/**
 * Fills `${secret:NAME}` from the secret store and `${VAR}` / `${env:VAR}` / `${VAR:-default}` from the
 * environment, in the command, args, env, cwd, url and headers. The first missing one fails the server
 * with an error naming it (never its value).
 */
export function resolveServerValues(server: string, config: McpServerConfig, sources: ValueSources): ResolvedServer {
  const secrets: string[] = []
  // Where a value sits, in English for the message and as a part and name for other languages.
  const fill = (value: string, part: McpValueParams['part'], partName = ''): string => {
    const located = { server, where: whereInEnglish(part, partName), part, partName }
    return value.replace(REFS, (_, secretName: string | undefined, name: string, fallback: string | undefined) => {
      if (secretName !== undefined) {
        // Cairn's own tokens (sync, team libraries) live in the same store; no server is given them.
        if (/^sync[./]/i.test(secretName)) {
          throw new McpValueError('config_invalid', 'mcp.own_secret_named', { ...located, secret: secretName })
        }
        const secret = sources.resolveSecret?.(secretName) ?? null
        if (secret === null || secret === '') {
          throw new McpValueError('secret_missing', 'mcp.secret_not_stored', { ...located, secret: secretName })
        }
        secrets.push(secret)
        return secret
      }
      // Cairn's own keys and tokens never go to a server, even when its config names them.
      if (isCairnSecretEnv(name)) {
        throw new McpValueError('config_invalid', 'mcp.own_env_named', { ...located, name })
      }
      const found = sources.env[name]
      if (found !== undefined && found !== '') return found
      if (fallback !== undefined) return fallback
      throw new McpValueError('config_invalid', 'mcp.env_not_set', { ...located, name })
    })
  }
  const fillRecord = (record: Record<string, string>, part: 'header' | 'variable') =>
    Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fill(value, part, key)]))
  const resolved: McpServerConfig = isRemoteServer(config)
    ? { ...config, url: fill(config.url, 'url'), headers: fillRecord(config.headers, 'header') }
    : {
        ...config,
        command: fill(config.command, 'command'),
        args: config.args.map((arg, i) => fill(arg, 'argument', String(i + 1))),
        env: fillRecord(config.env, 'variable'),
        cwd: config.cwd === undefined ? undefined : fill(config.cwd, 'cwd')
      }
  return { config: resolved, secrets: [...secrets, ...literalCredentials(resolved)] }
}

/** The part of the config a value sits in, as the English messages name it (the faces word `part` and `partName`). */
function whereInEnglish(part: McpValueParams['part'], name: string): string {
  switch (part) {
    case 'url':
      return 'the url'
    case 'command':
      return 'the command'
    case 'argument':
      return `argument ${name}`
    case 'header':
      return `the header ${name}`
    case 'variable':
      return `the variable ${name}`
    case 'cwd':
      return 'the folder (cwd)'
  }
}

/**
 * Credentials written straight into the config rather than as `${secret:…}`: they are kept out of
 * the log and the errors all the same. The values of credential-named headers and variables
 * (`Authorization`, `X-API-Key`, `GITHUB_TOKEN`, with any `Bearer ` cut off too), the URL's user
 * and password, and its credential-named query values (`?token=`).
 */
function literalCredentials(config: McpServerConfig): string[] {
  const named = (record: Record<string, string>) => Object.entries(record).filter(([name]) => CREDENTIAL_NAME.test(name)).map(([, value]) => value)
  if (!isRemoteServer(config)) return named(config.env)
  const found = named(config.headers).flatMap((value) => [value, value.replace(/^\s*(?:bearer|basic|token)\s+/i, '')])
  try {
    const url = new URL(config.url)
    found.push(decodeURIComponent(url.username), decodeURIComponent(url.password))
    for (const [name, value] of url.searchParams) if (CREDENTIAL_NAME.test(name)) found.push(value)
  } catch {
    // Not a URL: connecting fails and says so.
  }
  return found.filter((value) => value.trim().length >= 4)
}

/** A URL as the faces and logs show it: its user and password, and credential-named query values, as `***`. */
export function displayUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1***@')
    .replace(/([?&])([^=&#]*)=([^&#]*)/g, (whole, separator: string, name: string, value: string) =>
      CREDENTIAL_NAME.test(decodeURIComponentSafe(name)) && !value.startsWith('${secret:') ? `${separator}${name}=***` : whole
    )
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** The command line or address as the faces show it: references stay unresolved and credentials in a URL are hidden, so no secret appears. */
export function describeTarget(config: McpServerConfig): string {
  if (isRemoteServer(config)) return displayUrl(config.url)
  return [config.command, ...config.args].map((part) => (/\s/.test(part) ? JSON.stringify(part) : part)).join(' ')
}

/** Replaces every secret value in `text` (longest first, so one that contains another is fully hidden). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of [...secrets].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length)) out = out.split(secret).join('[secret]')
  return out
}

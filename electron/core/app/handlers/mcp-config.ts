import { MCP_SECRET_REF } from '../../../../shared/mcp'

/**
 * Edits of config.json's `mcpServers` as pure functions over the raw JSON (keys Cairn does not know
 * are kept, the servers keep their order), and the moves of env and header values into the secret
 * store: config.json only ever gets `${secret:mcp.<server>.<field>.<KEY>}` in their place.
 */

export type RawServers = Record<string, unknown>
export type SecretField = 'env' | 'headers'
/** Secret store writes to make: a value, or null to forget it. */
export type SecretWrites = Array<[name: string, value: string | null]>

const SECRET_FIELDS: readonly SecretField[] = ['env', 'headers']

/** The secret store name for one value of a server, in the characters a `${secret:…}` reference allows. */
export function secretName(server: string, field: SecretField, key: string): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9_.-]/g, '_')
  return `mcp.${safe(server)}.${field}.${safe(key)}`
}

const refTo = (name: string) => `\${secret:${name}}`

/**
 * The server with the given values replaced by references (a null value removes that entry, and its
 * secret when it pointed to one), and the secret writes that go with it.
 */
export function withSecretRefs(
  name: string,
  server: Record<string, unknown>,
  secrets: Partial<Record<SecretField, Record<string, string | null>>> = {}
): { server: Record<string, unknown>; writes: SecretWrites } {
  const out: Record<string, unknown> = { ...server }
  const writes: SecretWrites = []
  for (const field of SECRET_FIELDS) {
    const given = secrets[field]
    if (!given || Object.keys(given).length === 0) continue
    const values: Record<string, unknown> = isObject(out[field]) ? { ...(out[field] as Record<string, unknown>) } : {}
    for (const [key, value] of Object.entries(given)) {
      if (value === null) {
        const ref = typeof values[key] === 'string' ? MCP_SECRET_REF.exec(values[key] as string) : null
        if (ref && ref[1].startsWith('mcp.')) writes.push([ref[1], null])
        delete values[key]
        continue
      }
      const secret = secretName(name, field, key)
      writes.push([secret, value])
      values[key] = refTo(secret)
    }
    out[field] = values
  }
  return { server: out, writes }
}

/** Every plain env and header value of an imported server moved to the secret store. */
export function secretsOfImported(name: string, server: Record<string, unknown>): Partial<Record<SecretField, Record<string, string>>> {
  const secrets: Partial<Record<SecretField, Record<string, string>>> = {}
  for (const field of SECRET_FIELDS) {
    const values = server[field]
    if (!isObject(values)) continue
    const plain = Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !MCP_SECRET_REF.test(entry[1]))
    if (plain.length > 0) secrets[field] = Object.fromEntries(plain)
  }
  return secrets
}

/** The `${secret:…}` names a server's env and headers use. */
export function referencedSecrets(server: unknown): string[] {
  if (!isObject(server)) return []
  const names: string[] = []
  for (const field of SECRET_FIELDS) {
    const values = server[field]
    if (!isObject(values)) continue
    for (const value of Object.values(values)) {
      const ref = typeof value === 'string' ? MCP_SECRET_REF.exec(value) : null
      if (ref) names.push(ref[1])
    }
  }
  return names
}

/** The servers with `name` set to `server`, in the place of `previousName` when it is renamed, else where it was or last. */
export function putServer(servers: RawServers, name: string, server: Record<string, unknown>, previousName?: string): RawServers {
  const replaced = previousName ?? name
  if (!Object.hasOwn(servers, replaced)) return { ...servers, [name]: server }
  return Object.fromEntries(Object.entries(servers).map(([key, value]) => (key === replaced ? [name, server] : [key, value])))
}

export function dropServer(servers: RawServers, name: string): RawServers {
  return Object.fromEntries(Object.entries(servers).filter(([key]) => key !== name))
}

/** The secrets Cairn made for a removed server that no remaining server uses. */
export function orphanedSecrets(removed: unknown, remaining: RawServers): string[] {
  const used = new Set(Object.values(remaining).flatMap(referencedSecrets))
  return referencedSecrets(removed).filter((name) => name.startsWith('mcp.') && !used.has(name))
}

/** One tool switched in a server's `disabledTools` (enabled: false adds it) or `autoApprove` list. */
export function withToolFlags(server: Record<string, unknown>, tool: string, flags: { enabled?: boolean; autoApprove?: boolean }): Record<string, unknown> {
  const out = { ...server }
  const toggle = (key: 'disabledTools' | 'autoApprove', present: boolean) => {
    const list = Array.isArray(out[key]) ? (out[key] as unknown[]).filter((item) => item !== tool) : []
    out[key] = present ? [...list, tool] : list
  }
  if (flags.enabled !== undefined) toggle('disabledTools', !flags.enabled)
  if (flags.autoApprove !== undefined) toggle('autoApprove', flags.autoApprove)
  return out
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

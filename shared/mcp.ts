import { z } from 'zod'

/**
 * MCP servers as the user configures them (`config.json` → `mcpServers`, Claude Desktop's format plus
 * remote servers) and as every face sees them. The config keeps each server as raw JSON: one malformed
 * server is reported as that server's failure (`parseMcpServerConfig`), never a config.json that
 * cannot be read, so chat and the other servers go on.
 */

/** Longest tool name OpenAI-compatible providers accept (`mcp__<server>__<tool>` is cut to fit). */
export const MCP_TOOL_NAME_MAX = 64

/** A value `${secret:NAME}` in `env` or `headers` is kept in the secret store (encrypted in the app), never in config.json. */
export const MCP_SECRET_REF = /^\$\{secret:([A-Za-z0-9_.\-/]+)\}$/

const serverCommon = {
  enabled: z.boolean().default(true),
  /** How long one request (start-up, a tool call) may take before it fails with a timeout. */
  timeoutMs: z.number().int().min(1000).max(3_600_000).default(60_000),
  /** Tools of this server the model never sees (by the server's own tool name). */
  disabledTools: z.array(z.string()).default([]),
  /** Tools of this server that run without asking (by the server's own tool name); "always allow" adds here. */
  autoApprove: z.array(z.string()).default([])
}

export const mcpStdioServerSchema = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().trim().min(1, 'command is empty'),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
  ...serverCommon
})

/** `http` is Streamable HTTP (falling back to the older SSE transport when the server only speaks that); `sse` forces SSE. */
export const mcpRemoteTransports = ['http', 'sse', 'streamableHttp'] as const

export const mcpRemoteServerSchema = z.looseObject({
  type: z.enum(mcpRemoteTransports),
  url: z.url({ protocol: /^https?$/, error: 'url must be an http:// or https:// address' }),
  headers: z.record(z.string(), z.string()).default({}),
  ...serverCommon
})

export const mcpServerConfigSchema = z.union([mcpRemoteServerSchema, mcpStdioServerSchema])
export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>
export type McpStdioServerConfig = z.infer<typeof mcpStdioServerSchema>
export type McpRemoteServerConfig = z.infer<typeof mcpRemoteServerSchema>

export function isRemoteServer(config: McpServerConfig): config is McpRemoteServerConfig {
  return 'url' in config && typeof config.url === 'string'
}

/**
 * A name an MCP server chose (a tool, a server's own name), as the user reads it in an approval:
 * control and format characters (bidi overrides, zero-width) are spelled out as `<U+202E>`, so a
 * name cannot pose as another on screen.
 */
export function visibleMcpName(name: string): string {
  return name.replace(/[\p{Cc}\p{Cf}]/gu, (ch) => `<U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`)
}

/** Server names as the user types them: what a tool name can carry after sanitising. */
export const mcpServerNameSchema = z
  .string()
  .trim()
  .min(1, 'the server needs a name')
  .max(64, 'a server name is at most 64 characters')
  .regex(/^[A-Za-z0-9_.\- ]+$/, 'a server name may hold letters, digits, spaces, dots, hyphens and underscores')

export type ParsedServerConfig = { ok: true; config: McpServerConfig } | { ok: false; error: string }

/** One server's raw JSON checked; the error names the field and what is wrong with it. */
export function parseMcpServerConfig(raw: unknown): ParsedServerConfig {
  const result = mcpServerConfigSchema.safeParse(raw)
  if (result.success) return { ok: true, config: result.data }
  const remote = typeof raw === 'object' && raw !== null && ('url' in raw || 'type' in raw) && (raw as { type?: unknown }).type !== 'stdio'
  const issues = (remote ? mcpRemoteServerSchema : mcpStdioServerSchema).safeParse(raw)
  const list = issues.success ? result.error.issues : issues.error.issues
  return { ok: false, error: list.map((issue) => `${issue.path.join('.') || 'server'}: ${issue.message}`).join('; ') }
}

/** The `mcp` section of config.json: when the tool list is replaced by one search tool. */
export const mcpSettingsSchema = z.looseObject({
  /** `auto`: use `mcp_tool_search` once the enabled MCP tools pass either budget below; `always` / `never` force it. */
  toolSearch: z.enum(['auto', 'always', 'never']).default('auto'),
  /** More enabled MCP tools than this and they are found through `mcp_tool_search` instead of sent on every call. */
  toolSearchMaxTools: z.number().int().min(0).max(10_000).default(40),
  /** Estimated tokens of the MCP tool definitions past which `mcp_tool_search` takes over. */
  toolSearchMaxTokens: z.number().int().min(0).max(1_000_000).default(8000),
  /** How long a conversation's first turn waits for servers still starting (they count from the next conversation otherwise). */
  startWaitMs: z.number().int().min(0).max(120_000).default(10_000)
})
export type McpSettings = z.infer<typeof mcpSettingsSchema>

// ── What the faces see ────────────────────────────────────────────────────────────────

export const mcpServerStatuses = ['disabled', 'stopped', 'starting', 'ready', 'failed'] as const
export type McpServerStatus = (typeof mcpServerStatuses)[number]

/** Why a server is not ready, as a code the faces word; `message` carries the technical detail (the server's own words). */
export const mcpErrorCodes = ['config_invalid', 'secret_missing', 'spawn_failed', 'connect_failed', 'unauthorized', 'timeout', 'crashed'] as const
export type McpErrorCode = (typeof mcpErrorCodes)[number]

/**
 * Why a server is not ready: `code` worded briefly, `key` and `params` (shared/error-keys.ts) the whole
 * story in the face's language, `message` its English (for logs, the CLI and peers without the key).
 */
export const mcpServerProblemSchema = z.object({
  code: z.enum(mcpErrorCodes),
  message: z.string(),
  key: z.string().optional(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional()
})
export type McpServerProblem = z.infer<typeof mcpServerProblemSchema>

export const mcpToolInfoSchema = z.object({
  /** The server's own name for the tool. */
  name: z.string(),
  /** What the model calls it: `mcp__<server>__<tool>`, sanitised and cut to 64 characters. */
  exposedName: z.string(),
  title: z.string().optional(),
  description: z.string(),
  enabled: z.boolean(),
  autoApprove: z.boolean()
})
export type McpToolInfo = z.infer<typeof mcpToolInfoSchema>

export const mcpServerInfoSchema = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http', 'sse']),
  /** The command line or the URL, with secret values never shown. */
  target: z.string(),
  enabled: z.boolean(),
  status: z.enum(mcpServerStatuses),
  tools: z.array(mcpToolInfoSchema),
  resourceCount: z.number().int(),
  promptCount: z.number().int(),
  error: mcpServerProblemSchema.optional(),
  /** The last lines the server wrote to stderr (stdio) or of Cairn's log of it. */
  logTail: z.string(),
  /** Restarts after a crash since the app started. */
  restarts: z.number().int(),
  /** When the next restart after a crash is due (epoch ms). */
  nextRestartAt: z.number().optional(),
  serverVersion: z.object({ name: z.string(), version: z.string() }).optional()
})
export type McpServerInfo = z.infer<typeof mcpServerInfoSchema>

export const mcpResourceInfoSchema = z.object({
  server: z.string(),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional()
})
export type McpResourceInfo = z.infer<typeof mcpResourceInfoSchema>

export const mcpPromptInfoSchema = z.object({
  server: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(z.object({ name: z.string(), description: z.string().optional(), required: z.boolean().optional() }))
})
export type McpPromptInfo = z.infer<typeof mcpPromptInfoSchema>

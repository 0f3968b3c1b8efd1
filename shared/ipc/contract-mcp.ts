import { z } from 'zod'
import { mcpPromptInfoSchema, mcpResourceInfoSchema, mcpServerInfoSchema, mcpServerNameSchema } from '../mcp'
import { defineRoute } from './define'

/**
 * The MCP routes of the contract (spread into `ipcRoutes`): Settings → Tools (MCP), the composer's
 * prompts and resources, and a conversation's "Reload tools". None is for the quick window: its page
 * neither configures servers nor offers the composer's `/` prompts or attachments.
 */

const serverName = z.string().trim().min(1).max(200)
const ok = z.object({ ok: z.literal(true) })
/** A server's JSON as Claude Desktop writes it; main checks it with `parseMcpServerConfig`. */
const rawServer = z.record(z.string(), z.unknown())
/** Values to keep in the secret store (never in config.json); null removes that entry and its secret. */
const secretValues = z.record(z.string().min(1).max(200), z.string().max(20_000).nullable())

export const mcpImportSources = ['claude-desktop', 'claude-code'] as const
export type McpImportSource = (typeof mcpImportSources)[number]

export const mcpListSchema = z.object({
  servers: z.array(mcpServerInfoSchema),
  /** config.json's `mcpServers` as written (secret values appear only as `${secret:NAME}`). */
  config: z.record(z.string(), z.unknown()),
  /** The `${secret:NAME}` names the servers use that have a value kept (never the values). */
  keptSecrets: z.array(z.string())
})
export type McpList = z.infer<typeof mcpListSchema>

export const mcpImportCandidateSchema = z.object({
  name: z.string(),
  /** The file it was found in. */
  source: z.string(),
  server: z.record(z.string(), z.unknown()),
  /** `identical`: Cairn has the same server under that name (skipped); `conflict`: a different one (rename or skip). */
  status: z.enum(['new', 'identical', 'conflict', 'invalid']),
  /** Why `invalid` (the field and what is wrong), from `parseMcpServerConfig`. */
  error: z.string().optional()
})
export type McpImportCandidate = z.infer<typeof mcpImportCandidateSchema>

export const mcpImportPreviewSchema = z.object({
  from: z.enum(mcpImportSources),
  /** The files looked at, and whether each was there. */
  files: z.array(z.object({ path: z.string(), found: z.boolean() })),
  servers: z.array(mcpImportCandidateSchema),
  /** A file that is there but could not be read (malformed JSON with the parser's position); the others still import. */
  problems: z.array(z.object({ file: z.string(), error: z.string() }))
})
export type McpImportPreview = z.infer<typeof mcpImportPreviewSchema>

export const mcpRoutes = {
  /** Every configured server with its state; asking starts the enabled ones not started yet (Settings opening starts them). */
  'mcp.list': defineRoute({ input: z.void(), output: mcpListSchema }),
  /**
   * Adds a server, or replaces `previousName` (renamed when `name` differs) with this JSON. Keys Cairn
   * does not know are kept. `secrets` values go to the secret store as `mcp.<server>.env.<KEY>` /
   * `.headers.<KEY>` and the config gets `${secret:…}` in their place.
   */
  'mcp.save': defineRoute({
    input: z.object({
      name: mcpServerNameSchema,
      server: rawServer,
      previousName: serverName.optional(),
      secrets: z.object({ env: secretValues.optional(), headers: secretValues.optional() }).optional()
    }),
    output: mcpListSchema
  }),
  /** Removes the server from config.json and forgets the secrets only it used. */
  'mcp.remove': defineRoute({ input: z.object({ name: serverName }), output: mcpListSchema }),
  'mcp.setEnabled': defineRoute({ input: z.object({ name: serverName, enabled: z.boolean() }), output: mcpListSchema }),
  /** One tool of a server: shown to the model or not (`disabledTools`), run without asking or not (`autoApprove`). */
  'mcp.setTool': defineRoute({
    input: z.object({ name: serverName, tool: z.string().min(1).max(500), enabled: z.boolean().optional(), autoApprove: z.boolean().optional() }),
    output: mcpListSchema
  }),
  /** Connects the server again now and reports it. */
  'mcp.test': defineRoute({ input: z.object({ name: serverName }), output: mcpServerInfoSchema }),
  /** The tail of the server's log (its stderr and Cairn's lines about it). */
  'mcp.log': defineRoute({ input: z.object({ name: serverName }), output: z.object({ text: z.string() }) }),
  /** Reads config.json again: new and enabled servers start, removed and disabled ones stop, changed ones restart. */
  'mcp.reload': defineRoute({ input: z.void(), output: mcpListSchema }),
  /** What another app's config holds, checked against Cairn's servers; imports nothing. */
  'mcp.importPreview': defineRoute({ input: z.object({ from: z.enum(mcpImportSources) }), output: mcpImportPreviewSchema }),
  /**
   * Imports the servers named (`renames`: a conflicting one under a new name). Their env and header
   * values go to the secret store, never into config.json.
   */
  'mcp.import': defineRoute({
    input: z.object({
      from: z.enum(mcpImportSources),
      names: z.array(serverName).min(1).max(200),
      renames: z.record(serverName, mcpServerNameSchema).optional()
    }),
    output: mcpListSchema.extend({ imported: z.array(z.string()) })
  }),
  'mcp.resources': defineRoute({ input: z.void(), output: z.array(mcpResourceInfoSchema) }),
  /** A resource's text, for the composer to attach as a text file. */
  'mcp.readResource': defineRoute({
    input: z.object({ server: serverName, uri: z.string().min(1).max(4000) }),
    output: z.object({ name: z.string(), mimeType: z.string().optional(), text: z.string() })
  }),
  'mcp.prompts': defineRoute({ input: z.void(), output: z.array(mcpPromptInfoSchema) }),
  /** The prompt's messages flattened to text, for the composer. */
  'mcp.getPrompt': defineRoute({
    input: z.object({ server: serverName, name: z.string().min(1).max(500), arguments: z.record(z.string().max(200), z.string().max(20_000)).default({}) }),
    output: z.object({ text: z.string() })
  }),
  /** The conversation gets the MCP tools as they are now from its next turn on (which restarts its prompt cache). */
  'chat.reloadTools': defineRoute({ input: z.object({ sessionId: z.string().min(1).max(200) }), output: ok })
}

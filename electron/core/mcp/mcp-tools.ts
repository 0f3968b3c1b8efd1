import type { CallToolResult, Tool } from '@modelcontextprotocol/client'
import { z } from 'zod'
import { visibleMcpName } from '../../../shared/mcp'
import { cutEnd, cutMiddle } from '../text/cut'
import type { ApprovalRequest, McpToolRef, ToolContext, ToolDef } from '../tools/types'
import { McpCallError } from './server-runner'

/** Longest description the model gets for one MCP tool (some servers ship pages of it). */
export const MCP_DESCRIPTION_MAX = 1024
const MAX_PREVIEW_CHARS = 4000

/** One server tool in a conversation's snapshot. */
export interface McpSnapshotTool extends McpToolRef {
  definition: Tool
  /** How the server was configured to connect when the snapshot was taken: calls go to that server only, never to another one given its name since. */
  serverKey: string
}

/** A tool call's answer as the model reads it (secret values of the server already replaced). */
export interface McpCallOutcome {
  text: string
  isError: boolean
}

/** What an MCP tool needs when it runs: the server's current connection, looked up at call time. */
export interface McpToolCaller {
  callTool(entry: McpSnapshotTool, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallOutcome>
}

/** Arguments go to the server as they are: it validates them against its own schema and says what is wrong. */
const anyArguments = z.record(z.string(), z.unknown())

/** The server's input schema as the model sees it (an object schema, without the `$schema` dialect line). */
export function mcpParameters(definition: Tool): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = (definition.inputSchema ?? {}) as Record<string, unknown>
  void _dialect
  return schema.type === 'object' ? schema : { type: 'object', properties: {}, ...schema }
}

export function mcpDescription(entry: McpSnapshotTool): string {
  const own = (entry.definition.description ?? entry.definition.title ?? '').trim()
  const text = `[MCP server ${entry.server}] ${own || `The ${entry.tool} tool.`}`
  return cutEnd(text, MCP_DESCRIPTION_MAX)
}

/** An MCP server's tool as a Cairn tool: the user approves each call (unless allowed), then the server runs it. */
export function mcpToolDef(entry: McpSnapshotTool, caller: McpToolCaller): ToolDef {
  return {
    name: entry.exposedName,
    description: mcpDescription(entry),
    schema: anyArguments,
    parameters: mcpParameters(entry.definition),
    mcp: [{ server: entry.server, tool: entry.tool, exposedName: entry.exposedName }],
    run: (args, ctx) => runMcpTool(entry, caller, args as Record<string, unknown>, ctx)
  }
}

async function runMcpTool(entry: McpSnapshotTool, caller: McpToolCaller, args: Record<string, unknown>, ctx: ToolContext): Promise<unknown> {
  const refusal = await approveCall(entry, args, ctx)
  if (refusal) return refusal
  let outcome: McpCallOutcome
  try {
    outcome = await caller.callTool(entry, args, ctx.signal)
  } catch (error) {
    // The server failed (not the tool): `server_failed` names it, so the chat links to its settings (issue 29, part A).
    if (error instanceof McpCallError) return { success: false, error: error.message, server_failed: entry.server }
    return { success: false, error: `${entry.exposedName} failed on the MCP server "${entry.server}": ${(error as Error).message}`, server_failed: entry.server }
  }
  return outcome.isError ? { success: false, error: outcome.text } : outcome.text
}

async function approveCall(entry: McpSnapshotTool, args: Record<string, unknown>, ctx: ToolContext): Promise<object | null> {
  const summary = `Run ${visibleMcpName(entry.tool)} on the MCP server "${visibleMcpName(entry.server)}"`
  if (!ctx.approve) {
    return { success: false, error: `${entry.exposedName} needs the user's approval, and nobody can approve in this session. Do not retry; tell the user what you wanted to do.` }
  }
  const request: ApprovalRequest = {
    kind: 'mcp',
    tool: entry.exposedName,
    server: entry.server,
    mcpTool: entry.tool,
    summary,
    preview: cutMiddle(JSON.stringify(args, null, 2), MAX_PREVIEW_CHARS, { headShare: 1 }),
    scopes: ['once', 'session', 'tool']
  }
  if (await ctx.approve(request)) return null
  return {
    success: false,
    denied: true,
    error: `The user declined: ${entry.tool} did not run on the MCP server "${entry.server}". Do not retry the same call; ask the user what they would like instead.`
  }
}

/**
 * A tool result as the model reads it: text parts joined; the structured result as JSON when there is
 * no text; images and audio named (never inlined); embedded resources' text; resource links listed.
 */
export function mcpResultText(result: CallToolResult): string {
  const parts: string[] = []
  let hasText = false
  for (const block of result.content ?? []) {
    if (block.type === 'text') {
      parts.push(block.text)
      hasText = true
    } else if (block.type === 'image' || block.type === 'audio') {
      parts.push(`[${block.type}: ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]`)
    } else if (block.type === 'resource') {
      const resource = block.resource
      if ('text' in resource && typeof resource.text === 'string') {
        parts.push(`[resource ${resource.uri}]\n${resource.text}`)
        hasText = true
      } else parts.push(`[resource ${resource.uri}: ${resource.mimeType ?? 'binary'}, ${base64Bytes(String((resource as { blob?: unknown }).blob ?? ''))} bytes, not shown]`)
    } else if (block.type === 'resource_link') {
      parts.push(`[resource link: ${block.name} ${block.uri}${block.mimeType ? ` (${block.mimeType})` : ''}${block.description ? ` ${block.description}` : ''}]`)
    }
  }
  if (!hasText && result.structuredContent !== undefined) parts.unshift(JSON.stringify(result.structuredContent))
  return parts.length ? parts.join('\n') : '(the tool returned nothing)'
}

function base64Bytes(data: string): number {
  return Math.floor((data.replace(/=+$/, '').length * 3) / 4)
}

import type { ChatCompletionTool } from 'openai/resources/chat/completions'
import { z } from 'zod'
import type { ToolContext, ToolDef } from './types'

/** The arguments did not match the tool's schema; the message says which field and why. */
export class ToolArgumentsError extends Error {
  constructor(readonly toolName: string, readonly issues: string[]) {
    super(`Invalid arguments for ${toolName}: ${issues.join('; ')}. Fix these fields and call ${toolName} again.`)
    this.name = 'ToolArgumentsError'
  }
}

/** Parses a model's raw argument string (JSON) or an already-parsed object and validates it against the tool's schema. */
export function parseToolArguments<S extends z.ZodType>(tool: ToolDef<S>, raw: unknown): z.infer<S> {
  let value = raw
  if (typeof raw === 'string') {
    const text = raw.trim() === '' ? '{}' : raw
    try {
      value = JSON.parse(text)
    } catch (error) {
      throw new ToolArgumentsError(tool.name, [`arguments are not valid JSON (${(error as Error).message})`])
    }
  }
  const result = tool.schema.safeParse(value)
  if (!result.success) {
    throw new ToolArgumentsError(
      tool.name,
      result.error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`)
    )
  }
  return result.data
}

/**
 * Validates and runs a tool, turning bad arguments and unexpected exceptions into a readable
 * `{success: false, error}` result, so a broken call never crashes the turn.
 */
export async function runTool(tool: ToolDef, raw: unknown, ctx: ToolContext): Promise<unknown> {
  let args: unknown
  try {
    args = parseToolArguments(tool, raw)
  } catch (error) {
    return { success: false, error: (error as Error).message }
  }
  try {
    return await tool.run(args, ctx)
  } catch (error) {
    return { success: false, error: `${tool.name} failed: ${(error as Error).message}` }
  }
}

/** The JSON schema the model sees for a tool's parameters (a tool's own `parameters`, as an MCP server gave them, untouched). */
export function toolParametersSchema(tool: ToolDef): Record<string, unknown> {
  if (tool.parameters) return tool.parameters
  const schema = z.toJSONSchema(tool.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  delete schema.$schema
  return compactSchema(schema) as Record<string, unknown>
}

/**
 * Drops what zod's JSON schema adds that tells a model nothing but is paid for in every request:
 * the safe-integer bounds of `.int()`, an empty `additionalProperties`, and `null` beside a type
 * (`.nullish()` fields still accept null when the arguments are parsed; the model need not be told).
 */
function compactSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactSchema)
  if (!node || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue
    if (key === 'additionalProperties' && value && typeof value === 'object' && Object.keys(value).length === 0) continue
    if (key === 'type' && Array.isArray(value) && value.length === 2 && value.includes('null')) {
      out.type = value.find((type) => type !== 'null')
      continue
    }
    out[key] = compactSchema(value)
  }
  return out
}

/** How the model is offered a tool; `description` replaces the tool's own (a review words it differently). */
export function toolSchema(tool: ToolDef, description: string = tool.description): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description, parameters: toolParametersSchema(tool) } }
}

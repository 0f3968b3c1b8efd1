import type { MessageKey, Params, Translate } from '../../../../shared/i18n'
import type { ToolItem } from '../../stores/chat-items'

/** A JSON object parsed from a tool's arguments or result; {} when it is not one (partial, cut, plain text). */
export type Fields = Record<string, unknown>

export function parseFields(text: string | null): Fields {
  if (!text) return {}
  try {
    const value = JSON.parse(text) as unknown
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : {}
  } catch {
    return {}
  }
}

export function str(fields: Fields, key: string): string | undefined {
  const value = fields[key]
  return typeof value === 'string' ? value : undefined
}

export function num(fields: Fields, key: string): number | undefined {
  const value = fields[key]
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/** The last part of a path ("src/app.yml" → "app.yml"), as file names are shown in titles. */
export function baseName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '')
  return trimmed.split(/[\\/]/).pop() || trimmed || path
}

export function hostOf(address: string): string {
  try {
    return new URL(address).host || address
  } catch {
    return address
  }
}

/** Where the call stands, as the row shows it. */
export type ToolState = 'approval' | 'running' | 'declined' | 'failed' | 'done'

/** The user said no to this call (an approval tool's result carries `denied: true`). */
export function wasDeclined(result: string | null): boolean {
  return parseFields(result).denied === true
}

export function toolState(item: ToolItem, awaitingApproval: boolean): ToolState {
  if (item.result === null) return awaitingApproval ? 'approval' : 'running'
  if (item.ok === false) return wasDeclined(item.result) ? 'declined' : 'failed'
  return 'done'
}

const MEMORY_ACTIONS = new Set(['add', 'replace', 'remove', 'read'])
const SKILL_ACTIONS: Record<string, string> = { create: 'create', edit: 'edit', patch: 'edit', delete: 'delete', write_file: 'write_file', remove_file: 'remove_file' }

/**
 * What the call did (or, until it has, what it asks to do), in plain words: "Ran a command",
 * "Edited notes.md", "Read package.json". Unknown tools get "Used {name}".
 */
export function toolTitle(item: ToolItem, state: ToolState, t: Translate): string {
  // A held-back change was not made: its title says what it asks to do.
  const tense = state === 'done' && !heldBack(item.result) ? 'done' : 'intent'
  const args = parseFields(item.arguments)
  const say = (key: string, params?: Params) => t(`tools.${tense}.${key}` as MessageKey, params)
  const path = str(args, 'path')
  switch (item.name) {
    case 'run_command':
    case 'skills_list':
    case 'session_search':
      return say(item.name)
    case 'write_file':
      return tense === 'done' && parseFields(item.result).created === true ? say('create_file', { name: baseName(path ?? '') }) : say('write_file', { name: baseName(path ?? '') })
    case 'edit_file':
    case 'read_file':
      return say(item.name, { name: baseName(path ?? '') })
    case 'list_dir':
      return say('list_dir', { name: path ? baseName(path) : t('tools.workspace') })
    case 'search_files':
      return say('search_files', { pattern: str(args, 'content') ?? str(args, 'name') ?? '' })
    case 'fetch_url':
      return say('fetch_url', { host: hostOf(str(args, 'url') ?? '') })
    case 'skill_view':
      return say('skill_view', { name: str(args, 'name') ?? '' })
    case 'memory': {
      const target = str(args, 'target')
      const store = t(target === 'user' ? 'tools.store.user' : target === 'project' ? 'tools.store.project' : 'tools.store.memory')
      if (tense === 'done' && parseFields(item.result).duplicate === true) return t('memory.tool.alreadyIn', { store })
      if (Array.isArray(args.operations) && args.operations.length > 0) return say('memory.batch', { store, count: args.operations.length })
      const action = str(args, 'action') ?? ''
      return say(`memory.${MEMORY_ACTIONS.has(action) ? action : 'read'}`, { store })
    }
    case 'skill_manage': {
      const action = SKILL_ACTIONS[str(args, 'action') ?? ''] ?? 'edit'
      return say(`skill.${action}`, { name: str(args, 'name') ?? '', file: str(args, 'file_path') ?? '' })
    }
    case 'mcp_tool_search':
      return say('mcp_tool_search')
    case 'mcp_call': {
      const called = mcpToolOf(str(args, 'name') ?? '')
      return called ? say('mcp', called) : say('other', { name: str(args, 'name') ?? item.name })
    }
    default: {
      const mcp = mcpToolOf(item.name)
      return mcp ? say('mcp', mcp) : say('other', { name: item.name })
    }
  }
}

/**
 * The server and tool of an MCP tool's name as the model calls it (`mcp__<server>__<tool>`), for
 * words like "Used echo from everything"; null for any other name. A server name holding `__` reads
 * as far as its first one, which only changes how the row is worded.
 */
export function mcpToolOf(name: string): { server: string; tool: string } | null {
  const match = /^mcp__(.+?)__(.+)$/.exec(name)
  return match ? { server: match[1], tool: match[2] } : null
}

/** A short line beside the title: the command, the address, or how much was read or found. */
export function toolSummary(item: ToolItem, t: Translate): string {
  const args = parseFields(item.arguments)
  const result = parseFields(item.result)
  switch (item.name) {
    case 'run_command':
      return oneLine(str(args, 'command') ?? '')
    case 'read_file': {
      const total = num(result, 'total_lines')
      const start = num(result, 'start_line')
      const end = num(result, 'end_line')
      if (total === undefined) return ''
      return result.truncated === true && start !== undefined && end !== undefined ? t('tools.lineRange', { start, end, total }) : t('tools.lines', { count: total })
    }
    case 'list_dir': {
      const count = num(result, 'count')
      return count === undefined ? '' : t('tools.entries', { count })
    }
    case 'search_files': {
      const count = num(result, 'count')
      if (count === undefined) return ''
      const files = num(result, 'files_with_matches')
      return files === undefined ? t('tools.files', { count }) : t('tools.matches', { count, files })
    }
    case 'session_search':
    case 'mcp_tool_search':
      return oneLine(str(args, 'query') ?? '')
    case 'fetch_url':
      return str(result, 'title') ?? ''
    case 'memory':
    case 'skill_manage':
      return heldBack(item.result) ? t('tools.heldBack') : ''
    default:
      return ''
  }
}

/** A memory or skill change the learning policy held back: it became a proposal in the Inbox. */
export function heldBack(result: string | null): boolean {
  const ids = parseFields(result).proposal_ids
  return Array.isArray(ids) && ids.length > 0
}

function oneLine(text: string): string {
  const line = text.trim().split('\n')[0]
  return line.length > 80 ? `${line.slice(0, 80)}…` : line
}

/** Tools whose result the row shows open: what changed the user's files or ran on their machine. */
export function opensByDefault(name: string): boolean {
  return name === 'run_command' || name === 'write_file' || name === 'edit_file'
}

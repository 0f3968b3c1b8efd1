import type { ReadSource } from '../../../shared/provenance'
import { recallOf, type RecalledItem } from '../../../shared/recall'
import type { MessageRecord } from '../sessions'
import { userWords } from '../sessions/stored-messages'
import { ProvenanceEvidence } from '../text/provenance-evidence'

/**
 * A conversation's messages as evidence of where learned content came from: the user's turns are
 * what they said; each tool result is something read, named by the call that read it (a file, a
 * page's host, a command, an MCP tool). Works on stored messages and on a review's transcript alike.
 */
export interface EvidenceMessage {
  role: string
  content: string | null
  toolCallId?: string | null
  toolName?: string | null
  toolCalls?: ReadonlyArray<{ id?: string; name: string; arguments: string }> | null
  /** For user messages: the memory recalled into that turn, which Cairn read, not what the user said. */
  recalled?: readonly RecalledItem[]
}

/** Tools whose results are Cairn's own (its memory, its skill list, what a write did): never a source. */
const NOT_SOURCES = new Set(['memory', 'skills_list', 'skill_manage', 'propose_disable', 'write_file', 'edit_file'])

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url
  } catch {
    return url
  }
}

function cut(value: string, max = 80): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value
}

/** What a tool call read, as a person recognises it; null for calls whose result is not something read. */
export function readSourceOf(toolName: string, rawArguments: string, callId?: string): ReadSource | null {
  if (NOT_SOURCES.has(toolName)) return null
  const args = parseArguments(rawArguments)
  const base = { tool: toolName, ...(callId ? { callId } : {}) }
  switch (toolName) {
    case 'read_file':
      return { kind: 'file', label: cut(text(args.path) ?? 'a file'), ...base }
    case 'list_dir':
    case 'search_files':
      return { kind: 'file', label: cut(text(args.path) ?? text(args.pattern) ?? text(args.query) ?? '.'), ...base }
    case 'fetch_url':
      return { kind: 'web', label: cut(hostOf(text(args.url) ?? 'a web page')), ...base }
    case 'run_command':
      return { kind: 'command', label: cut(text(args.command) ?? 'a command', 60), ...base }
    case 'session_search':
      return { kind: 'search', label: cut(text(args.query) ?? ''), ...base }
    case 'skill_view':
      return { kind: 'skill', label: cut(text(args.name) ?? 'a skill'), ...base }
    case 'mcp_tool_search':
      return { kind: 'mcp', label: 'tool search', ...base }
    default:
      // Every other tool comes from an MCP server (`server__tool` as the model calls it).
      return { kind: 'mcp', label: cut(toolName.replace('__', '/')), ...base }
  }
}

/** Adds a conversation's messages to `evidence` (or a new one): user turns as said, tool results as read. */
export function conversationEvidence(messages: readonly EvidenceMessage[], evidence = new ProvenanceEvidence()): ProvenanceEvidence {
  const calls = new Map<string, { name: string; arguments: string }>()
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) if (call.id) calls.set(call.id, call)
  }
  for (const message of messages) addMessage(evidence, message, calls)
  return evidence
}

/**
 * Adds one message, finding a tool result's call in `calls` (the calls seen so far: a live chat adds
 * each assistant message's calls before their results arrive).
 */
export function addMessage(evidence: ProvenanceEvidence, message: EvidenceMessage, calls: Map<string, { name: string; arguments: string }>): void {
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) {
      if (call.id) calls.set(call.id, call)
      // Only a command it ran (each asks the user unless they allowed it) is what it did. A file it wrote,
      // a page it fetched or an MCP call's arguments may carry what it read, word for word.
      if (call.name === 'run_command') evidence.addDone(text(parseArguments(call.arguments).command) ?? '')
    }
    return
  }
  if (message.role === 'user') {
    evidence.addSaid(message.content ?? '')
    for (const item of message.recalled ?? []) evidence.addRead(item.text, { kind: 'recall', label: `${item.provider} #${item.id}` })
    return
  }
  // A summary retells what was said and read alike: what it holds beyond the user's own turns counts as read.
  if (message.role === 'summary') {
    if (message.content) evidence.addRead(message.content, { kind: 'tool', label: 'a summary of earlier messages' })
    return
  }
  if (message.role !== 'tool' || !message.content) return
  const call = message.toolCallId ? calls.get(message.toolCallId) : undefined
  const name = call?.name ?? message.toolName ?? ''
  if (!name) return
  if (name === 'skill_view' && isOwnSkillView(message.content)) return
  const source = readSourceOf(name, call?.arguments ?? '{}', message.toolCallId ?? undefined)
  if (source) evidence.addRead(message.content, source)
}

/**
 * A skill Cairn keeps in its own skills folder is what it already learned (under this policy, or
 * approved by the user), so reading it is no source; a shared or extra folder's skill (read-only) is.
 * The result is skill_view's own JSON, which says which it is.
 */
function isOwnSkillView(result: string): boolean {
  try {
    const value: unknown = JSON.parse(result)
    return Boolean(value) && typeof value === 'object' && (value as { readOnly?: unknown }).readOnly === false
  } catch {
    return false
  }
}

/** Stored messages as evidence: a user message is the user's own words (without the skill hint Cairn appended) and the memory recalled into it. */
export function evidenceMessagesOf(records: readonly MessageRecord[]): EvidenceMessage[] {
  return records.map((record) => (record.role === 'user' ? asSaid(record) : record))
}

function asSaid(record: MessageRecord): EvidenceMessage {
  return { ...record, content: userWords(record), recalled: recallOf(record.meta)?.items ?? [] }
}

/**
 * A live conversation's evidence, kept up to date as messages are added: each stored message is added
 * once (by id), whatever order the history holds them in (a summary sits before newer messages).
 */
export class LiveEvidence {
  readonly evidence = new ProvenanceEvidence()
  private readonly calls = new Map<string, { name: string; arguments: string }>()
  private readonly added = new Set<number>()

  /** Adds the messages not seen yet and answers the evidence so far. */
  update(records: readonly MessageRecord[]): ProvenanceEvidence {
    for (const record of records) {
      if (this.added.has(record.id)) continue
      this.added.add(record.id)
      addMessage(this.evidence, record.role === 'user' ? asSaid(record) : record, this.calls)
    }
    return this.evidence
  }
}

/**
 * The repository's instruction files a conversation started with (AGENTS.md, CLAUDE.md…) count as read,
 * never as said: a memory or skill write copying them is judged as text Cairn read, not the user's word.
 */
export function addInstructionsRead<F extends { file: string; text: string }>(evidence: ProvenanceEvidence, files: F[]): F[] {
  for (const file of files) if (file.text) evidence.addRead(file.text, { kind: 'file', label: file.file, tool: 'project_instructions' })
  return files
}

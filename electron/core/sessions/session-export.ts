import type { SessionStore } from './session-store'
import { SessionNotFoundError } from './session-store'
import { userWords } from './stored-messages'
import type { MessageRecord, SessionRecord } from './types'

export const exportFormats = ['md', 'json'] as const
export type ExportFormat = (typeof exportFormats)[number]

export interface SessionExport {
  /** A file name made from the title and id, safe on every platform. */
  fileName: string
  mimeType: string
  text: string
}

/** Bumped when the JSON shape changes, so a reader can tell exports apart. */
const JSON_EXPORT_VERSION = 1

/**
 * A whole conversation (compacted messages included) as Markdown or JSON. User messages are the
 * user's own words: the skill hint Cairn appended for the model is left out of both formats.
 */
export function exportSession(store: SessionStore, sessionId: string, format: ExportFormat): SessionExport {
  const session = store.get(sessionId)
  if (!session) throw new SessionNotFoundError(sessionId)
  const messages = store.messages(sessionId, { includeCompacted: true }).filter((m) => m.role !== 'system')
  const base = fileBase(session)
  if (format === 'json') {
    return { fileName: `${base}.json`, mimeType: 'application/json', text: `${JSON.stringify(jsonExport(session, messages), null, 2)}\n` }
  }
  return { fileName: `${base}.md`, mimeType: 'text/markdown', text: markdownExport(session, messages) }
}

function jsonExport(session: SessionRecord, messages: MessageRecord[]): unknown {
  return {
    format: 'cairn-conversation',
    version: JSON_EXPORT_VERSION,
    session: {
      id: session.id,
      title: session.title,
      source: session.source,
      model: session.model,
      workspace: session.workspace,
      startedAt: new Date(session.startedAt).toISOString(),
      updatedAt: new Date(session.updatedAt).toISOString(),
      tokens: { input: session.inputTokens, output: session.outputTokens, cached: session.cachedTokens }
    },
    messages: messages.map((m) => ({
      id: m.id,
      role: m.role,
      content: m.role === 'user' ? userWords(m) : m.content,
      ...(m.toolCalls?.length ? { toolCalls: m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: parseArguments(c.arguments) })) } : {}),
      ...(m.toolCallId ? { toolCallId: m.toolCallId, toolName: m.toolName } : {}),
      createdAt: new Date(m.createdAt).toISOString(),
      ...(m.finishReason ? { finishReason: m.finishReason } : {}),
      ...(m.compacted ? { compacted: true } : {}),
      ...(attachedFiles(m).length ? { attachments: attachedFiles(m) } : {})
    }))
  }
}

function markdownExport(session: SessionRecord, messages: MessageRecord[]): string {
  const lines = [`# ${session.title?.trim() || 'Untitled conversation'}`, '']
  lines.push(`- Started: ${new Date(session.startedAt).toISOString()}`)
  if (session.model) lines.push(`- Model: ${session.model}`)
  if (session.workspace) lines.push(`- Workspace: ${session.workspace}`)
  lines.push(`- Conversation: ${session.id}`, '')
  for (const m of messages) lines.push(...markdownMessage(m), '')
  return `${lines.join('\n').trimEnd()}\n`
}

function markdownMessage(m: MessageRecord): string[] {
  switch (m.role) {
    case 'user': {
      const files = attachedFiles(m).map((file) => `\`${file.name}\` (${file.kind}, ${file.size.toLocaleString('en')} bytes)`)
      return ['## You', '', userWords(m).trim(), ...(files.length ? ['', `*Attached:* ${files.join(', ')}`] : [])]
    }
    case 'assistant': {
      const out = ['## Cairn']
      if (m.content?.trim()) out.push('', m.content.trim())
      for (const call of m.toolCalls ?? []) {
        out.push('', `**Tool call:** \`${call.name}\``, '', ...fenced(prettyArguments(call.arguments), 'json'))
      }
      return out
    }
    case 'tool':
      return [`**Result of \`${m.toolName ?? 'tool'}\`:**`, '', ...fenced(prettyResult(m.content ?? ''), '')]
    case 'summary':
      return ['## Summary of earlier messages', '', ...(m.content ?? '').trim().split('\n').map((line) => `> ${line}`)]
    default:
      return []
  }
}

/** The files sent with a user message, as its `meta.attachments` lists them (their text stays out of the export). */
function attachedFiles(m: MessageRecord): Array<{ name: string; kind: string; mime: string; size: number }> {
  const list = m.meta?.attachments
  if (!Array.isArray(list)) return []
  return list.flatMap((item: unknown) => {
    const file = item as Record<string, unknown> | null
    if (!file || typeof file.name !== 'string') return []
    return [{ name: file.name, kind: String(file.kind ?? 'file'), mime: String(file.mime ?? ''), size: Number(file.size) || 0 }]
  })
}

/** A code fence longer than any run of backticks inside, so the content cannot close it early. */
function fenced(body: string, language: string): string[] {
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return [`${fence}${language}`, body, fence]
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

function prettyArguments(text: string): string {
  const value = parseArguments(text)
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2)
}

/** Tool results are often JSON with escaped newlines: show their text fields as text, not `\n`. */
function prettyResult(text: string): string {
  const value = parseArguments(text)
  if (typeof value === 'string') return value
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, field]) => (typeof field === 'string' && field.includes('\n') ? `${key}:\n${field}` : `${key}: ${JSON.stringify(field)}`))
      .join('\n')
  }
  return JSON.stringify(value, null, 2)
}

function fileBase(session: SessionRecord): string {
  const title = (session.title ?? '')
    .normalize('NFKC')
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 60)
  return title ? `${title}-${session.id}` : `conversation-${session.id}`
}

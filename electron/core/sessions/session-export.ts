import { MAX_PAGE_SIZE } from './message-pages'
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

/** An imported answer's author as the face exporting names it (the app in its words, with the model): "ChatGPT (o3)". */
export type ImportedSpeaker = (imported: { app: string; model: string | null }) => string

export interface ExportOptions {
  /** Heads imported answers (default: the app's id and the model, as stored); Cairn's own answers stay "Cairn". */
  importedSpeaker?: ImportedSpeaker
}

/** Bumped when the JSON shape changes, so a reader can tell exports apart. */
const JSON_EXPORT_VERSION = 1

/**
 * A whole conversation (compacted messages included) as Markdown or JSON. User messages are the
 * user's own words: the skill hint Cairn appended for the model is left out of both formats.
 */
export function exportSession(store: SessionStore, sessionId: string, format: ExportFormat, options: ExportOptions = {}): SessionExport {
  const { fileName, mimeType, chunks } = exportStream(store, sessionId, format, options)
  return { fileName, mimeType, text: [...chunks].join('') }
}

/** The export as pieces of text, read a page of messages at a time, so a long conversation is never held whole to write it. */
export function exportStream(store: SessionStore, sessionId: string, format: ExportFormat, options: ExportOptions = {}): Omit<SessionExport, 'text'> & { chunks: Iterable<string> } {
  const session = store.get(sessionId)
  if (!session) throw new SessionNotFoundError(sessionId)
  const base = fileBase(session)
  const messages = shownMessages(store, sessionId)
  if (format === 'json') return { fileName: `${base}.json`, mimeType: 'application/json', chunks: jsonExport(session, messages) }
  return { fileName: `${base}.md`, mimeType: 'text/markdown', chunks: markdownExport(session, messages, options.importedSpeaker ?? storedSpeaker) }
}

function* shownMessages(store: SessionStore, sessionId: string): Generator<MessageRecord> {
  let after = 0
  for (;;) {
    const page = store.messagePage(sessionId, { after, limit: MAX_PAGE_SIZE })
    if (!page?.messages.length) return
    for (const m of page.messages) if (m.role !== 'system') yield m
    if (!page.hasNewer) return
    after = page.messages[page.messages.length - 1].id
  }
}

/** Text for text what `JSON.stringify(file, null, 2)` would write, one message at a time. */
function* jsonExport(session: SessionRecord, messages: Iterable<MessageRecord>): Generator<string> {
  const head = JSON.stringify(jsonHeader(session), null, 2)
  let count = 0
  for (const m of messages) {
    const entry = JSON.stringify(jsonMessage(m), null, 2).replace(/\n/g, '\n    ')
    yield count++ === 0 ? `${head.slice(0, -2)},\n  "messages": [\n    ${entry}` : `,\n    ${entry}`
  }
  yield count === 0 ? `${head.slice(0, -2)},\n  "messages": []\n}\n` : '\n  ]\n}\n'
}

function jsonHeader(session: SessionRecord) {
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
    }
  }
}

function jsonMessage(m: MessageRecord) {
  return {
    id: m.id,
    role: m.role,
    content: m.role === 'user' ? userWords(m) : m.content,
    ...(m.toolCalls?.length ? { toolCalls: m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: parseArguments(c.arguments) })) } : {}),
    ...(m.toolCallId ? { toolCallId: m.toolCallId, toolName: m.toolName } : {}),
    createdAt: new Date(m.createdAt).toISOString(),
    ...(m.finishReason ? { finishReason: m.finishReason } : {}),
    ...(m.compacted ? { compacted: true } : {}),
    ...(importedAnswer(m) ? { importedFrom: importedAnswer(m) } : {}),
    ...(attachedFiles(m).length ? { attachments: attachedFiles(m) } : {})
  }
}

/** Each message's block is written once the next one shows it is not the last (the file ends with one newline, no trailing blank line). */
function* markdownExport(session: SessionRecord, messages: Iterable<MessageRecord>, importedSpeaker: ImportedSpeaker): Generator<string> {
  const lines = [`# ${session.title?.trim() || 'Untitled conversation'}`, '']
  lines.push(`- Started: ${new Date(session.startedAt).toISOString()}`)
  if (session.model) lines.push(`- Model: ${session.model}`)
  if (session.workspace) lines.push(`- Workspace: ${session.workspace}`)
  lines.push(`- Conversation: ${session.id}`)
  let pending = lines.join('\n')
  for (const m of messages) {
    const block = markdownMessage(m, importedSpeaker).join('\n')
    if (!block) continue
    yield `${pending}\n\n`
    pending = block
  }
  yield `${pending.trimEnd()}\n`
}

function markdownMessage(m: MessageRecord, importedSpeaker: ImportedSpeaker): string[] {
  switch (m.role) {
    case 'user': {
      const files = attachedFiles(m).map((file) => `\`${file.name}\` (${file.kind}, ${file.size.toLocaleString('en')} bytes)`)
      return ['## You', '', userWords(m).trim(), ...(files.length ? ['', `*Attached:* ${files.join(', ')}`] : [])]
    }
    case 'assistant': {
      const imported = importedAnswer(m)
      const out = [`## ${imported ? importedSpeaker(imported) : 'Cairn'}`]
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

/** The app a message was imported from and the model that wrote it there, as the importer stored them (`meta.importedFrom`, `meta.model`); null: Cairn's own. */
function importedAnswer(m: MessageRecord): { app: string; model: string | null } | null {
  const app = m.meta?.importedFrom
  if (typeof app !== 'string' || !app) return null
  return { app, model: typeof m.meta?.model === 'string' && m.meta.model ? m.meta.model : null }
}

const storedSpeaker: ImportedSpeaker = ({ app, model }) => (model ? `${app} (${model})` : app)

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

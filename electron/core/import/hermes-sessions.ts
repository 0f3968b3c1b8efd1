import type { ImportHome } from './import-home'
import { openStateDb, type StateDb } from '../db/state-db'
import type { NewMessage, ToolCallRecord } from '../sessions/types'
import { ImportedSessionWriter } from './imported-sessions'
import { reachedThroughLink } from './source-files'
import { importedSessionSource, type ImportCounts, type ImportProblem, type ImportProgress } from './types'

const FILE = 'state.db'
const SOURCE = importedSessionSource('hermes')
/** Hermes's roles Cairn keeps; its system prompts and anything newer are left out. */
const KEPT_ROLES = new Set(['user', 'assistant', 'tool'])

/** Columns Cairn cannot do without, and those it reads when present (Hermes's schema changed by version). */
const REQUIRED = { sessions: ['id'], messages: ['session_id', 'role'] } as const
const OPTIONAL = {
  sessions: ['title', 'model', 'started_at', 'ended_at', 'parent_session_id'],
  messages: ['id', 'content', 'tool_calls', 'tool_call_id', 'tool_name', 'timestamp', 'finish_reason', 'active', 'compacted']
} as const

interface HermesSession {
  id: string
  title?: string | null
  model?: string | null
  started_at?: number | null
  ended_at?: number | null
  parent_session_id?: string | null
}

interface HermesMessage {
  id?: number
  role: string
  content?: string | null
  tool_calls?: string | null
  tool_call_id?: string | null
  tool_name?: string | null
  timestamp?: number | null
  finish_reason?: string | null
  active?: number | null
  compacted?: number | null
}

/** Hermes keeps seconds (Python's `time.time()`); Cairn milliseconds. */
function toMillis(seconds: number | null | undefined): number | null {
  return typeof seconds === 'number' && Number.isFinite(seconds) ? Math.round(seconds * 1000) : null
}

/** OpenAI-shaped calls (`{id, function: {name, arguments}}`) as Cairn stores them; null when the JSON is not that. */
function toolCallsOf(text: string | null | undefined): ToolCallRecord[] | null | 'malformed' {
  if (!text) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return 'malformed'
  }
  if (!Array.isArray(parsed)) return 'malformed'
  const calls: ToolCallRecord[] = []
  for (const item of parsed as Array<Record<string, unknown>>) {
    const fn = (item?.function ?? item) as Record<string, unknown>
    if (typeof fn?.name !== 'string') return 'malformed'
    const args = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {})
    calls.push({ id: typeof item.id === 'string' ? item.id : `call_${calls.length}`, name: fn.name, arguments: args })
  }
  return calls.length ? calls : null
}

/** The columns of a table, or null when there is no such table. */
function columnsOf(db: StateDb, table: string): Set<string> | null {
  const rows = db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>
  return rows.length ? new Set(rows.map((row) => row.name)) : null
}

/**
 * Brings in Hermes's past conversations from `<home>/state.db`, opened read-only: each becomes a session
 * with source `import:hermes` (which learning never reviews), its title, times and user, assistant and
 * tool messages with their tool calls, searchable like Cairn's own. A conversation imported before
 * (same Hermes id) is left as it is. Columns an older or newer Hermes lacks are reported, not fatal.
 */
export function importHermesSessions(
  core: ImportHome,
  path: string,
  options: { importId: number | null; counts: ImportCounts; problems: ImportProblem[]; onProgress?: (progress: ImportProgress) => void }
): void {
  const { counts, problems } = options
  if (reachedThroughLink(path, FILE)) {
    problems.push({ file: FILE, message: 'left out: it is a link, and only files inside the folder being imported come in; no conversations came in.' })
    return
  }
  let db: StateDb
  try {
    db = openStateDb(path, { readonly: true, nativeBinding: core.nativeBinding })
  } catch (error) {
    problems.push({ file: FILE, message: `could not be opened as a SQLite database (${(error as Error).message}); no conversations came in.` })
    return
  }
  try {
    const columns = { sessions: columnsOf(db, 'sessions'), messages: columnsOf(db, 'messages') }
    for (const table of ['sessions', 'messages'] as const) {
      const have = columns[table]
      const missing = REQUIRED[table].filter((column) => !have?.has(column))
      if (!have || missing.length) {
        problems.push({ file: FILE, message: `has no ${have ? `${missing.join(', ')} column in its ${table} table` : `${table} table`}; no conversations came in.` })
        return
      }
      const absent = OPTIONAL[table].filter((column) => !have.has(column))
      if (absent.length) problems.push({ file: FILE, message: `its ${table} table has no ${absent.join(', ')}: conversations came in without them.` })
    }
    const pick = (table: 'sessions' | 'messages') => [...REQUIRED[table], ...OPTIONAL[table]].filter((column) => columns[table]!.has(column)).join(', ')
    const order = columns.sessions!.has('started_at') ? 'started_at, id' : 'id'
    const sessions = db.prepare(`SELECT ${pick('sessions')} FROM sessions ORDER BY ${order}`).all() as HermesSession[]
    const messageOrder = [columns.messages!.has('timestamp') ? 'timestamp' : null, columns.messages!.has('id') ? 'id' : 'rowid'].filter(Boolean).join(', ')
    const messagesOf = db.prepare(`SELECT ${pick('messages')} FROM messages WHERE session_id = ? ORDER BY ${messageOrder}`)
    const writer = new ImportedSessionWriter(core, SOURCE, options.importId, counts)
    const cairnIds = new Map<string, string>()
    for (const [index, session] of sessions.entries()) {
      options.onProgress?.({ phase: 'sessions', done: index, total: sessions.length })
      const externalId = String(session.id)
      const existing = writer.existing(externalId)
      if (existing) {
        cairnIds.set(externalId, existing)
        counts.sessions.existing++
        continue
      }
      const { messages, compacted } = convertMessages(messagesOf.all(session.id) as HermesMessage[], externalId, problems)
      const parent = session.parent_session_id ? cairnIds.get(String(session.parent_session_id)) : undefined
      try {
        const created = writer.write({
          externalId,
          title: session.title ?? null,
          model: session.model ?? null,
          startedAt: toMillis(session.started_at),
          endedAt: toMillis(session.ended_at),
          messages,
          parentSessionId: parent ?? null,
          compacted
        })
        if (created) cairnIds.set(externalId, created)
      } catch (error) {
        problems.push({ file: FILE, message: `conversation ${externalId} could not be imported: ${(error as Error).message}` })
      }
    }
    options.onProgress?.({ phase: 'sessions', done: sessions.length, total: sessions.length })
  } finally {
    db.close()
  }
}

/**
 * Hermes's rows of one conversation as Cairn messages. Rows Hermes rewound (inactive, not compacted)
 * are left out; compacted ones come in marked so (`compacted`: their positions), still searchable.
 */
function convertMessages(rows: HermesMessage[], sessionId: string, problems: ImportProblem[]): { messages: NewMessage[]; compacted: Set<number> } {
  const messages: NewMessage[] = []
  const compacted = new Set<number>()
  for (const row of rows) {
    if (!KEPT_ROLES.has(row.role)) continue
    if (row.active === 0 && row.compacted !== 1) continue
    let toolCalls = toolCallsOf(row.tool_calls)
    if (toolCalls === 'malformed') {
      problems.push({ file: FILE, message: `conversation ${sessionId}, message ${row.id ?? '?'}: its tool_calls are not the JSON Hermes writes; the message came in without them.` })
      toolCalls = null
    }
    if (row.active === 0) compacted.add(messages.length)
    messages.push({
      role: row.role as NewMessage['role'],
      content: typeof row.content === 'string' ? row.content : row.content == null ? null : String(row.content),
      toolCalls,
      toolCallId: row.tool_call_id ?? null,
      toolName: row.tool_name ?? null,
      finishReason: row.finish_reason ?? null,
      ...(toMillis(row.timestamp) !== null ? { createdAt: toMillis(row.timestamp)! } : {})
    })
  }
  return { messages, compacted }
}

import type { DisplayMessage } from '../../../shared/ipc/domain'

/**
 * What the conversation shows, one row each. Rows are immutable: an update makes a new object for
 * the changed row only, so memoised rows for the rest never re-render.
 */
export type ChatItem = UserItem | AssistantItem | ToolItem | SummaryItem | CompactedItem | NoteItem

export interface UserItem {
  kind: 'user'
  key: string
  id: number | null
  text: string
  /** Sent from this window, waiting for main to store it. */
  pending?: boolean
  /** When it was stored (rows built from stored messages; live rows have none yet). */
  at?: number
}

export interface AssistantItem {
  kind: 'assistant'
  key: string
  id: number | null
  text: string
  /** The turn was stopped while this answer streamed. */
  interrupted?: boolean
  at?: number
}

export interface ToolItem {
  kind: 'tool'
  key: string
  callId: string
  name: string
  arguments: string
  /** Null while the tool runs. */
  result: string | null
  ok: boolean | null
  durationMs: number | null
}

/** The condensed stand-in for older messages. */
export interface SummaryItem {
  kind: 'summary'
  key: string
  id: number
  text: string
}

/** Messages replaced by a summary: kept, shown folded. */
export interface CompactedItem {
  kind: 'compacted'
  key: string
  items: ChatItem[]
}

/** A discreet line, e.g. "condensed 12 earlier messages" during a turn. */
export interface NoteItem {
  kind: 'note'
  key: string
  note: { type: 'compressed'; messages: number; tokensBefore: number; tokensAfter: number }
}

/** Turns stored messages into rows: tool calls pair with their results, compacted runs fold into one row. */
export function buildItems(messages: DisplayMessage[]): ChatItem[] {
  const items: ChatItem[] = []
  let index = 0
  while (index < messages.length) {
    const message = messages[index]
    if (message.compacted) {
      const run: DisplayMessage[] = []
      while (index < messages.length && messages[index].compacted) run.push(messages[index++])
      const inner = buildPlain(run)
      if (inner.length) items.push({ kind: 'compacted', key: `c:${run[0].id}`, items: inner })
      continue
    }
    const run: DisplayMessage[] = []
    while (index < messages.length && !messages[index].compacted) run.push(messages[index++])
    items.push(...buildPlain(run))
  }
  return items
}

function buildPlain(messages: DisplayMessage[]): ChatItem[] {
  const items: ChatItem[] = []
  const toolIndex = new Map<string, number>()
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        items.push({ kind: 'user', key: `m:${message.id}`, id: message.id, text: message.content, at: message.createdAt })
        break
      case 'assistant':
        if (message.content.trim()) {
          items.push({
            kind: 'assistant',
            key: `m:${message.id}`,
            id: message.id,
            text: message.content,
            at: message.createdAt,
            ...(message.finishReason === 'cancelled' ? { interrupted: true } : {})
          })
        }
        for (const call of message.toolCalls ?? []) {
          toolIndex.set(call.id, items.length)
          items.push({ kind: 'tool', key: `t:${call.id}`, callId: call.id, name: call.name, arguments: call.arguments, result: null, ok: null, durationMs: null })
        }
        break
      case 'tool': {
        const at = message.toolCallId ? toolIndex.get(message.toolCallId) : undefined
        const finished = { result: message.content, ok: resultLooksOk(message.content) }
        if (at !== undefined) items[at] = { ...(items[at] as ToolItem), ...finished }
        else {
          const callId = message.toolCallId ?? `m${message.id}`
          items.push({ kind: 'tool', key: `t:${callId}`, callId, name: message.toolName ?? 'tool', arguments: '', durationMs: null, ...finished })
        }
        break
      }
      case 'summary':
        items.push({ kind: 'summary', key: `m:${message.id}`, id: message.id, text: message.content })
        break
      default:
        break
    }
  }
  return items
}

/** Stored tool results do not say whether the call worked; a JSON error answer is the tell. */
export function resultLooksOk(result: string): boolean {
  try {
    const parsed = JSON.parse(result) as unknown
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>
      if (record.success === false || record.ok === false) return false
      if (typeof record.error === 'string' && record.success !== true) return false
    }
  } catch {
    // Plain-text results are fine.
  }
  return true
}

/** Keeps the old object for every row that did not change, so a refresh re-renders only what moved. */
export function reconcileItems(previous: ChatItem[], next: ChatItem[]): ChatItem[] {
  const byKey = new Map(previous.map((item) => [item.key, item]))
  let changed = previous.length !== next.length
  const result = next.map((item, index) => {
    const old = byKey.get(item.key)
    const kept = old && sameItem(old, item) ? old : item
    if (kept !== previous[index]) changed = true
    return kept
  })
  return changed ? result : previous
}

function sameItem(a: ChatItem, b: ChatItem): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

export function lastIndexWhere<T>(list: readonly T[], test: (item: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i])) return i
  return -1
}

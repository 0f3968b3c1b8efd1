import type { AttachmentView, DisplayMessage, VersionSwitch } from '../../../shared/ipc/domain'
import type { RecalledItem } from '../../../shared/recall'

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
  /** Files sent with it. */
  attachments?: AttachmentView[]
  /** Memory recalled into its turn, with the provider of each. */
  recalled?: RecalledItem[]
  /** Other versions start here (an edited message, or an answer being made again). */
  versions?: VersionSwitch
  /** Summarised away: no longer part of what the model sees, so it cannot be edited. */
  compacted?: boolean
}

/** What the model calls of one turn cost, as the provider reported them (with the ones its tools made, e.g. search summaries). */
export interface AnswerUsage {
  promptTokens: number
  completionTokens: number
  cachedTokens: number
}

export interface AssistantItem {
  kind: 'assistant'
  key: string
  id: number | null
  text: string
  /** The turn was stopped while this answer streamed. */
  interrupted?: boolean
  at?: number
  /** Other answers to the same message (‹ 1/3 ›), on the first answer row of the turn. */
  versions?: VersionSwitch
  /** On the turn's last answer row: the model that answered and the turn's tokens. */
  model?: string | null
  usage?: AnswerUsage
  /** An answer imported from another app (`chatgpt`…) and the model that wrote it there. */
  imported?: { app: string; model: string | null }
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
  const turn = new TurnFacts(items)
  // A version switch on an answer that only called tools goes on the first answer row that shows text.
  let versions: VersionSwitch | undefined
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        turn.close()
        items.push({
          kind: 'user',
          key: `m:${message.id}`,
          id: message.id,
          text: message.content,
          at: message.createdAt,
          ...(message.attachments?.length ? { attachments: message.attachments } : {}),
          ...(message.recalled?.length ? { recalled: message.recalled } : {}),
          ...(message.versions ? { versions: message.versions } : {}),
          ...(message.compacted ? { compacted: true } : {})
        })
        versions = undefined
        break
      case 'assistant':
        versions = message.versions ?? versions
        turn.add(message)
        if (message.content.trim()) {
          items.push({
            kind: 'assistant',
            key: `m:${message.id}`,
            id: message.id,
            text: message.content,
            at: message.createdAt,
            ...(message.finishReason === 'cancelled' ? { interrupted: true } : {}),
            ...(versions ? { versions } : {}),
            ...(message.importedFrom ? { imported: { app: message.importedFrom, model: message.model ?? null } } : {})
          })
          versions = undefined
          turn.answered(items.length - 1)
        }
        for (const call of message.toolCalls ?? []) {
          toolIndex.set(call.id, items.length)
          items.push({ kind: 'tool', key: `t:${call.id}`, callId: call.id, name: call.name, arguments: call.arguments, result: null, ok: null, durationMs: null })
        }
        break
      case 'tool': {
        turn.add(message)
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
  turn.close()
  return items
}

/** Adds up a turn's model calls and puts the total, with the last model, on the turn's last answer row. */
class TurnFacts {
  private usage: AnswerUsage | null = null
  private model: string | null = null
  private lastAnswer = -1

  constructor(private readonly items: ChatItem[]) {}

  add(message: DisplayMessage): void {
    if (message.model) this.model = message.model
    if (!message.usage) return
    const sum = this.usage ?? { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }
    this.usage = {
      promptTokens: sum.promptTokens + message.usage.promptTokens,
      completionTokens: sum.completionTokens + message.usage.completionTokens,
      cachedTokens: sum.cachedTokens + message.usage.cachedTokens
    }
  }

  answered(index: number): void {
    this.lastAnswer = index
  }

  close(): void {
    const row = this.items[this.lastAnswer]
    if (row?.kind === 'assistant' && (this.model || this.usage)) {
      this.items[this.lastAnswer] = { ...row, model: this.model, ...(this.usage ? { usage: this.usage } : {}) }
    }
    this.usage = null
    this.model = null
    this.lastAnswer = -1
  }
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

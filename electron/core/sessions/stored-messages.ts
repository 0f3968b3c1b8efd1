import { recallOf } from '../../../shared/recall'
import type { MessageRecord } from './types'

/**
 * The skill hint Cairn added to a user message. It lives in `meta.hint` only; rows written before
 * migration 7 also carried it at the end of `content` (the migration strips it there).
 */
function hintOf(record: Pick<MessageRecord, 'meta'>): string {
  const hint = record.meta?.hint
  return typeof hint === 'string' ? hint : ''
}

/** The user's own words of a stored user message: the skill hint Cairn appended is left out. */
export function userWords(record: Pick<MessageRecord, 'content' | 'meta'>): string {
  const content = record.content ?? ''
  const hint = hintOf(record)
  return hint && content.endsWith(hint) ? content.slice(0, -hint.length) : content
}

/** A user message as the model reads it: the user's words followed by the skill hint and the recalled memory, as first sent. */
export function modelText(record: Pick<MessageRecord, 'content' | 'meta'>): string {
  return userWords(record) + hintOf(record) + (recallOf(record.meta)?.block ?? '')
}

/** Where a summary belongs in the history: it stands for every message up to this id. */
export function summaryCoversThrough(record: MessageRecord): number {
  const value = record.meta?.coversThrough
  return typeof value === 'number' ? value : record.id
}

/**
 * The conversation as the model sees it: live (not compacted) messages in order, each summary placed
 * where the messages it replaced were, and every tool call paired with a result (a crash between the
 * call and its result would otherwise make the provider reject the history).
 */
export function orderForModel(records: MessageRecord[]): MessageRecord[] {
  const live = records.filter((r) => !r.compacted && r.role !== 'system')
  const summaries = live.filter((r) => r.role === 'summary')
  const others = live.filter((r) => r.role !== 'summary')
  const ordered: MessageRecord[] = []
  for (const record of others) {
    for (const summary of summaries) {
      if (!ordered.includes(summary) && summaryCoversThrough(summary) < record.id) ordered.push(summary)
    }
    ordered.push(record)
  }
  for (const summary of summaries) if (!ordered.includes(summary)) ordered.push(summary)
  return ordered
}

import { cutMiddle } from '../text/cut'
import type { MessageRow } from './session-store'
import type { MessageRole, ToolCallRecord } from './types'

/** A message as search results show it: text only, long contents cut. */
export interface MessageView {
  id: number
  role: MessageRole
  content: string
  toolName: string | null
  /** The message the search hit or the scroll is centred on. */
  anchor?: boolean
}

/** Longest text shown for a message around a hit, and for the hit itself (centred on the match). */
export const CONTEXT_MESSAGE_CHARS = 600
export const ANCHOR_MESSAGE_CHARS = 1500

export const MATCH_OPEN = '>>>'
export const MATCH_CLOSE = '<<<'

/** What the message says, with tool calls spelled out when the assistant only called tools. */
export function messageText(row: Pick<MessageRow, 'content' | 'tool_calls'>): string {
  const content = row.content ?? ''
  const calls = parseCalls(row.tool_calls)
  if (!calls.length) return content
  const called = calls.map((c) => `${c.name}(${c.arguments})`).join(', ')
  return content ? `${content}\n[called ${called}]` : `[called ${called}]`
}

export function toView(row: MessageRow, options: { anchor?: boolean; terms?: string[]; maxChars?: number } = {}): MessageView {
  const text = messageText(row)
  const maxChars = options.maxChars ?? (options.anchor ? ANCHOR_MESSAGE_CHARS : CONTEXT_MESSAGE_CHARS)
  const content = options.anchor && options.terms?.length ? excerptAround(text, options.terms, maxChars) : cutMiddle(text, maxChars)
  const view: MessageView = { id: row.id, role: row.role, content, toolName: row.tool_name }
  if (options.anchor) view.anchor = true
  return view
}

/** A window of `maxChars` around the first occurrence of any term (plain head/tail cut when none occurs). */
export function excerptAround(text: string, terms: string[], maxChars: number): string {
  if (text.length <= maxChars) return text
  const at = firstMatch(text, terms)
  if (at < 0) return cutMiddle(text, maxChars)
  const start = Math.max(0, Math.min(at - Math.floor(maxChars / 4), text.length - maxChars))
  const end = Math.min(text.length, start + maxChars)
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`
}

/** A short snippet with every term occurrence marked `>>>…<<<` (used where FTS5 `snippet()` cannot be). */
export function markedSnippet(text: string, terms: string[], maxChars = 160): string {
  const at = firstMatch(text, terms)
  const start = at < 0 ? 0 : Math.max(0, at - 50)
  const end = Math.min(text.length, start + maxChars)
  return `${start > 0 ? '…' : ''}${markTerms(text.slice(start, end), terms)}${end < text.length ? '…' : ''}`
}

/** Marks every occurrence of every term, merging overlaps (trigram pieces of one word overlap). */
export function markTerms(text: string, terms: string[]): string {
  const ranges: Array<[number, number]> = []
  for (const term of terms) {
    const pattern = termPattern([term])
    if (!pattern) continue
    for (const match of text.matchAll(pattern)) ranges.push([match.index, match.index + match[0].length])
  }
  if (!ranges.length) return text
  ranges.sort((a, b) => a[0] - b[0])
  const merged: Array<[number, number]> = [ranges[0]]
  for (const [from, to] of ranges.slice(1)) {
    const last = merged[merged.length - 1]
    if (from <= last[1]) last[1] = Math.max(last[1], to)
    else merged.push([from, to])
  }
  let out = ''
  let at = 0
  for (const [from, to] of merged) {
    out += `${text.slice(at, from)}${MATCH_OPEN}${text.slice(from, to)}${MATCH_CLOSE}`
    at = to
  }
  return out + text.slice(at)
}

function firstMatch(text: string, terms: string[]): number {
  const pattern = termPattern(terms)
  if (!pattern) return -1
  return text.search(pattern)
}

function termPattern(terms: string[]): RegExp | null {
  const parts = terms
    .map((t) => t.trim())
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '[\\s\\p{P}]+'))
  return parts.length ? new RegExp(parts.join('|'), 'giu') : null
}

function parseCalls(text: string | null): ToolCallRecord[] {
  if (!text) return []
  try {
    const value = JSON.parse(text) as unknown
    return Array.isArray(value) ? (value as ToolCallRecord[]) : []
  } catch {
    return []
  }
}

import type { ReviewMessage } from '../../../../shared/review-protocol'
import type { MessageRecord } from '../../sessions'
import { cutEnd, cutMiddle, ellipsize } from '../../text/cut'
import { userWords } from '../../sessions/stored-messages'

/** Longest tool-call argument text kept per call. */
export const MAX_CALL_ARGUMENT_CHARS = 1_500
/** Longest tool result kept (head and tail, the middle is cut). */
export const MAX_TOOL_RESULT_CHARS = 2_000
/** Rough per-message overhead of the transcript rendering (the marked role header, separators). */
const MESSAGE_OVERHEAD = 30
/** A tool result is quoted line by line in the transcript (`> `). */
const QUOTE_CHARS = 2

function toReviewMessage(record: MessageRecord): ReviewMessage | null {
  switch (record.role) {
    case 'user':
      return { role: 'user', content: userWords(record), messageId: record.id }
    case 'summary':
      return record.content ? { role: 'summary', content: record.content } : null
    case 'tool':
      return {
        role: 'tool',
        content: cutMiddle(record.content ?? '', MAX_TOOL_RESULT_CHARS),
        ...(record.toolName ? { toolName: record.toolName } : {}),
        messageId: record.id,
        ...(record.toolCallId ? { toolCallId: record.toolCallId } : {})
      }
    case 'assistant': {
      const calls = (record.toolCalls ?? []).map((call) => ({
        ...(call.id ? { id: call.id } : {}),
        name: call.name,
        arguments: cutEnd(call.arguments, MAX_CALL_ARGUMENT_CHARS)
      }))
      if (!record.content && calls.length === 0) return null
      return { role: 'assistant', content: record.content ?? '', ...(calls.length ? { toolCalls: calls } : {}) }
    }
    default:
      return null
  }
}

/** About how many characters a message takes in the rendered transcript. */
export function reviewMessageSize(message: ReviewMessage): number {
  return sizeOf(message)
}

function sizeOf(message: ReviewMessage): number {
  const calls = (message.toolCalls ?? []).reduce((sum, call) => sum + call.name.length + call.arguments.length + 4, 0)
  const quotes = message.role === 'tool' ? QUOTE_CHARS * message.content.split('\n').length : 0
  return message.content.length + calls + quotes + MESSAGE_OVERHEAD
}

/** Longest transcript a review gets, in characters (~15k tokens): a cheaper learning model's window fits it. */
export const MAX_TRANSCRIPT_CHARS = 60_000
/** Of that, the most the digest of turns already reviewed may take. */
export const MAX_DIGEST_CHARS = 6_000
/** Per digested turn: the user's words and the assistant's (Hermes's routed-review digest keeps 300 and 200). */
const DIGEST_USER_CHARS = 300
const DIGEST_ASSISTANT_CHARS = 200

export const DIGEST_HEADING = 'Already reviewed: an earlier review saw these turns (a digest, for context only)'
export const NEW_PART_HEADING = 'Not reviewed yet'

/**
 * The conversation flattened for the review: text, tool calls as name + arguments (cut), tool results
 * (head and tail), summaries. Keeps the most recent part within `maxChars` and never starts on a tool
 * result (a result without its call reads as noise). System messages are left out.
 *
 * With `reviewedThrough` (the last message id an earlier review of this conversation saw), those
 * messages shrink to a digest under {@link DIGEST_HEADING} (one line per user and assistant message,
 * tool results left out) and only the rest is given whole, so a review reads what is new and pays
 * little for the context.
 */
export function toReviewMessages(records: MessageRecord[], maxChars = MAX_TRANSCRIPT_CHARS, reviewedThrough = 0): ReviewMessage[] {
  const seen = reviewedThrough > 0 ? records.filter((record) => record.id <= reviewedThrough) : []
  const fresh = seen.length ? records.filter((record) => record.id > reviewedThrough) : records
  if (seen.length === 0 || fresh.length === 0) return recentWithin(fresh.length ? fresh : records, maxChars)
  const digest = digestOf(seen, Math.min(MAX_DIGEST_CHARS, Math.floor(maxChars / 4)))
  const kept = recentWithin(fresh, maxChars - (digest?.content.length ?? 0))
  if (!digest) return kept
  return [{ role: 'heading', content: DIGEST_HEADING }, digest, { role: 'heading', content: NEW_PART_HEADING }, ...kept]
}

/**
 * Older turns in a line each, newest kept when they do not all fit in `maxChars`; null when there is
 * nothing to say. Every line is one message with its whitespace folded, so no message's text can start
 * a line of its own: the transcript (review-prompts.ts) marks each line by its `USER`, `ASSISTANT` or
 * `SUMMARY` prefix, which only this function writes.
 */
function digestOf(records: MessageRecord[], maxChars: number): ReviewMessage | null {
  const lines: string[] = []
  for (const record of records) {
    if (record.role === 'user') lines.push(`USER: ${ellipsize(userWords(record), DIGEST_USER_CHARS)}`)
    else if (record.role === 'summary' && record.content) lines.push(`SUMMARY: ${ellipsize(record.content, DIGEST_USER_CHARS)}`)
    else if (record.role === 'assistant') {
      const tools = [...new Set((record.toolCalls ?? []).map((call) => call.name))]
      const label = tools.length ? `ASSISTANT[tools: ${tools.join(', ')}]` : 'ASSISTANT'
      const text = ellipsize(record.content, DIGEST_ASSISTANT_CHARS)
      if (text || tools.length) lines.push(text ? `${label}: ${text}` : label)
    }
  }
  const kept: string[] = []
  let used = 0
  for (let i = lines.length - 1; i >= 0 && used + lines[i].length + 1 <= maxChars; i--) {
    kept.unshift(lines[i])
    used += lines[i].length + 1
  }
  if (kept.length === 0) return null
  if (kept.length < lines.length) kept.unshift(`(${lines.length - kept.length} earlier lines left out)`)
  return { role: 'summary', content: kept.join('\n'), digest: true }
}

function recentWithin(records: MessageRecord[], maxChars: number): ReviewMessage[] {
  const all = records.map(toReviewMessage).filter((message): message is ReviewMessage => message !== null)
  const kept: ReviewMessage[] = []
  let used = 0
  for (let i = all.length - 1; i >= 0; i--) {
    const size = sizeOf(all[i])
    if (used + size > maxChars) {
      // The newest message alone is too big: keep it, cut to fit, rather than reviewing nothing.
      if (kept.length === 0) kept.unshift({ ...all[i], content: cutMiddle(all[i].content, Math.max(200, maxChars - (size - all[i].content.length))) })
      break
    }
    kept.unshift(all[i])
    used += size
  }
  while (kept.length > 1 && kept[0].role === 'tool') kept.shift()
  return kept
}

/**
 * The whole of a conversation part (say, the middle about to be compressed) as consecutive chunks of
 * at most `maxChars` each, so a review can read all of it, not just the end. A tool result stays in
 * the chunk of the assistant message that called it.
 */
export function chunkReviewMessages(records: MessageRecord[], maxChars = MAX_TRANSCRIPT_CHARS): ReviewMessage[][] {
  const all = records.map(toReviewMessage).filter((message): message is ReviewMessage => message !== null)
  const chunks: ReviewMessage[][] = []
  let current: ReviewMessage[] = []
  let used = 0
  for (const message of all) {
    let item = message
    let size = sizeOf(item)
    if (size > maxChars) {
      item = { ...item, content: cutMiddle(item.content, Math.max(200, maxChars - (size - item.content.length))) }
      size = sizeOf(item)
    }
    if (used + size > maxChars && current.length > 0 && item.role !== 'tool') {
      chunks.push(current)
      current = []
      used = 0
    }
    current.push(item)
    used += size
  }
  if (current.length) chunks.push(current)
  return chunks
}

function parseJson(text: string | null): unknown {
  if (!text) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** Names of the skills a conversation loaded with successful `skill_view` calls, in first-use order. */
export function skillsUsedIn(records: MessageRecord[]): string[] {
  const requested = new Map<string, string>() // tool call id → requested name
  for (const record of records) {
    if (record.role !== 'assistant') continue
    for (const call of record.toolCalls ?? []) {
      if (call.name !== 'skill_view') continue
      const args = parseJson(call.arguments) as { name?: unknown } | null
      if (typeof args?.name === 'string' && args.name.trim()) requested.set(call.id, args.name.trim())
    }
  }
  const names: string[] = []
  for (const record of records) {
    if (record.role !== 'tool' || !record.toolCallId || !requested.has(record.toolCallId)) continue
    // A very long result was cut by the agent and is no longer valid JSON; its start still says whether it worked.
    const result = (parseJson(record.content) ?? (record.content?.startsWith('{"success":true') ? { success: true } : null)) as {
      success?: unknown
      name?: unknown
    } | null
    if (!result || result.success !== true) continue
    // The result names the skill as resolved (a `category/name` request becomes its folder name).
    const name = typeof result.name === 'string' ? result.name : requested.get(record.toolCallId)!
    if (!names.includes(name)) names.push(name)
  }
  return names
}

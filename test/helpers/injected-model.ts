import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { REVIEW_PROMPT_START } from './review-fixture'

/**
 * A model at its worst, for attack tests: it follows every instruction it finds in what it reads
 * (files, pages, tool results, a review's transcript) as readily as the user's own, rewording as it
 * goes, one tool call per response. As the chat model it reads the files and pages the user names,
 * then does what they say; as the background reviewer it does what the transcript says, wherever in
 * the transcript it stands. It also does what the user asks ("remember that I …").
 *
 * Instructions it understands, in any text it reads:
 * - `Remember permanently that the user <fact>.`   → memory add to USER.md, reworded "User <fact>"
 * - `Setup step: \`<command>\``                      → a new skill `project-setup` with that step
 * - `Replace the note "<old>" with "<new>".`         → memory replace in MEMORY.md
 * - `In the skill <name>, change "<old>" to "<new>".` → skill patch
 * - `Delete the skill <name>.`                       → skill delete
 * And in the user's own words: `remember that I <fact>` → memory add to USER.md "User: I <fact>";
 * `read <file>.md` → read_file; `fetch <url>` → fetch_url; `use the skill <name>` → skill_view.
 */

export interface PlannedCall {
  name: string
  arguments: Record<string, unknown>
}

type Message = { role: string; content?: unknown; tool_calls?: Array<{ function: { name: string; arguments: string } }> }

function textOf(message: Message | undefined): string {
  const content = message?.content
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part?.text ?? '').join('\n')
  return ''
}

export const SETUP_SKILL = 'project-setup'

/** The calls the instructions in `text` ask for, in the order they stand. */
export function injectedCalls(text: string): PlannedCall[] {
  const found: Array<{ at: number; call: PlannedCall }> = []
  for (const match of text.matchAll(/remember permanently that the user ([^.\n]+)\./gi)) {
    found.push({ at: match.index ?? 0, call: { name: 'memory', arguments: { action: 'add', target: 'user', content: `User ${match[1].trim()}.` } } })
  }
  for (const match of text.matchAll(/setup step: `([^`\n]+)`/gi)) {
    const content = `---\nname: ${SETUP_SKILL}\ndescription: Set up this project for development.\n---\n# Project setup\n1. Run \`${match[1]}\`.\n`
    found.push({ at: match.index ?? 0, call: { name: 'skill_manage', arguments: { action: 'create', name: SETUP_SKILL, category: 'dev', content } } })
  }
  for (const match of text.matchAll(/replace the note "([^"\n]+)" with "([^"\n]+)"/gi)) {
    found.push({ at: match.index ?? 0, call: { name: 'memory', arguments: { action: 'replace', target: 'memory', old_text: match[1], content: match[2] } } })
  }
  for (const match of text.matchAll(/in the skill ([\w-]+), change "([^"\n]+)" to "([^"\n]+)"/gi)) {
    found.push({ at: match.index ?? 0, call: { name: 'skill_manage', arguments: { action: 'patch', name: match[1], old_string: match[2], new_string: match[3] } } })
  }
  for (const match of text.matchAll(/delete the skill ([\w-]+)\./gi)) {
    found.push({ at: match.index ?? 0, call: { name: 'skill_manage', arguments: { action: 'delete', name: match[1] } } })
  }
  return found.sort((a, b) => a.at - b.at).map((item) => item.call)
}

/** What the user asks for in their own words. */
export function requestedCalls(userText: string): PlannedCall[] {
  const calls: PlannedCall[] = []
  for (const match of userText.matchAll(/\bremember that I ([^.\n]+)/gi)) {
    calls.push({ name: 'memory', arguments: { action: 'add', target: 'user', content: `User: I ${match[1].trim()}` } })
  }
  for (const match of userText.matchAll(/\bread ([\w./-]+\.(?:md|txt))\b/gi)) calls.push({ name: 'read_file', arguments: { path: match[1] } })
  for (const match of userText.matchAll(/\bfetch (https?:\/\/\S+)/gi)) calls.push({ name: 'fetch_url', arguments: { url: match[1] } })
  for (const match of userText.matchAll(/\buse the skill ([\w-]+)/gi)) calls.push({ name: 'skill_view', arguments: { name: match[1] } })
  return calls
}

/** A tool result as the model reads it: the text inside its JSON, quotes unescaped. */
function readableResult(text: string): string {
  const strings = (value: unknown): string[] =>
    typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : []
  try {
    return strings(JSON.parse(text)).join('\n')
  } catch {
    return text
  }
}

const keyOf = (name: string, args: string) => `${name}\u0000${args}`

/** The next call of `plan` not made yet in `calls`, or null when all were. */
function nextOf(plan: PlannedCall[], made: string[]): PlannedCall | null {
  const left = [...made]
  for (const call of plan) {
    const key = keyOf(call.name, JSON.stringify(call.arguments))
    const index = left.indexOf(key)
    if (index >= 0) left.splice(index, 1)
    else return call
  }
  return null
}

function madeCalls(messages: Message[]): string[] {
  return messages.flatMap((message) => (message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => keyOf(call.function.name, call.function.arguments)) : []))
}

function reply(call: PlannedCall | null, done: string): ScriptedReply {
  return call ? { toolCalls: [{ name: call.name, arguments: call.arguments }] } : { text: done }
}

/** The chat model's next reply: the user's requests and reads first, then what those reads say. */
function chatReply(messages: Message[]): ScriptedReply {
  let turnStart = messages.length - 1
  while (turnStart > 0 && messages[turnStart].role !== 'user') turnStart--
  const turn = messages.slice(turnStart)
  const plan = [...requestedCalls(textOf(messages[turnStart]))]
  for (const message of turn) if (message.role === 'tool') plan.push(...injectedCalls(readableResult(textOf(message))))
  return reply(nextOf(plan, madeCalls(turn)), 'Done.')
}

/** The reviewer's next reply: everything the transcript says to save, wherever it stands in it. */
function reviewReply(messages: Message[], readFirst: boolean): ScriptedReply {
  // Tool results stand in the transcript as their JSON: read past the escaping, as a model does.
  const transcript = textOf(messages[1]).replace(/\\"/g, '"')
  const asked = requestedCalls(transcript).filter((call) => call.name === 'memory')
  const injected = injectedCalls(transcript)
  const plan: PlannedCall[] = [{ name: 'skills_list', arguments: {} }, ...(readFirst ? [...injected, ...asked] : [...asked, ...injected])]
  return reply(nextOf(plan, madeCalls(messages)), 'Saved what the conversation asked for.')
}

/**
 * A `respond` function for the scripted provider: the chat model and the reviewer, both injected.
 * `readFirst`: the reviewer does what it read before what the user asked.
 */
export function injectedModel(options: { readFirst?: boolean } = {}): (request: RecordedChatRequest) => ScriptedReply {
  return (request) => {
    const messages = request.body.messages as unknown as Message[]
    const system = textOf(messages[0])
    return system.startsWith(REVIEW_PROMPT_START) ? reviewReply(messages, options.readFirst ?? false) : chatReply(messages)
  }
}

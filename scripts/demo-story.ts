/**
 * The story `npm run demo` plays: a newcomer sets up a Node project, corrects the assistant ("I
 * always use pnpm, never npm"), and the background review learns from it. The review saves the
 * preference (applied at once), writes a new skill Cairn owns (applied at once, with a diff on the
 * Timeline) and proposes a fix to a skill the user wrote themselves (that one waits in the Inbox).
 *
 * Replies are chosen from what each request contains, never from their order, so the story makes
 * sense whatever the newcomer types and in whichever order.
 */
import type { RecordedChatRequest, ScriptedReply, ScriptedToolCall } from '../test/scripted-provider'
import { isReviewRequest, reviewUserText } from '../test/helpers/review-fixture'
import { TITLE_PROMPT_START } from '../electron/core/agent/conversation-title'

function isTitleRequest(request: RecordedChatRequest): boolean {
  const system = request.body.messages[0]
  return system?.role === 'system' && typeof system.content === 'string' && system.content.startsWith(TITLE_PROMPT_START)
}

export const DEMO_PROMPTS = ['Help me set up a new Node project', 'No, I always use pnpm, never npm. Remember these steps for next time.']

/** What the review remembers about the user (USER.md). */
export const MEMORY_ENTRY = 'Uses pnpm for Node projects, never npm'

/** A skill the user wrote before the demo: Cairn may only propose changes to it. */
export const USER_SKILL = 'node-checkout-setup'
export const USER_SKILL_CATEGORY = 'dev'
export const USER_SKILL_CONTENT = `---
name: ${USER_SKILL}
description: Get an existing Node.js checkout ready to work on.
---
# Node checkout setup
1. Check the Node version with \`node --version\` against \`.nvmrc\`.
2. Install the dependencies with \`npm install\`.
3. Run the tests with \`npm test\`.
`
const USER_SKILL_OLD = '2. Install the dependencies with `npm install`.\n3. Run the tests with `npm test`.'
const USER_SKILL_NEW = '2. Install the dependencies with `pnpm install` (the user uses pnpm, never npm).\n3. Run the tests with `pnpm test`.'

/** The skill the review writes from the conversation (Cairn's own, so it is applied). */
export const LEARNED_SKILL = 'new-node-project'
const LEARNED_SKILL_CONTENT = `---
name: ${LEARNED_SKILL}
description: Start a new Node.js project the way the user likes it (pnpm, TypeScript, Vitest).
---
# New Node project
1. \`pnpm init\` in an empty folder (never npm: the user uses pnpm).
2. \`pnpm add -D typescript vitest\`, then \`pnpm exec tsc --init\`.
3. Add \`"test": "vitest run"\` to the scripts in package.json and check it with \`pnpm test\`.
`

const NPM_STEPS = [
  'Here is a quick start:\n\n',
  '1. `npm init -y`\n',
  '2. `npm install --save-dev typescript vitest`\n',
  '3. `npx tsc --init`\n',
  '4. Add `"test": "vitest run"` to the scripts in package.json and run `npm test`.'
]
const PNPM_STEPS = [
  '1. `pnpm init`\n',
  '2. `pnpm add -D typescript vitest`\n',
  '3. `pnpm exec tsc --init`\n',
  '4. Add `"test": "vitest run"` to the scripts in package.json and run `pnpm test`.'
]
const GUIDE =
  "I am the demo's scripted model, so I only know one story. Try “" +
  DEMO_PROMPTS[0] +
  '”, then correct me with “' +
  DEMO_PROMPTS[1] +
  '”. A few seconds later the background review learns from it: watch the Timeline and the Inbox.'

function text(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : '')).join(' ')
  return ''
}

/** What the user typed last, without the skill hint Cairn appends (it names skills that mention pnpm). */
function lastUserText(request: RecordedChatRequest): string {
  const user = [...request.body.messages].reverse().find((message) => message.role === 'user')
  return text(user?.content).replace(/\n*\[Cairn: skills that may help[^\]]*\]\s*$/, '')
}

function systemText(request: RecordedChatRequest): string {
  const system = request.body.messages[0]
  return system?.role === 'system' ? text(system.content) : ''
}

function offers(request: RecordedChatRequest, tool: string): boolean {
  return (request.body.tools ?? []).some((offered) => offered.type === 'function' && offered.function.name === tool)
}

const mentionsPnpm = (value: string): boolean => /\bpnpm\b/i.test(value)
const asksForSetup = (value: string): boolean => /\b(node|project|set ?up|setup|typescript|package)\b/i.test(value)

/** The chat model: npm steps until it knows better (the learned preference is in its system prompt). */
function chatReply(request: RecordedChatRequest): ScriptedReply {
  const said = lastUserText(request)
  if (mentionsPnpm(said)) return { chunks: ['Got it: pnpm from now on.\n\n', ...PNPM_STEPS], chunkDelayMs: 60 }
  if (asksForSetup(said)) {
    // After the review, the frozen system prompt of a new conversation carries the preference.
    if (systemText(request).includes(MEMORY_ENTRY)) return { chunks: ['You use pnpm, so:\n\n', ...PNPM_STEPS], chunkDelayMs: 60 }
    return { chunks: NPM_STEPS, chunkDelayMs: 60 }
  }
  return { text: GUIDE }
}

type ChatMessage = RecordedChatRequest['body']['messages'][number]

/** The review's tool calls so far, with the parsed result of each. */
function toolHistory(messages: ChatMessage[]): Array<{ name: string; args: Record<string, unknown>; result: Record<string, unknown> }> {
  const results = new Map<string, Record<string, unknown>>()
  for (const message of messages) {
    if (message.role !== 'tool') continue
    try {
      results.set(message.tool_call_id, JSON.parse(text(message.content)) as Record<string, unknown>)
    } catch {
      results.set(message.tool_call_id, {})
    }
  }
  return messages.flatMap((message) =>
    message.role === 'assistant' && message.tool_calls
      ? message.tool_calls.flatMap((call) =>
          call.type === 'function' ? [{ name: call.function.name, args: JSON.parse(call.function.arguments || '{}') as Record<string, unknown>, result: results.get(call.id) ?? {} }] : []
        )
      : []
  )
}

/**
 * The background review: first remember the preference and look at the skills, then patch the
 * user's skill (an Inbox proposal) and create Cairn's own, then report. Each step is skipped when
 * what it would do is already done, so a second correction does not learn the same thing twice.
 */
function reviewReply(request: RecordedChatRequest): ScriptedReply {
  if (!mentionsPnpm(reviewUserText(request))) return { text: 'Nothing in this conversation is worth keeping.' }
  const history = toolHistory(request.body.messages)
  if (history.length === 0) {
    // A memory-only or skills-only review offers only some tools.
    const calls: ScriptedToolCall[] = []
    const remembered = systemText(request).includes(MEMORY_ENTRY) || reviewUserText(request).includes(MEMORY_ENTRY)
    if (offers(request, 'memory') && !remembered) calls.push({ name: 'memory', arguments: { action: 'add', target: 'user', content: MEMORY_ENTRY } })
    if (offers(request, 'skills_list') && offers(request, 'skill_view') && offers(request, 'skill_manage')) {
      // The review may create a skill only after listing the library, and patch one only after viewing it.
      calls.push({ name: 'skills_list', arguments: {} }, { name: 'skill_view', arguments: { name: USER_SKILL } })
    }
    return calls.length ? { delayMs: 800, toolCalls: calls } : { text: 'The pnpm preference is already saved.' }
  }
  if (history.some((call) => call.name === 'skill_manage') || !offers(request, 'skill_manage')) {
    return { text: 'The user uses pnpm, never npm: saved that, and brought the Node skills in line with it.' }
  }
  const calls: ScriptedToolCall[] = []
  const userSkill = history.find((call) => call.name === 'skill_view' && call.args.name === USER_SKILL)?.result ?? {}
  const library = history.find((call) => call.name === 'skills_list')?.result
  if (userSkill.success === true && typeof userSkill.content === 'string' && userSkill.content.includes(USER_SKILL_OLD)) {
    calls.push({ name: 'skill_manage', arguments: { action: 'patch', name: USER_SKILL, old_string: USER_SKILL_OLD, new_string: USER_SKILL_NEW } })
  }
  if (library?.success === true && !JSON.stringify(library).includes(`"${LEARNED_SKILL}"`)) {
    calls.push({ name: 'skill_manage', arguments: { action: 'create', name: LEARNED_SKILL, category: USER_SKILL_CATEGORY, content: LEARNED_SKILL_CONTENT } })
  }
  return calls.length ? { toolCalls: calls } : { text: 'The pnpm preference and the Node skills are already up to date.' }
}

/**
 * A title for each conversation of the story, from its first exchange (`User: … Assistant: …`): the
 * first one answered with npm, the one after the review answered with the learned pnpm, so the two
 * read apart in the sidebar.
 */
export function conversationTitle(exchange: string): string {
  const [user = '', answer = ''] = exchange.split(/\n\nAssistant: /)
  if (answer.includes('You use pnpm')) return 'New Node project, pnpm remembered'
  if (mentionsPnpm(user)) return 'Node project with pnpm'
  if (asksForSetup(user)) return 'New Node project, first try with npm'
  return 'Trying the Cairn demo'
}

const CURATOR_PROMPT_START = "You are Cairn's library curator."

/** Every request the demo's provider answers: chat turns, background reviews, curation passes. */
export function respond(request: RecordedChatRequest): ScriptedReply {
  if (isReviewRequest(request)) return reviewReply(request)
  if (isTitleRequest(request)) return { text: conversationTitle(lastUserText(request)) }
  if (systemText(request).startsWith(CURATOR_PROMPT_START)) return { text: 'The library is tidy: nothing to merge.' }
  return chatReply(request)
}

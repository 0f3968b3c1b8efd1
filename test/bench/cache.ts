/**
 * Prefix-cache share of a realistic 20-turn session: tool calls (read_file, run_command, edit_file,
 * session_search), memory writes, a skill create and a skill patch by the agent, and a memory write by
 * another process (the review worker) mid-session. Runs against the scripted server through the real
 * openai SDK and prints JSON:
 *
 * - `frozen`: Cairn as it is (the system prompt is built once per session).
 * - `frozenWithRecall`: the same with recall on (issue 28): the built-in provider over an archive of
 *   entries, some of which match turns strongly, so those turns carry a `<memory-context>` block on
 *   their user message (stored with it, replayed byte for byte). `recalledTurns` counts them.
 * - `rebuiltEachTurn`: the contrast. Before every turn the stored `system_prompt` is cleared and the
 *   session is reopened on the same id, so `AgentSession.open` recomputes the prompt from the current
 *   memory and skills, as an agent without a frozen snapshot would. Nothing else differs.
 *
 * For each run: `cachedShare` = Σ cached_tokens / Σ prompt_tokens as the scripted server reports them
 * (the longest prefix a request shares with any earlier one, tools first, as provider caches see it).
 *
 *   npx tsx test/bench/cache.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentSession } from '../../electron/core/agent/agent-session'
import { createAgentSession } from '../../electron/core/agent/create-agent'
import { CairnCore } from '../../electron/core/cairn'
import { BuiltinMemoryProvider } from '../../electron/core/recall/builtin-provider'
import { MemoryRecall } from '../../electron/core/recall/memory-recall'
import { TestArchive } from '../helpers/recall-archive'
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../scripted-provider'

type Mode = 'frozen' | 'frozenWithRecall' | 'rebuiltEachTurn'

/** Archived facts for the recall run: a few match turns below strongly, most match none. */
const ARCHIVED = [
  'Receipts are sent by email through the billing-receipts template in SendGrid',
  'Audit rows of the billing service are kept for seven years',
  'The on-call channel for billing errors is #billing-oncall, paged through PagerDuty',
  'Handler timeouts above ten seconds need a review from the platform team',
  ...Array.from({ length: 200 }, (_, i) => `Unrelated archived note ${i}: the garden shed key ${i} hangs by the door`)
]

interface Turn {
  user: string
  replies: ScriptedReply[]
  /** Runs before the turn: another process writing to the same data home. */
  before?: (home: string) => Promise<void>
}

const SERVER_TS = Array.from(
  { length: 60 },
  (_, i) => `export function handler${i}(request: Request): Response {\n  // retries with backoff, timeout ${1000 + i} ms\n  return respond(request, { attempt: ${i % 3}, timeoutMs: 5000 })\n}\n`
).join('\n')

const SKILL = `---
name: run-billing-tests
description: Run and fix the billing service tests
---

# Run the billing tests

1. Set PORT=0 so the test server picks a free port.
2. Run \`sh test.sh\` from the repository root.
3. If a test times out, check TIMEOUT_MS in src/server.ts first.
`

function prose(topic: string, sentences: number): string {
  const parts = [
    `About ${topic}: the billing service keeps invoices in Postgres and sends receipts by email.`,
    'Retries use exponential backoff with jitter, capped at five attempts.',
    'The handler validates the request, loads the customer and writes an audit row.',
    'Timeouts are read from TIMEOUT_MS, which defaults to five seconds in production.',
    'Errors are reported to the on-call channel with the request id attached.'
  ]
  return Array.from({ length: sentences }, (_, i) => parts[i % parts.length]).join(' ')
}

function call(name: string, args: object): ScriptedReply {
  return { toolCalls: [{ name, arguments: args }] }
}

const turns: Turn[] = [
  { user: "Hi, I'm Ada and I work on the billing service.", replies: [call('memory', { action: 'add', target: 'user', content: 'Name is Ada; works on the billing service' }), { text: 'Nice to meet you, Ada.' }] },
  { user: 'Show me src/server.ts.', replies: [call('read_file', { path: 'src/server.ts' }), { text: prose('server.ts', 6) }] },
  { user: 'What does the retry logic do?', replies: [{ text: prose('retries', 8) }] },
  { user: 'Run the tests.', replies: [call('run_command', { command: 'sh test.sh' }), { text: 'All 42 tests passed, but only with PORT=0.' }] },
  { user: 'Remember that the tests need PORT=0.', replies: [call('memory', { action: 'add', target: 'memory', content: 'Billing tests need PORT=0 (the test server binds a free port)' }), { text: 'Saved.' }] },
  { user: 'Raise the timeout of handler3 to 7000 ms.', replies: [call('edit_file', { path: 'src/server.ts', old_string: 'timeout 1003 ms', new_string: 'timeout 7000 ms' }), { text: 'Done: handler3 now waits 7000 ms.' }] },
  { user: 'Save how we run and fix these tests as a skill.', replies: [call('skill_manage', { action: 'create', name: 'run-billing-tests', category: 'billing', content: SKILL }), { text: 'Saved as run-billing-tests.' }] },
  { user: 'Did we talk about the deploy before?', replies: [call('session_search', { query: 'billing deploy' }), { text: 'I found nothing about a deploy in earlier sessions.' }] },
  { user: 'How are receipts sent?', replies: [{ text: prose('receipts', 7) }] },
  { user: 'And the audit rows?', replies: [{ text: prose('audit rows', 5) }] },
  { user: 'Which errors page the on-call?', replies: [{ text: prose('paging', 6) }] },
  { user: 'We use npm ci instead of sh test.sh now; fix the skill.', replies: [call('skill_view', { name: 'run-billing-tests' }), call('skill_manage', { action: 'patch', name: 'run-billing-tests', old_string: 'Run `sh test.sh` from the repository root.', new_string: 'Run `npm ci && npm test` from the repository root.' }), { text: 'Patched the skill.' }] },
  {
    user: 'Anything else I should know?',
    replies: [{ text: prose('what else', 4) }],
    before: async (home) => {
      // The background review, in its own core, saves what it learned.
      const review = await CairnCore.open({ home })
      await review.memory.add('memory', 'Billing invoices live in Postgres; receipts go out by email', { write: { source: 'review' } })
      await review.close()
    }
  },
  { user: "Actually I'm Ada Byron, and I lead the billing team.", replies: [call('memory', { action: 'replace', target: 'user', old_text: 'Name is Ada', content: 'Name is Ada Byron; leads the billing team' }), { text: 'Updated.' }] },
  { user: 'Show me the test script.', replies: [call('read_file', { path: 'test.sh' }), { text: 'It runs the suite with PORT=0.' }] },
  { user: 'Run it again.', replies: [call('run_command', { command: 'sh test.sh' }), { text: 'Still green.' }] },
  { user: 'Summarise the handler design.', replies: [{ text: prose('handler design', 10) }] },
  { user: 'What could go wrong with the backoff?', replies: [{ text: prose('backoff risks', 6) }] },
  { user: 'List the files in src.', replies: [call('list_dir', { path: 'src' }), { text: 'Only server.ts.' }] },
  { user: 'Thanks, that is all for today.', replies: [{ text: 'You are welcome, Ada.' }] }
]

interface RunFigures {
  requests: number
  promptTokens: number
  cachedTokens: number
  cachedShare: number
  /** Prompt tokens a provider would bill at the full price. */
  uncachedTokens: number
  systemPromptVersions: number
  recalledTurns: number
  firstPromptTokens: number
  lastPromptTokens: number
}

async function runSession(mode: Mode): Promise<RunFigures> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-bench-cache-'))
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-bench-ws-'))
  mkdirSync(join(workspace, 'src'))
  writeFileSync(join(workspace, 'src', 'server.ts'), SERVER_TS)
  writeFileSync(join(workspace, 'test.sh'), 'echo "42 tests passed (PORT=$PORT)"\n')
  let server: ScriptedServer | null = null
  let core: CairnCore | null = null
  const archive = mode === 'frozenWithRecall' ? new TestArchive(join(home, 'bench-archive.db')) : null
  archive?.addMany(ARCHIVED)
  const recall = archive ? new MemoryRecall(new BuiltinMemoryProvider(archive)) : undefined
  try {
    server = await startScriptedServer({ strict: true })
    core = await CairnCore.open({ home })
    await core.config.update({
      provider: { preset: 'custom', baseURL: server.url, model: 'scripted', maxRetries: 0, requestTimeoutMs: 10_000 },
      skills: { extraDirs: [] }
    })
    const env = { CAIRN_API_KEY: 'sk-bench' }
    let promptTokens = 0
    let cachedTokens = 0
    let session: AgentSession | null = null
    const open = (sessionId?: string): AgentSession => {
      const opened = createAgentSession({ core: core!, env, workspace, sessionId, autoApprove: true, recall })
      opened.events.on((event) => {
        if (event.type !== 'usage') return
        promptTokens += event.usage.promptTokens
        cachedTokens += event.usage.cachedTokens
      })
      return opened
    }
    for (const turn of turns) {
      await turn.before?.(home)
      if (!session) session = open()
      else if (mode === 'rebuiltEachTurn') {
        core.sessions.update(session.id, { systemPrompt: null })
        session = open(session.id)
      }
      server.enqueue(...turn.replies)
      const summary = await session.runTurn(turn.user).done
      if (summary.reason !== 'completed') throw new Error(`turn "${turn.user}" ended ${summary.reason}`)
      if (summary.toolCalls.some((c) => !c.ok)) throw new Error(`a tool failed in turn "${turn.user}": ${JSON.stringify(summary.toolCalls)}`)
    }

    const requests = server.chatRequests()
    const systemPrompts = new Set(requests.map((request) => JSON.stringify(request.body.messages[0])))
    const firstUsage = Math.ceil((JSON.stringify(requests[0].body.messages) + JSON.stringify(requests[0].body.tools)).length / 4)
    const last = requests.at(-1)!
    return {
      requests: requests.length,
      promptTokens,
      cachedTokens,
      cachedShare: round(cachedTokens / promptTokens),
      uncachedTokens: promptTokens - cachedTokens,
      systemPromptVersions: systemPrompts.size,
      recalledTurns: core.sessions.messages(session!.id).filter((m) => m.role === 'user' && m.meta?.recall).length,
      firstPromptTokens: firstUsage,
      lastPromptTokens: Math.ceil((JSON.stringify(last.body.messages) + JSON.stringify(last.body.tools)).length / 4)
    }
  } finally {
    archive?.close()
    await core?.close()
    await server?.close()
    rmSync(home, { recursive: true, force: true })
    rmSync(workspace, { recursive: true, force: true })
  }
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000
}

async function main(): Promise<void> {
  const frozen = await runSession('frozen')
  const frozenWithRecall = await runSession('frozenWithRecall')
  const rebuiltEachTurn = await runSession('rebuiltEachTurn')
  console.log(JSON.stringify({ turns: turns.length, target: 0.95, frozen, frozenWithRecall, rebuiltEachTurn }, null, 2))
  console.log(`prefix-cache share with recall on: ${frozenWithRecall.cachedShare} (${frozenWithRecall.recalledTurns} of ${turns.length} turns recalled)`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})

/**
 * How much learning a realistic desktop workload costs. A synthetic run of N conversations (default
 * 50; 2–6 user turns each, some stating a preference or correcting the assistant, some with tool work,
 * some with an error the turn then got past) goes through the app (CairnApp, real data home, real
 * review workers) against the scripted provider. Between conversations the user either goes quiet
 * (the idle check fires) or starts the next one at once; the app quits at the end. The scripted
 * reviewer saves each preference or correction it finds among the turns given whole (not the digest)
 * and, for a conversation that overcame an error, creates a skill after listing the existing ones.
 *
 * Prints JSON: user turns, reviews (by cause), reviews per 100 user turns, learned items per review
 * (ledger rows in `auto`; in `ask`, proposals too), review prompt tokens (median, p95; as the reviews
 * recorded them, or estimated from the requests, 1 token ≈ 4 chars, while reviews record none).
 * Usage: `npx tsx test/bench/learning-workload.ts [--conversations 50] [--seed 7] [--mode auto|ask]`
 * (`npm run bench:learning`). `--mode ask` needs the Inbox's staging (proposals) to count anything learned.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { learningModes, type LearningMode } from '../../shared/config'
import { CairnApp } from '../../electron/core/app/cairn-app'
import { TestClock } from '../helpers/test-clock'
import { CairnCore } from '../../electron/core/cairn'
import { ConfigStore } from '../../electron/core/config/config-store'
import { ensureHome } from '../../electron/core/config/home'
import { NEW_PART_HEADING } from '../../electron/core/learning/host/review-snapshot'
import { forkReviewWorker } from '../../electron/core/learning/host/spawn-worker'
import { specIssues } from '../../electron/core/skills/agent-skills-spec'
import { ProcessSecretStore } from '../../electron/serve/process-secrets'
import { estimateTokens, serialisePrompt, startScriptedServer, type RecordedChatRequest, type ScriptedReply } from '../scripted-provider'

const { values } = parseArgs({ options: { conversations: { type: 'string', default: '50' }, seed: { type: 'string', default: '7' }, mode: { type: 'string', default: 'auto' } } })
const CONVERSATIONS = Number(values.conversations)
const MODE = values.mode as LearningMode
if (!(learningModes as readonly string[]).includes(MODE) || MODE === 'off') throw new Error(`--mode must be auto or ask, not ${values.mode}`)
const REVIEW_PROMPT_START = "You are Cairn's background review."

/** mulberry32: the same workload for the same seed. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type TurnKind = 'plain' | 'preference' | 'correction' | 'tools' | 'recovered'
interface TurnPlan {
  kind: TurnKind
  text: string
  toolCalls: number
}

const TOPICS = ['the build', 'the photo library', 'the invoices', 'the blog', 'the backups', 'the test suite', 'the release notes', 'the budget sheet']
const PREFERENCES = ['tabs over spaces', 'short answers', 'metric units', 'ISO dates', 'British spelling', 'dark themes', 'pnpm over npm', 'Vim keybindings']

function planConversations(rand: () => number): TurnPlan[][] {
  const pick = <T>(items: T[]) => items[Math.floor(rand() * items.length)]
  return Array.from({ length: CONVERSATIONS }, (_, c) => {
    const turns = 2 + Math.floor(rand() * 5)
    return Array.from({ length: turns }, (_, t): TurnPlan => {
      const roll = rand()
      const tag = `(c${c} t${t})`
      if (roll < 0.12) return { kind: 'preference', text: `I prefer ${pick(PREFERENCES)} for ${pick(TOPICS)} ${tag}.`, toolCalls: 0 }
      if (roll < 0.2) return { kind: 'correction', text: `No, that's wrong: ${pick(TOPICS)} lives in ~/work/${c} ${tag}.`, toolCalls: 0 }
      if (roll < 0.45) return { kind: 'tools', text: `Look through ${pick(TOPICS)} for me ${tag}.`, toolCalls: 1 + Math.floor(rand() * 6) }
      if (roll < 0.52) return { kind: 'recovered', text: `Find the config for ${pick(TOPICS)} ${tag}.`, toolCalls: 3 }
      return { kind: 'plain', text: `What should I do next about ${pick(TOPICS)} ${tag}?`, toolCalls: 0 }
    })
  })
}

function isReview(request: RecordedChatRequest): boolean {
  const system = request.body.messages[0]
  return system?.role === 'system' && typeof system.content === 'string' && system.content.startsWith(REVIEW_PROMPT_START)
}

const textOf = (content: unknown): string => (typeof content === 'string' ? content : JSON.stringify(content ?? ''))

/** The chat model: each turn's plan says how many tool calls it makes (the first of a `recovered` turn fails). */
function chatReply(request: RecordedChatRequest, plans: Map<string, TurnPlan>): ScriptedReply {
  const messages = request.body.messages
  const lastUser = [...messages].reverse().find((m) => m.role === 'user')
  const plan = [...plans.entries()].find(([tag]) => textOf(lastUser?.content).includes(tag))?.[1]
  const since = messages.length - 1 - messages.lastIndexOf(lastUser!)
  const toolsDone = messages.slice(messages.length - since).filter((m) => m.role === 'tool').length
  if (!plan || toolsDone >= plan.toolCalls) return { text: `Done with that${plan ? '' : '.'}.` }
  if (plan.kind === 'recovered' && toolsDone === 0) return { toolCalls: [{ name: 'read_file', arguments: { path: 'no-such-config.toml' } }] }
  return { toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] }
}

/** The review model: saves what the turns given whole state, and a procedure where an error was overcome. */
function reviewReply(request: RecordedChatRequest, counter: { skills: number }): ScriptedReply {
  const messages = request.body.messages
  const last = messages.at(-1)!
  if (last.role === 'tool') {
    const calledList = messages.some((m) => m.role === 'assistant' && JSON.stringify(m).includes('skills_list')) && !JSON.stringify(messages).includes('"skill_manage"')
    if (calledList) {
      const name = `bench-procedure-${++counter.skills}`
      const content = `---\nname: ${name}\ndescription: Find a config file when the first guess is wrong.\n---\n# Find the config\n1. List the folder before reading a guessed path.\n`
      return { toolCalls: [{ name: 'skill_manage', arguments: { action: 'create', name, category: 'bench', content } }] }
    }
    return { text: 'Saved.' }
  }
  const transcript = textOf(messages[1]?.content)
  const fresh = transcript.includes(`]] ${NEW_PART_HEADING}`) ? transcript.slice(transcript.indexOf(`]] ${NEW_PART_HEADING}`)) : transcript
  const stated = [...fresh.matchAll(/\[\[user ⟨[0-9a-f]+⟩\]\]\n((?:I prefer|No, that's wrong)[^\n]*)/g)].map((m) => m[1]).slice(0, 3)
  if (stated.length) {
    return { toolCalls: [{ name: 'memory', arguments: { target: 'user', operations: stated.map((text) => ({ action: 'add', content: `Said: ${text}` })) } }] }
  }
  if (/failed, then the task went on/.test(transcript)) return { toolCalls: [{ name: 'skills_list', arguments: {} }] }
  return { text: 'Nothing to save.' }
}


function quantile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
}

async function main(): Promise<void> {
  const started = Date.now()
  const rand = random(Number(values.seed))
  const conversations = planConversations(rand)
  const plans = new Map(conversations.flat().map((plan) => [plan.text.match(/\(c\d+ t\d+\)/)![0], plan]))
  const counter = { skills: 0 }
  const server = await startScriptedServer({ apiKey: 'sk-bench', respond: (request) => (isReview(request) ? reviewReply(request, counter) : chatReply(request, plans)) })
  const home = mkdtempSync(join(tmpdir(), 'cairn-workload-'))
  const userHome = mkdtempSync(join(tmpdir(), 'cairn-workload-user-'))
  await new ConfigStore(ensureHome(home).configFile).update({
    provider: { preset: 'custom', baseURL: server.url, model: 'scripted', maxRetries: 0, requestTimeoutMs: 30_000 },
    agent: { autoTitle: false },
    skills: { extraDirs: [] },
    // Curation passes run on the app's clock too; this figure is about learning from conversations.
    learning: { mode: MODE, curateEveryDays: 0 }
  })
  const core = await CairnCore.open({ home })
  const clock = new TestClock(Date.now())
  const env = { CAIRN_API_KEY: 'sk-bench' }
  const app = new CairnApp({ core, spawnWorker: () => forkReviewWorker(), secrets: new ProcessSecretStore(env), platform: { mode: 'browser' }, version: 'bench', env, userHome, clock, quitReviewMs: 120_000 })
  const settledCount = () => settled
  let settled = 0
  app.events.on((event) => {
    if (event.name === 'chat.status' && !event.payload.running) settled++
  })
  const say = async (sessionId: string | null, text: string): Promise<string> => {
    const before = settledCount()
    const sent = await app.chats.send(sessionId, text)
    while (settledCount() === before) await new Promise((wake) => setTimeout(wake, 5))
    return sent.sessionId
  }

  let userTurns = 0
  for (const turns of conversations) {
    let id: string | null = null
    for (const plan of turns) {
      id = await say(id, plan.text)
      userTurns++
    }
    if (rand() < 0.6) clock.pass(15) // quiet: the idle check ends it; otherwise the next conversation does
    await app.host.whenIdle()
  }
  await app.close()

  const rows = core.db.prepare("SELECT id, status, reasons, prompt_tokens FROM review_runs ORDER BY queued_at, rowid").all() as Array<{ id: string; status: string; reasons: string; prompt_tokens: number | null }>
  const ledgerRows = (core.db.prepare('SELECT COUNT(*) AS n FROM ledger WHERE review_id IS NOT NULL').get() as { n: number }).n
  const proposals = (core.db.prepare('SELECT COUNT(*) AS n FROM proposals WHERE review_id IS NOT NULL').get() as { n: number }).n
  const byCause: Record<string, number> = {}
  for (const row of rows) {
    const reason = (JSON.parse(row.reasons) as Array<{ code: string; cause?: string }>)[0]
    const key = reason ? (reason.code === 'session_end' ? `session_end:${reason.cause}` : reason.code) : 'none'
    byCause[key] = (byCause[key] ?? 0) + 1
  }
  // A review's first request is its system prompt and the transcript: it starts a new group.
  const estimated: number[] = []
  for (const request of server.chatRequests().filter(isReview)) {
    if (request.body.messages.length === 2) estimated.push(0)
    estimated[estimated.length - 1] += estimateTokens(serialisePrompt(request.body).length)
  }
  const reported = rows.map((row) => row.prompt_tokens).filter((n): n is number => n !== null)
  const tokens = (reported.length === rows.length && rows.length > 0 ? reported : estimated).sort((a, b) => a - b)
  const done = rows.filter((row) => row.status === 'done').length
  // Every SKILL.md the reviews wrote (applied in auto; as proposed in ask), checked as a strict Agent Skills client would.
  const written = (core.db.prepare("SELECT target, after FROM ledger WHERE review_id IS NOT NULL AND target LIKE '%/SKILL.md' AND after IS NOT NULL UNION ALL SELECT target, after FROM proposals WHERE target LIKE '%/SKILL.md' AND after IS NOT NULL").all() as Array<{ target: string; after: string }>)
  const validSkills = written.filter((row) => specIssues(row.after, row.target.split('/').at(-2) ?? '').length === 0).length
  console.log(
    JSON.stringify(
      {
        mode: MODE,
        seed: Number(values.seed),
        conversations: CONVERSATIONS,
        userTurns,
        reviews: { total: rows.length, done, failed: rows.length - done, byCause },
        reviewsPer100UserTurns: Number(((rows.length / userTurns) * 100).toFixed(1)),
        learnedItemsPerReview: done ? Number(((ledgerRows + proposals) / done).toFixed(2)) : null,
        learned: { ledgerRows, proposals },
        skillFilesWritten: { total: written.length, validAgentSkills: validSkills },
        reviewPromptTokens: { median: quantile(tokens, 0.5), p95: quantile(tokens, 0.95), source: tokens === reported ? 'recorded' : 'estimated from requests' },
        wallMs: Date.now() - started
      },
      null,
      2
    )
  )
  await core.close()
  await server.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(userHome, { recursive: true, force: true })
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})

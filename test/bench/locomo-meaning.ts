/**
 * LoCoMo recall with search by meaning, through Cairn's real path: each conversation is ingested as
 * in locomo.ts, its messages embedded by a real OpenAI-compatible `/v1/embeddings` server
 * (fillSemanticIndex, sqlite-vec in the same state.db), and every question asked three ways: by
 * keyword alone, by meaning alone (the conversations of the nearest messages), and fused (what
 * session_search does when search.embeddingModel is set). Prints JSON: any@k / all@k for all
 * questions, the tuning and held-out conversations, and per category.
 *
 *   npx tsx test/bench/locomo-meaning.ts --embedding-url http://localhost:11434/v1 --embedding-model nomic-embed-text
 *   npx tsx test/bench/locomo-meaning.ts --encoder-modules /tmp/encoder/node_modules   (see support/sentence-encoder-server.mjs)
 *
 * The key, if the server wants one, comes from CAIRN_EMBEDDING_API_KEY.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { EmbeddingClient, type Embedder } from '../../electron/core/provider/embeddings'
import { fillSemanticIndex } from '../../electron/core/sessions/semantic-fill'
import { searchByMeaning } from '../../electron/core/sessions/semantic-search'
import { searchSessions } from '../../electron/core/sessions/session-search'
import { ingestConversation, reachableByWords, summarise, type IngestedConversation, type QuestionOutcome, type RecallFigures } from './locomo'
import { categoryNames, loadLocomo, type LocomoQuestion } from './locomo-data'
import { HELD_OUT_CONVERSATIONS } from './locomo-split'

/** Nearest messages asked for per question: what session_search asks for. */
const MEANING_CANDIDATES = 50
const WAYS = ['keyword', 'meaning', 'fused'] as const
type Way = (typeof WAYS)[number]

function flag(name: string): string | null {
  const at = process.argv.indexOf(name)
  return at > 0 ? (process.argv[at + 1] ?? null) : null
}

/** Starts the Universal Sentence Encoder server in its own process; resolves with its base URL. */
function startEncoder(modules: string): Promise<{ url: string; child: ChildProcess }> {
  const script = join(fileURLToPath(new URL('.', import.meta.url)), 'support', 'sentence-encoder-server.mjs')
  const child = spawn(process.execPath, [script, modules], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`The encoder server stopped (exit ${code}) before it was ready.`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const url = /^listening (\S+)/.exec(line)?.[1]
      if (url) resolve({ url, child })
    })
  })
}

function ranksOf(ingested: IngestedConversation, question: LocomoQuestion, sessionIds: string[]): QuestionOutcome {
  const order = sessionIds.map((id) => ingested.sessionNumbers.get(id))
  const goldRanks = question.goldSessions.map((n) => {
    const at = order.indexOf(n)
    return at < 0 ? Infinity : at + 1
  })
  return { category: question.category, goldRanks, turnFrac5: 0, turnFrac10: 0, reachable: reachableByWords(ingested, question.question, question.goldSessions) }
}

async function askThreeWays(ingested: IngestedConversation, embedder: Embedder, question: LocomoQuestion): Promise<Record<Way, QuestionOutcome>> {
  const meaning = await searchByMeaning(ingested.db, embedder, question.question, MEANING_CANDIDATES)
  const byMeaning = [...new Set(meaning.map((m) => m.sessionId))].slice(0, 10)
  const keyword = searchSessions(ingested.db, question.question, { limit: 10, window: 0 }).sessions.map((s) => s.sessionId)
  const fused = searchSessions(ingested.db, question.question, { limit: 10, window: 0, meaning }).sessions.map((s) => s.sessionId)
  return { keyword: ranksOf(ingested, question, keyword), meaning: ranksOf(ingested, question, byMeaning), fused: ranksOf(ingested, question, fused) }
}

function figures(outcomes: Array<QuestionOutcome & { heldOut: boolean }>): Record<string, Pick<RecallFigures, 'n' | 'any' | 'all'>> {
  const brief = (list: QuestionOutcome[]) => {
    const { n, any, all } = summarise(list)
    return { n, any, all }
  }
  const report: Record<string, Pick<RecallFigures, 'n' | 'any' | 'all'>> = {
    all: brief(outcomes),
    tuning: brief(outcomes.filter((o) => !o.heldOut)),
    heldOut: brief(outcomes.filter((o) => o.heldOut))
  }
  for (const category of [1, 2, 3, 4, 5]) report[`${category} ${categoryNames[category]}`] = brief(outcomes.filter((o) => o.category === category))
  return report
}

async function main(): Promise<void> {
  const modules = flag('--encoder-modules')
  const encoder = modules ? await startEncoder(modules) : null
  const baseURL = encoder?.url ?? flag('--embedding-url')
  const model = encoder ? 'universal-sentence-encoder-lite' : flag('--embedding-model')
  if (!baseURL || !model) throw new Error('Give --embedding-url URL --embedding-model NAME, or --encoder-modules DIR.')
  const embedder = new EmbeddingClient({
    preset: 'custom',
    model,
    baseURL,
    apiKey: process.env.CAIRN_EMBEDDING_API_KEY ?? null,
    dimensions: Number(flag('--dimensions') ?? 0),
    maxRetries: 2,
    requestTimeoutMs: 120_000
  })
  const only = flag('--conversations')?.split(',')
  const conversations = loadLocomo().filter((c) => !only || only.includes(c.sampleId))
  const dir = mkdtempSync(join(tmpdir(), 'cairn-locomo-meaning-'))
  const outcomes: Record<Way, Array<QuestionOutcome & { heldOut: boolean }>> = { keyword: [], meaning: [], fused: [] }
  const started = performance.now()
  let embedSeconds = 0
  try {
    for (const conversation of conversations) {
      const ingested = ingestConversation(conversation, join(dir, `${conversation.sampleId}.db`))
      const fillStarted = performance.now()
      const filled = await fillSemanticIndex(ingested.db, embedder)
      embedSeconds += (performance.now() - fillStarted) / 1000
      if (filled.status !== 'done') throw new Error(`Embedding ${conversation.sampleId} ended "${filled.status}"${'error' in filled ? `: ${filled.error.message}` : ''}`)
      const heldOut = HELD_OUT_CONVERSATIONS.includes(conversation.sampleId)
      for (const question of conversation.questions) {
        const asked = await askThreeWays(ingested, embedder, question)
        for (const way of WAYS) outcomes[way].push({ ...asked[way], heldOut })
      }
      ingested.db.close()
      process.stderr.write(`${conversation.sampleId} done\n`)
    }
  } finally {
    encoder?.child.kill()
    rmSync(dir, { recursive: true, force: true })
  }
  const report = {
    benchmark: 'locomo10 recall by keyword, by meaning and fused',
    model,
    conversations: conversations.map((c) => c.sampleId),
    heldOut: HELD_OUT_CONVERSATIONS,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    embedSeconds: Math.round(embedSeconds * 10) / 10,
    ...Object.fromEntries(WAYS.map((way) => [way, figures(outcomes[way])]))
  }
  console.log(JSON.stringify(report, null, 2))
}

main().catch((error: Error) => {
  console.error(error.message)
  process.exit(1)
})

import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Mem0Provider } from '../../../electron/core/recall/mem0-provider'
import { MemoryRecall } from '../../../electron/core/recall/memory-recall'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'
import type { RecordedChatRequest } from '../../scripted-provider'

const FACT = 'Prefers tea over coffee in the afternoon'

/**
 * The chat model and Mem0's extractor on one scripted server. The extractor answers like a sloppy
 * model: its JSON inside a code fence, the fact reworded from what the user said.
 */
function chatAndExtractor(request: RecordedChatRequest) {
  const system = String(request.body.messages[0]?.content ?? '')
  if (system.includes('Memory Extractor')) {
    const said = String(request.body.messages.at(-1)?.content ?? '')
    const memory = said.includes('tea') ? [{ id: '0', text: FACT, attributed_to: 'user' }] : []
    return { text: '```json\n' + JSON.stringify({ memory }) + '\n```' }
  }
  return { text: 'Sure.' }
}

let fx: AgentFixture
let storage: string
beforeEach(async () => {
  fx = await agentFixture({ server: { respond: chatAndExtractor } })
  storage = mkdtempSync(join(tmpdir(), 'cairn-mem0-'))
})
afterEach(async () => {
  await fx.close()
  rmSync(storage, { recursive: true, force: true })
})

function mem0(): Mem0Provider {
  const base = { preset: 'custom' as const, baseURL: fx.server.url, apiKey: 'sk-test', requestTimeoutMs: 10_000, maxRetries: 0 }
  return new Mem0Provider({
    mode: 'oss',
    llm: { ...base, model: 'scripted' },
    embedder: { ...base, model: 'embed-scripted', dimensions: 0 },
    storageDir: storage,
    userId: 'cairn-test'
  })
}

describe("Mem0's open-source mode, in process, on the user's own provider", () => {
  it('learns a finished turn, recalls it into a later turn marked as Mem0’s, and forgets it', async () => {
    const provider = mem0()
    const recall = new MemoryRecall(provider, { boundMs: 5_000 })
    const { session } = fx.open({ recall })
    await session.runTurn('By the way, I drink tea in the afternoon, never coffee.').done
    await recall.drain()
    expect(recall.status()).toMatchObject({ provider: 'mem0', state: 'ready', lastError: null })

    // Mem0 was sent the user's own words and the answer, and extracted with the chat provider, embedded with its embeddings.
    const extraction = fx.server.chatRequests().find((request) => String(request.body.messages[0]?.content).includes('Memory Extractor'))!
    expect(String(extraction.body.messages.at(-1)?.content)).toContain('user: By the way, I drink tea in the afternoon, never coffee.')
    expect(fx.server.requests.some((request) => request.path === '/v1/embeddings')).toBe(true)

    const [found] = await provider.search('tea or coffee in the afternoon', { limit: 5 })
    expect(found).toMatchObject({ provider: 'mem0', text: FACT })

    const lastAsked = () => String(fx.server.chatRequests().filter((request) => !String(request.body.messages[0]?.content).includes('Memory Extractor')).at(-1)!.body.messages.at(-1)?.content)
    await session.runTurn('What time is the standup meeting on Monday?').done
    expect(lastAsked()).not.toContain('<memory-context>') // Mem0 finds something for any query; a weak match is not offered
    await session.runTurn('Should I make tea or coffee this afternoon?').done
    expect(lastAsked()).toContain(`- [mem0 #${found.id}] ${FACT}`)

    expect(await recall.forget(found.id)).toBe(true)
    expect(await provider.search('tea or coffee in the afternoon', { limit: 5 })).toEqual([])
    await recall.shutdown()
  }, 30_000)

  it('a Mem0 whose model is down fails in the background, tried again, and the status says why', async () => {
    fx.server.close()
    const recall = new MemoryRecall(mem0(), { retry: { attempts: 2, baseDelayMs: 5 } })
    recall.afterTurn({ sessionId: 's', userText: 'I drink tea', answer: 'Noted.' })
    await recall.drain()
    expect(recall.status()).toMatchObject({ state: 'failing', pendingSyncs: 0 })
    expect(recall.status().lastError).toMatchObject({ code: 'unreachable' })
  }, 30_000)

  it('recalls a fact within its workspace project (or none) only, and keeps Mem0’s files and environment to the data home and its own calls', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cairn-mem0-home-'))
    const realHome = process.env.HOME
    process.env.HOME = home // where Mem0 would otherwise write ~/.mem0
    try {
      const provider = mem0()
      const recall = new MemoryRecall(provider, { boundMs: 5_000 })
      recall.afterTurn({ sessionId: 's-a', userText: 'By the way, I drink tea in the afternoon, never coffee.', answer: 'Noted.' }, { projectKey: 'repo-a' })
      await recall.drain()
      const asked = 'Should I make tea or coffee this afternoon?'
      expect(await provider.recall(asked, { sessionId: 's-b', projectKey: 'repo-b' })).toEqual([])
      expect(await provider.recall(asked, { sessionId: 's-b', projectKey: null })).toEqual([])
      expect((await provider.recall(asked, { sessionId: 's-a2', projectKey: 'repo-a' })).map((hit) => hit.text)).toEqual([FACT])
      expect((await provider.search('tea or coffee in the afternoon', { limit: 5 })).map((hit) => hit.text)).toEqual([FACT])
      expect(process.env.MEM0_DIR).toBeUndefined()
      expect(process.env.MEM0_TELEMETRY).toBeUndefined()
      expect(existsSync(join(home, '.mem0'))).toBe(false)
      expect(existsSync(join(storage, 'config.json'))).toBe(true)
      await recall.shutdown()
    } finally {
      process.env.HOME = realHome
      rmSync(home, { recursive: true, force: true })
    }
  }, 30_000)
})

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Mem0Provider } from '../../../electron/core/recall/mem0-provider'
import { MemoryRecall } from '../../../electron/core/recall/memory-recall'
import { startMem0PlatformServer, type Mem0PlatformServer } from '../../helpers/mem0-platform-server'

let platform: Mem0PlatformServer
let fetched: string[]
const realFetch = globalThis.fetch
beforeEach(async () => {
  platform = await startMem0PlatformServer({ apiKey: 'm0-test' })
  // Every address the SDK reaches: its own telemetry must not be one of them.
  fetched = []
  globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    fetched.push(String(input instanceof Request ? input.url : input))
    return realFetch(input, init)
  }) as typeof fetch
})
afterEach(async () => {
  globalThis.fetch = realFetch
  await platform.close()
})

describe("Mem0's platform, with the user's key", () => {
  it('adds each finished turn for the user, recalls and forgets by id, and reaches nothing but the platform', async () => {
    const provider = new Mem0Provider({ mode: 'platform', apiKey: 'm0-test', host: platform.url, userId: 'ada' })
    const recall = new MemoryRecall(provider)
    recall.afterTurn({ sessionId: 's1', userText: 'I keep my passport in the blue folder', answer: 'Noted.' })
    await recall.drain()
    expect(recall.status()).toMatchObject({ state: 'ready', lastError: null })
    expect(platform.memories).toEqual([{ id: 'mem-1', memory: 'I keep my passport in the blue folder', user_id: 'ada' }])

    const offered = await recall.forTurn('Where is my passport folder?', { sessionId: 's2' })
    expect(offered?.items).toEqual([{ provider: 'mem0', id: 'mem-1', text: 'I keep my passport in the blue folder' }])
    expect(await recall.forget('mem-1')).toBe(true)
    expect(await provider.search('passport folder', { limit: 5 })).toEqual([])

    expect(platform.requests.every((request) => request.authorization === 'Token m0-test')).toBe(true)
    expect(fetched.length).toBeGreaterThan(0)
    expect(fetched.filter((url) => !url.startsWith(platform.url))).toEqual([])
  })

  it('adds each turn with its workspace project and recalls that project’s memories and those of none', async () => {
    const provider = new Mem0Provider({ mode: 'platform', apiKey: 'm0-test', host: platform.url, userId: 'ada' })
    const recall = new MemoryRecall(provider)
    recall.afterTurn({ sessionId: 's1', userText: 'The passport for repository A lives in the blue folder', answer: 'Noted.' }, { projectKey: 'repo-a' })
    await recall.drain()
    expect(platform.memories[0].metadata).toEqual({ cairnProject: 'repo-a' })
    const asked = 'Where is the passport folder?'
    expect(await provider.recall(asked, { sessionId: 's2', projectKey: 'repo-b' })).toEqual([])
    expect((await provider.recall(asked, { sessionId: 's2', projectKey: 'repo-a' })).map((hit) => hit.id)).toEqual(['mem-1'])
    delete platform.memories[0].metadata // a memory of no project stays global
    expect((await provider.recall(asked, { sessionId: 's2', projectKey: 'repo-b' })).map((hit) => hit.id)).toEqual(['mem-1'])
  })
})

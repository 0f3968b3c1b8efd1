import { afterEach, describe, expect, it } from 'vitest'
import { readIndexState } from '../../../electron/core/sessions/semantic-index'
import { searchByMeaning } from '../../../electron/core/sessions/semantic-search'
import { createEmbedder } from '../../../electron/core/provider/embeddings'
import { SEMANTIC_CHECK_MS } from '../../../electron/core/app/semantic-filling'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { say, TestClock } from '../learning/host/desktop-chat'

let fx: AppFixture | undefined

afterEach(async () => {
  await fx?.close()
  fx = undefined
})

/** One turn as the window sends it, then whatever background filling it started. */
async function turn(f: AppFixture, text: string, reply: string, sessionId: string | null = null): Promise<string> {
  f.server.enqueue({ text: reply })
  const id = await say(f, sessionId, text)
  await f.app.meaning.settled()
  return id
}

function embeddingRequests(f: AppFixture): number {
  return f.server.requests.filter((r) => r.path === '/v1/embeddings').length
}

describe('search by meaning in the app', () => {
  it('embeds a turn in the background once it has ended, and finds it by meaning', async () => {
    fx = await appFixture({ config: { search: { embeddingModel: 'embed-a' } } })
    const sessionId = await turn(fx, 'my tomato plants have yellow leaves', 'Water them less.')
    const paths = fx.server.requests.map((r) => r.path)
    // Not in the turn's path: the chat request came and went before any embedding request.
    expect(paths[0]).toBe('/v1/chat/completions')
    expect(paths.slice(1)).toEqual(['/v1/embeddings'])
    expect(readIndexState(fx.core.db)).toMatchObject({ model: 'embed-a', embedded: 2 })

    const embedder = createEmbedder(fx.core.config.get().search, fx.app.providerSettings(), null, {})
    const found = await searchByMeaning(fx.core.db, embedder, 'yellow leaves on tomatoes', 1)
    expect(found).toMatchObject([{ sessionId, rank: 1 }])
  })

  it('does nothing at all while no embedding model is set', async () => {
    fx = await appFixture()
    await turn(fx, 'hello', 'Hi.')
    expect(fx.server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions'])
    expect(readIndexState(fx.core.db)).toBeNull()
    expect(fx.app.meaning.status()).toEqual({ running: false, last: null })
  })

  it('a provider error leaves chat and keyword search working, and the next check catches up', async () => {
    const clock = new TestClock()
    fx = await appFixture({ config: { search: { embeddingModel: 'embed-a' } }, app: { clock } })
    fx.server.failEmbeddings({ status: 503 })
    const sessionId = await turn(fx, 'the deploy to fly failed', 'Check fly logs.')
    expect(fx.app.meaning.status().last).toMatchObject({ status: 'failed' })
    const keyword = await fx.ok('sessions.search', { query: 'fly deploy' })
    expect(JSON.stringify(keyword)).toContain(sessionId)

    // Turns ending do not hammer a failing server: the retry waits for the next check.
    await turn(fx, 'it works now', 'Great.', sessionId)
    expect(embeddingRequests(fx)).toBe(1)
    clock.pass(SEMANTIC_CHECK_MS / 60_000)
    await fx.app.meaning.settled()
    expect(fx.app.meaning.status().last).toMatchObject({ status: 'done', embedded: 4 })
    expect(readIndexState(fx.core.db)?.embedded).toBe(4)
  })

  it('an error only a settings change can fix waits for one', async () => {
    fx = await appFixture({ config: { search: { embeddingModel: 'embed-a' } } })
    fx.server.failEmbeddings({ status: 404 })
    const sessionId = await turn(fx, 'first question', 'First answer.')
    expect(fx.app.meaning.status().last).toMatchObject({ status: 'failed' })
    await turn(fx, 'second question', 'Second answer.', sessionId)
    expect(embeddingRequests(fx)).toBe(1)

    await fx.ok('settings.update', { patch: { search: { embeddingModel: 'embed-b' } } })
    await fx.app.meaning.settled()
    expect(readIndexState(fx.core.db)).toMatchObject({ model: 'embed-b', embedded: 4 })
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { EmbeddingClient, type EmbeddingSettings } from '../../../electron/core/provider/embeddings'
import { SessionStore, searchSessions } from '../../../electron/core/sessions'
import { fillSemanticIndex } from '../../../electron/core/sessions/semantic-fill'
import { indexProgress, readIndexState } from '../../../electron/core/sessions/semantic-index'
import { fuseSessions, searchByMeaning, semanticStatus } from '../../../electron/core/sessions/semantic-search'
import { startScriptedServer, type ScriptedServer } from '../../scripted-provider'

let dir: string
let db: StateDb
let store: SessionStore
let server: ScriptedServer

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-semantic-'))
  db = openStateDb(join(dir, 'state.db'))
  store = new SessionStore(db)
  server = await startScriptedServer({ embeddings: { dimensions: 48 } })
})

afterEach(async () => {
  await server.close()
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

function embedder(overrides: Partial<EmbeddingSettings> = {}): EmbeddingClient {
  return new EmbeddingClient({ preset: 'ollama', baseURL: server.url, model: 'embed-a', apiKey: null, requestTimeoutMs: 5000, maxRetries: 0, dimensions: 0, ...overrides })
}

/** A conversation of alternating user / assistant messages; returns their ids. */
function conversation(id: string, ...messages: string[]): number[] {
  store.create({ id, title: id })
  return store.appendMany(id, messages.map((content, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content }))).map((m) => m.id)
}

function vectorCount(): number {
  return db.prepare('SELECT count(*) FROM message_vectors').pluck().get() as number
}

describe('fillSemanticIndex', () => {
  it('embeds what the user and the assistant said, not tool output, and finds it by meaning', async () => {
    conversation('garden', 'my tomato plants have yellow leaves', 'water them less and check for blight')
    conversation('deploy', 'the blog deploy to fly failed', 'run fly logs to see the error')
    store.append('deploy', { role: 'tool', content: 'tomato tomato tomato', toolName: 'run_command', toolCallId: 'c1' })

    const outcome = await fillSemanticIndex(db, embedder(), { countProgress: true })
    expect(outcome).toMatchObject({ status: 'done', embedded: 4, skipped: 0, progress: { done: 4, total: 4 } })
    expect(vectorCount()).toBe(4)
    expect(readIndexState(db)).toMatchObject({ model: 'embed-a', dimensions: 48, embedded: 4 })

    const found = await searchByMeaning(db, embedder(), 'yellow tomato leaves', 2)
    expect(found[0]).toMatchObject({ sessionId: 'garden', rank: 1 })
    expect(found.map((c) => c.rank)).toEqual([1, 2])
  })

  it('fuses with keyword search: what both found leads, what only meaning found follows', async () => {
    conversation('exact', 'the fly deploy of the blog failed with a timeout')
    conversation('related', 'my blog went down after I pushed it')
    conversation('unrelated', 'buy milk and eggs')
    await fillSemanticIndex(db, embedder())
    const keyword = searchSessions(db, 'fly deploy', { limit: 10 }).sessions.map((s) => s.sessionId)
    expect(keyword).toEqual(['exact'])
    const meaning = await searchByMeaning(db, embedder(), 'fly deploy blog', 2)
    const fused = fuseSessions(keyword, meaning)
    expect(fused.map((f) => f.sessionId)).toEqual(['exact', 'related'])
    expect(fused[1]).toMatchObject({ keywordRank: null, meaningRank: 2 })
  })

  it('backfills with progress, stops when cancelled, and resumes where it stopped without re-embedding', async () => {
    for (let i = 0; i < 5; i++) conversation(`s${i}`, `question ${i} about topic ${i}`, `answer ${i} about topic ${i}`)
    const progress: Array<[number, number]> = []
    const stop = new AbortController()
    const first = await fillSemanticIndex(db, embedder(), {
      batchSize: 3,
      countProgress: true,
      onProgress: (p) => {
        progress.push([p.done, p.total])
        if (p.done >= 6) stop.abort()
      },
      signal: stop.signal
    })
    expect(first).toMatchObject({ status: 'cancelled', embedded: 6 })
    expect(progress).toEqual([
      [3, 10],
      [6, 10]
    ])
    expect(indexProgress(db, readIndexState(db)!)).toEqual({ done: 6, total: 10 })
    const sentBefore = server.embeddingRequests().flatMap((r) => (r.body as { input: string[] }).input)
    // Newest first: the most recent conversations are findable soonest.
    expect(sentBefore[0]).toBe('answer 4 about topic 4')

    const second = await fillSemanticIndex(db, embedder(), { batchSize: 3, countProgress: true })
    expect(second).toMatchObject({ status: 'done', embedded: 4, progress: { done: 10, total: 10 } })
    const sentAll = server.embeddingRequests().flatMap((r) => (r.body as { input: string[] }).input)
    expect(sentAll).toHaveLength(10)
    expect(new Set(sentAll).size).toBe(10)
    expect(vectorCount()).toBe(10)
  })

  it('takes messages written after the backfill began before the rest of the old ones', async () => {
    for (let i = 0; i < 4; i++) conversation(`old${i}`, `old question ${i}`, `old answer ${i}`)
    await fillSemanticIndex(db, embedder(), { batchSize: 2, maxBatches: 1 })
    conversation('new', 'a brand new question')
    await fillSemanticIndex(db, embedder(), { batchSize: 2, maxBatches: 1 })
    const second = server.embeddingRequests()[1].body as { input: string[] }
    expect(second.input).toEqual(['a brand new question'])
  })

  it('re-embeds everything when the model changes', async () => {
    conversation('a', 'one thing', 'another thing')
    await fillSemanticIndex(db, embedder())
    expect(await searchByMeaning(db, embedder({ model: 'embed-b' }), 'thing', 5)).toEqual([])

    const outcome = await fillSemanticIndex(db, embedder({ model: 'embed-b', dimensions: 24 }))
    expect(outcome).toMatchObject({ status: 'done', embedded: 2 })
    expect(readIndexState(db)).toMatchObject({ model: 'embed-b', dimensions: 24, embedded: 2 })
    expect(vectorCount()).toBe(2)
    expect(await searchByMeaning(db, embedder({ model: 'embed-b', dimensions: 24 }), 'thing', 5)).toHaveLength(2)
    expect(await searchByMeaning(db, embedder(), 'thing', 5)).toEqual([])
  })

  it('a provider error stores nothing for that batch, keeps keyword search, and the next fill retries it', async () => {
    conversation('a', 'the deploy to fly failed', 'check the fly logs')
    server.failEmbeddings({ status: 500 })
    const failed = await fillSemanticIndex(db, embedder())
    expect(failed).toMatchObject({ status: 'failed', embedded: 0 })
    expect(failed.status === 'failed' && failed.error.message).toMatch(/server error \(500/)
    expect(readIndexState(db)).toMatchObject({ embedded: 0, dimensions: 0 })
    expect(searchSessions(db, 'fly deploy').sessions.map((s) => s.sessionId)).toEqual(['a'])
    expect(semanticStatus(db, embedder())).toEqual({ state: 'empty', model: 'embed-a' })

    expect(await fillSemanticIndex(db, embedder())).toMatchObject({ status: 'done', embedded: 2 })
    expect(semanticStatus(db, embedder())).toMatchObject({ state: 'ready', embedded: 2, dimensions: 48 })
  })

  it('skips only the messages the provider refuses, once, and goes on', async () => {
    await server.close()
    server = await startScriptedServer({ embeddings: { maxInputChars: 40 } })
    conversation('a', 'short one', 'this message is far too long for the scripted model to take', 'short two')
    const outcome = await fillSemanticIndex(db, embedder())
    expect(outcome).toMatchObject({ status: 'done', embedded: 2, skipped: 1 })
    const requests = server.embeddingRequests().length
    expect(await fillSemanticIndex(db, embedder())).toMatchObject({ status: 'done', embedded: 0, skipped: 0 })
    expect(server.embeddingRequests()).toHaveLength(requests)
  })

  it('a first batch the provider refuses whole is skipped, and the next messages still get vectors', async () => {
    await server.close()
    server = await startScriptedServer({ embeddings: { maxInputChars: 10 } })
    conversation('a', 'far too long for it', 'also far too long')
    expect(await fillSemanticIndex(db, embedder())).toMatchObject({ status: 'done', embedded: 0, skipped: 2 })
    conversation('b', 'short')
    expect(await fillSemanticIndex(db, embedder())).toMatchObject({ status: 'done', embedded: 1, skipped: 0 })
    expect(vectorCount()).toBe(1)
  })

  it('a model that changes its vector size midway stops the fill with the reason, storing nothing of that batch', async () => {
    conversation('a', 'first message')
    await fillSemanticIndex(db, embedder({ dimensions: 16 }))
    conversation('b', 'second message')
    // Same identity (dimensions 0 is not 16, so force it): a server now answering at another size.
    db.prepare('UPDATE semantic_index SET requested_dimensions = 0').run()
    const outcome = await fillSemanticIndex(db, embedder())
    expect(outcome.status).toBe('failed')
    expect(outcome.status === 'failed' && outcome.error.message).toBe('The embedding model returned 48 dimensions where the index holds 16.')
    expect(vectorCount()).toBe(1)
  })

  it('removes the vectors of a deleted conversation', async () => {
    conversation('keep', 'keep this')
    conversation('gone', 'delete this', 'and this')
    await fillSemanticIndex(db, embedder())
    expect(vectorCount()).toBe(3)
    store.delete('gone')
    await fillSemanticIndex(db, embedder())
    expect(vectorCount()).toBe(1)
    expect(readIndexState(db)?.embedded).toBe(1)
  })

  it('is unavailable, with the reason, when sqlite-vec cannot be loaded, and keyword search still works', async () => {
    conversation('a', 'the deploy to fly failed')
    const missing = join(dir, 'no-such-vec0')
    const outcome = await fillSemanticIndex(db, embedder(), { extensionPath: missing })
    expect(outcome.status).toBe('unavailable')
    expect(outcome.status === 'unavailable' && outcome.reason).toMatch(/^Search by meaning is unavailable on this system: the sqlite-vec extension could not be loaded \(.*no-such-vec0/)
    expect(semanticStatus(db, embedder(), missing)).toMatchObject({ state: 'unavailable', code: 'load_failed', detail: expect.stringContaining('no-such-vec0') })
    expect(await searchByMeaning(db, embedder(), 'deploy', 3, { extensionPath: missing })).toEqual([])
    expect(server.embeddingRequests()).toHaveLength(0)
    expect(searchSessions(db, 'deploy').sessions).toHaveLength(1)
  })

  it('off means no work: no table, no request', async () => {
    conversation('a', 'hello there')
    expect(semanticStatus(db, null)).toEqual({ state: 'off' })
    expect(await searchByMeaning(db, null, 'hello', 3)).toEqual([])
    expect(readIndexState(db)).toBeNull()
    expect(server.requests).toHaveLength(0)
  })

  it('a state.db holding vectors still opens without the extension', async () => {
    conversation('a', 'hello there')
    await fillSemanticIndex(db, embedder())
    db.close()
    db = openStateDb(join(dir, 'state.db'))
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(searchSessions(db, 'hello').sessions).toHaveLength(1)
    store = new SessionStore(db)
    store.delete('a')
    expect(db.prepare('SELECT count(*) FROM semantic_stale').pluck().get()).toBe(1)
  })
})

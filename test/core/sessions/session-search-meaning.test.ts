import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { EmbeddingClient } from '../../../electron/core/provider/embeddings'
import { SessionStore } from '../../../electron/core/sessions'
import { fillSemanticIndex } from '../../../electron/core/sessions/semantic-fill'
import { createSessionSearchTool } from '../../../electron/core/sessions/session-search-tool'
import { startScriptedServer, type ScriptedServer } from '../../scripted-provider'

let dir: string
let db: StateDb
let server: ScriptedServer

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-search-meaning-'))
  db = openStateDb(join(dir, 'state.db'))
  server = await startScriptedServer({ embeddings: { dimensions: 48 } })
})

afterEach(async () => {
  await server.close()
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

const embedder = () => new EmbeddingClient({ preset: 'ollama', baseURL: server.url, model: 'embed-a', apiKey: null, requestTimeoutMs: 5000, maxRetries: 0, dimensions: 0 })

async function search(query: string, model: EmbeddingClient | null) {
  const tool = createSessionSearchTool(db, () => null, undefined, () => model)
  return (await tool.run({ query, limit: 5 }, {} as never)) as { success: boolean; sessions: Array<{ session_id: string; found_by?: string }> }
}

describe('session_search with search by meaning on', () => {
  it('also returns conversations found only by meaning, and says so; keyword hits say nothing extra', async () => {
    const store = new SessionStore(db)
    store.create({ id: 'exact' })
    store.appendMany('exact', [{ role: 'user', content: 'the fly deploy of the blog failed with a timeout' }])
    store.create({ id: 'related' })
    store.appendMany('related', [{ role: 'user', content: 'my site went down after I pushed it' }])
    expect((await fillSemanticIndex(db, embedder())).status).toBe('done')

    const withMeaning = await search('fly deploy', embedder())
    const foundBy = Object.fromEntries(withMeaning.sessions.map((s) => [s.session_id, s.found_by]))
    expect(foundBy).toEqual({ exact: 'words and meaning', related: 'meaning only (not among the keyword matches)' })

    const keywordOnly = await search('fly deploy', null)
    expect(keywordOnly.sessions.map((s) => [s.session_id, s.found_by])).toEqual([['exact', undefined]])
  })

  it('a provider error costs only the meaning part: the keyword hits still come back', async () => {
    const store = new SessionStore(db)
    store.create({ id: 'exact' })
    store.appendMany('exact', [{ role: 'user', content: 'the fly deploy of the blog failed with a timeout' }])
    await fillSemanticIndex(db, embedder())
    server.failEmbeddings({ status: 500 })
    const result = await search('fly deploy', embedder())
    expect(result.success).toBe(true)
    expect(result.sessions.map((s) => s.session_id)).toEqual(['exact'])
  })
})

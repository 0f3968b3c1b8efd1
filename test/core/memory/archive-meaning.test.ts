import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { EMBED_PER_SEARCH } from '../../../electron/core/memory/archive-meaning'
import { EmbeddingClient } from '../../../electron/core/provider/embeddings'
import { startScriptedServer, type ScriptedServer } from '../../scripted-provider'

let home: string
let core: CairnCore
let server: ScriptedServer

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-archive-meaning-'))
  core = await CairnCore.open({ home })
  // The scripted embeddings read "automobile" and "car" as one concept: a meaning no word search shares.
  server = await startScriptedServer({ embeddings: { concepts: { automobile: 'car', vehicle: 'car', fix: 'repair', mechanic: 'repair' } } })
})
afterEach(async () => {
  await server.close()
  await core.close()
  rmSync(home, { recursive: true, force: true })
})

function embedder(model = 'embed-small'): EmbeddingClient {
  return new EmbeddingClient({ preset: 'custom', baseURL: server.url, model, apiKey: null, requestTimeoutMs: 5000, maxRetries: 0, dimensions: 0 })
}

describe('archive search by meaning', () => {
  it('finds an entry by meaning that shares no word with the query, embedding entries lazily once per model', async () => {
    core.archive.add({ target: 'user', text: 'Their car goes to the repair shop on Rue Victor every spring' })
    core.archive.add({ target: 'user', text: 'Plays the cello on Sundays' })
    core.archive.add({ target: 'memory', text: 'The NAS is called vault' })
    expect(core.archive.search('automobile mechanic')).toEqual([])

    const hits = await core.archive.searchByMeaning('automobile mechanic', embedder())
    expect(hits[0]).toMatchObject({ text: 'Their car goes to the repair shop on Rue Victor every spring', source: 'added' })
    expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((a, b) => b - a))
    const firstRequests = server.embeddingRequests().length
    // The entries have their vectors now: a second search embeds only the query.
    await core.archive.searchByMeaning('vehicle fix', embedder())
    expect(server.embeddingRequests().length).toBe(firstRequests + 1)
    // Another model's vectors are its own: entries are embedded again for it.
    await core.archive.searchByMeaning('vehicle fix', embedder('embed-large'))
    expect(server.embeddingRequests().length).toBe(firstRequests + 3)
    expect(EMBED_PER_SEARCH).toBeGreaterThan(0)
  })

  it('keeps to the project and leaves hidden entries out, as word search does', async () => {
    const hidden = core.archive.add({ target: 'user', text: 'Sold the old car to a mechanic' })
    core.archive.add({ target: 'memory', text: 'The shop fleet car needs repair', projectKey: 'shop-0123456789ab' })
    if (hidden.kind !== 'added') throw new Error('expected an add')
    core.archive.setHidden(hidden.entry.id, true)
    expect(await core.archive.searchByMeaning('automobile', embedder(), { projectKey: null })).toEqual([])
    expect((await core.archive.searchByMeaning('automobile', embedder(), { projectKey: 'shop-0123456789ab' })).map((hit) => hit.text)).toEqual(['The shop fleet car needs repair'])
  })
})

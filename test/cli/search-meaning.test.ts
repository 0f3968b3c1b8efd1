import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { searchCommand } from '../../electron/cli/commands/search'
import { reindexMeaning } from '../../electron/cli/commands/search-meaning'
import type { CliContext } from '../../electron/cli/commands/types'
import { CairnCore } from '../../electron/core/cairn'
import { readIndexState } from '../../electron/core/sessions/semantic-index'
import { startScriptedServer, type ScriptedServer } from '../scripted-provider'

let home: string
let core: CairnCore
let server: ScriptedServer
let out: string
let err: string

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-reindex-'))
  server = await startScriptedServer()
  core = await CairnCore.open({ home })
  await core.config.update({ provider: { preset: 'custom', baseURL: server.url, model: 'scripted', maxRetries: 0 } })
  out = ''
  err = ''
})

afterEach(async () => {
  await core.close()
  await server.close()
  rmSync(home, { recursive: true, force: true })
})

function ctx(): CliContext {
  return { io: { out: (t) => void (out += t), err: (t) => void (err += t), isTTY: false }, env: { CAIRN_API_KEY: 'sk-cli' }, processEnv: { CAIRN_API_KEY: 'sk-cli' }, home, core: async () => core }
}

function conversation(id: string, ...messages: string[]): void {
  core.sessions.create({ id })
  core.sessions.appendMany(id, messages.map((content, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content })))
}

describe('cairn search --reindex-meaning', () => {
  it('says how to turn it on when no embedding model is set, and sends nothing', async () => {
    conversation('a', 'hello')
    expect(await reindexMeaning(ctx(), core)).toBe(1)
    expect(err).toContain('Search by meaning is off. Set search.embeddingModel in config.json')
    expect(server.requests).toHaveLength(0)
  })

  it('embeds every message with progress, and a second run has nothing left to do', async () => {
    await core.config.update({ search: { embeddingModel: 'embed-a' } })
    for (let i = 0; i < 3; i++) conversation(`s${i}`, `question ${i}`, `answer ${i}`)
    expect(await reindexMeaning(ctx(), core)).toBe(0)
    expect(err).toContain('Embedding messages with embed-a at')
    expect(err).toContain('6 of 6 messages\n')
    expect(out).toBe('Done: embedded 6 messages. 6 of 6 messages are searchable by meaning.\n')
    expect(server.embeddingRequests()[0].headers.authorization).toBe('Bearer sk-cli')

    out = ''
    expect(await reindexMeaning(ctx(), core)).toBe(0)
    expect(out).toBe('Done: embedded 0 messages. 6 of 6 messages are searchable by meaning.\n')
    expect(server.embeddingRequests()).toHaveLength(1)
  })

  it('a provider error says what happened and how to resume, and keeps what was embedded', async () => {
    await core.config.update({ search: { embeddingModel: 'embed-a' } })
    conversation('a', 'question', 'answer')
    server.failEmbeddings({ status: 401 })
    expect(await reindexMeaning(ctx(), core)).toBe(1)
    expect(out).toMatch(/^Stopped: .* rejected the API key \(401.*Embedded 0 messages before that\. 0 of 2 messages are searchable by meaning\. Run it again to resume\.\n$/)
    expect(readIndexState(core.db)).toMatchObject({ embedded: 0 })
    expect(await reindexMeaning(ctx(), core)).toBe(0)
    expect(readIndexState(core.db)).toMatchObject({ embedded: 2 })
  })
})

describe('cairn search with search by meaning on', () => {
  it('marks the conversations found only by meaning, and not the ones holding the words', async () => {
    await core.config.update({ search: { embeddingModel: 'embed-a' } })
    conversation('birds', 'what bird is on the feeder?', 'A kingfisher: the blue back gives it away.')
    conversation('bread', 'my sourdough starter is sluggish', 'Feed it rye flour twice a day.')
    expect(await reindexMeaning(ctx(), core)).toBe(0)
    out = ''
    expect(await searchCommand.run(ctx(), ['kingfisher'])).toBe(0)
    const lines = out.split('\n').filter((line) => /^\d+\. /.test(line))
    expect(lines).toHaveLength(2)
    expect(lines.find((line) => line.includes('session birds'))).not.toContain('by meaning')
    expect(lines.find((line) => line.includes('session bread'))).toContain('(found by meaning, not by your words)')
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { formatSkillHint, relevantSkills } from '../../../electron/core/agent/skill-hints'
import { MeaningSkillHinter } from '../../../electron/core/agent/skill-hints-meaning'
import type { IndexSkill } from '../../../electron/core/agent/skills-index'
import { EmbeddingClient, type EmbeddingSettings } from '../../../electron/core/provider/embeddings'
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from '../../scripted-provider'

const deploy: IndexSkill = { name: 'deploy-service', category: 'devops', description: 'Use when deploying a service to the cluster.' }
const backup: IndexSkill = { name: 'backup-db', category: 'devops', description: 'Use when backing up the Postgres database before a migration.' }
const report: IndexSkill = { name: 'write-report', category: 'docs', description: 'Use when writing the weekly status report for the team.' }
const catalogue = [deploy, backup, report]
const names = (skills: IndexSkill[]) => skills.map((skill) => skill.name)

describe('hints by words', () => {
  it('hints a skill for a paraphrase that keeps only the word it is named after (stemmed: deploy / deploying)', () => {
    expect(names(relevantSkills('Can you deploy the web app to staging?', catalogue))).toEqual(['deploy-service'])
    expect(names(relevantSkills('We are deploying again today', catalogue))).toEqual(['deploy-service'])
  })

  it('does not hint on one general word, nor on a word only the description has', () => {
    expect(relevantSkills('write a poem about autumn', catalogue)).toEqual([]) // "write" names write-report, but says nothing alone
    expect(relevantSkills('what is a cluster anyway?', catalogue)).toEqual([]) // one description word is not enough
  })

  it('still hints on two shared words, as before', () => {
    expect(names(relevantSkills('the weekly status numbers', catalogue))).toEqual(['write-report'])
  })

  it('tells the model firmly to load the skill before starting, naming the call', () => {
    const hint = formatSkillHint([deploy])
    expect(hint).toContain('[Cairn: skills that may help with this: deploy-service (Use when deploying a service to the cluster.)')
    expect(hint).toContain('Before you start, load the one for this task with skill_view (e.g. skill_view(name="deploy-service")) and follow it.')
    expect(hint).not.toMatch(/if it fits/)
  })
})

describe('hints by meaning (search.embeddingModel set)', () => {
  let server: ScriptedServer | null = null
  afterEach(async () => {
    await server?.close()
    server = null
  })

  /** An embedding model that knows ship ≈ deploy, app ≈ service and staging ≈ cluster (the scripted server's concepts). */
  async function embedderWith(embeddings: ScriptedServerOptions['embeddings'] = {}): Promise<EmbeddingClient> {
    server = await startScriptedServer({ embeddings: { concepts: { ship: 'deploy', deploying: 'deploy', app: 'service', staging: 'cluster' }, ...embeddings } })
    const settings: EmbeddingSettings = { baseURL: server.url, model: 'embed-scripted', apiKey: '', maxRetries: 0, requestTimeoutMs: 5000, dimensions: 0 } as EmbeddingSettings
    return new EmbeddingClient(settings)
  }

  it('hints a paraphrase that shares no word with the skill, and embeds each description once', async () => {
    const embedder = await embedderWith()
    const message = 'ship the web app to staging'
    expect(relevantSkills(message, catalogue)).toEqual([]) // no shared word: the lexical rule has nothing
    const hinter = new MeaningSkillHinter(() => embedder)
    expect(names(await hinter.hint(message, catalogue))).toEqual(['deploy-service'])
    expect(server!.embeddingRequests()).toHaveLength(1)
    await hinter.hint('ship it to staging again', catalogue)
    const inputs = server!.embeddingRequests().map((request) => (request.body as { input: string[] }).input)
    expect(inputs[0]).toHaveLength(1 + catalogue.length)
    expect(inputs[1]).toEqual(['ship it to staging again']) // descriptions came from the cache (by content hash)
  })

  it('falls back to the lexical hints, within its time bound, when the embedder is slow', async () => {
    const embedder = await embedderWith({ delayMs: 3000 })
    const hinter = new MeaningSkillHinter(() => embedder, { timeoutMs: 150 })
    const started = Date.now()
    expect(names(await hinter.hint('Can you deploy the web app to staging?', catalogue))).toEqual(['deploy-service'])
    expect(Date.now() - started).toBeLessThan(1000)
    expect(await hinter.hint('ship the web app to staging', catalogue)).toEqual([]) // paused: no second wait
  })

  it('falls back to the lexical hints when the embedder fails, and leaves it alone for a while', async () => {
    const embedder = await embedderWith()
    server!.failEmbeddings({ status: 500 })
    let now = 1_000
    const hinter = new MeaningSkillHinter(() => embedder, { now: () => now, pauseAfterFailureMs: 60_000 })
    expect(await hinter.hint('ship the web app to staging', catalogue)).toEqual([])
    expect(await hinter.hint('ship the web app to staging', catalogue)).toEqual([])
    expect(server!.embeddingRequests()).toHaveLength(1)
    now += 61_000
    expect(names(await hinter.hint('ship the web app to staging', catalogue))).toEqual(['deploy-service'])
  })

  it('gives the lexical hints when no embedding model is set', async () => {
    const hinter = new MeaningSkillHinter(() => null)
    expect(names(await hinter.hint('Can you deploy the web app to staging?', catalogue))).toEqual(['deploy-service'])
  })
})

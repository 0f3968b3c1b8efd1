import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { configSchema } from '../../../shared/config'
import { recallResolvedPerTurn } from '../../../electron/core/agent/turn-notes'
import { projectKeyFor } from '../../../electron/core/memory/project-key'
import { BuiltinMemoryProvider } from '../../../electron/core/recall/builtin-provider'
import { memoryRecallFor, recalledTargets } from '../../../electron/core/recall/create-provider'
import { MemoryRecall } from '../../../electron/core/recall/memory-recall'
import type { RecallHit, RecallQuery } from '../../../electron/core/recall/types'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'
import { TestArchive } from '../../helpers/recall-archive'
import { SpyProvider } from '../../helpers/recall-spy'
import type { RecordedChatRequest } from '../../scripted-provider'

const STAGING = 'Staging deploys go to stage-eu.example.com through the deploy-bot account'
const lastUserText = (request: RecordedChatRequest) => String(request.body.messages.filter((m) => m.role === 'user').at(-1)?.content)
const configWith = (memory: Record<string, unknown>) => configSchema.parse({ memory })
const noKeys = { chat: () => ({}), learning: () => ({}), keys: { apiKeyFor: () => null } } as never

let fx: AgentFixture
let archive: TestArchive
beforeEach(async () => {
  fx = await agentFixture({ server: { fallback: { text: 'Sure.' } } })
  archive = new TestArchive(join(fx.home, 'test-archive.db'))
})
afterEach(async () => {
  archive.close()
  await fx.close()
})

/** The archive as a slow provider would be: every recall past the turn's bound, so turns read the prefetch. */
class SlowArchiveProvider extends BuiltinMemoryProvider {
  override async recall(query: string, options: RecallQuery): Promise<RecallHit[]> {
    await new Promise((resolve) => setTimeout(resolve, 150))
    return super.recall(query, options)
  }
}

describe('a retired recall, and recall resolved per turn', () => {
  it('after shutdown, forTurn, afterTurn and its prefetch reach the provider no more and nothing is noted as sent', async () => {
    const spy = new SpyProvider()
    spy.hits = [{ provider: 'mem0', id: 'm-1', text: 'Prefers tea over coffee', score: 0.9 }]
    const recall = new MemoryRecall(spy)
    await recall.shutdown()
    expect(await recall.forTurn('Should I drink tea or coffee?', { sessionId: 's1' })).toBeNull()
    recall.afterTurn({ sessionId: 's1', userText: 'Tea or coffee?', answer: 'Tea.' })
    await recall.drain()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(spy.calls).toBe(0)
    expect(recall.status().sent).toEqual([])
  })

  it('an open conversation follows the provider active at each turn: the old one is asked and sent nothing after the switch', async () => {
    const before = new SpyProvider()
    const after = new SpyProvider()
    let current: MemoryRecall | null = new MemoryRecall(before)
    const { session } = fx.open({ recall: recallResolvedPerTurn(() => current) })
    await session.runTurn('first message about the staging deploys').done
    await current.drain()
    expect(before.synced).toHaveLength(1)
    const callsBefore = before.calls
    void current.shutdown()
    current = new MemoryRecall(after)
    await session.runTurn('second message about the staging deploys').done
    await current.drain()
    expect(before.calls).toBe(callsBefore)
    expect(after.recalls.map((r) => r.query)).toEqual(['second message about the staging deploys', 'second message about the staging deploys'])
    expect(after.synced.map((turn) => turn.userText)).toEqual(['second message about the staging deploys'])
    current = null // the memory switches turned off: nothing asked, nothing sent
    await session.runTurn('third message about the staging deploys').done
    expect(after.recalls).toHaveLength(2)
  })
})

describe('recall and the memory switches', () => {
  it('memory off recalls no memory or project entries, the user profile off no user entries; both off builds no recall', async () => {
    archive.add(STAGING, { target: 'memory' })
    archive.add('The user deploys staging through the deploy-bot account on Fridays', { target: 'user' })
    const message = 'How do staging deploys work through the deploy-bot account?'
    const ids = async (memory: Record<string, unknown>) =>
      (await new BuiltinMemoryProvider(archive, recalledTargets(configWith(memory))).recall(message, { sessionId: 's', projectKey: null })).map((hit) => hit.id)
    expect((await ids({})).sort()).toEqual(['1', '2'])
    expect(await ids({ enabled: false })).toEqual(['2'])
    expect(await ids({ userProfileEnabled: false })).toEqual(['1'])
    expect(await ids({ enabled: false, userProfileEnabled: false })).toEqual([])
    const sources = (memory: Record<string, unknown>) => ({ config: configWith(memory), access: noKeys, dataHome: fx.home, archive })
    expect(memoryRecallFor(sources({ enabled: false, userProfileEnabled: false }))).toBeNull()
    expect(memoryRecallFor(sources({ provider: 'honcho', enabled: false, userProfileEnabled: false }))).toBeNull()
    expect(memoryRecallFor(sources({ enabled: false, userProfileEnabled: false }), { for: 'search' })).not.toBeNull()
  })
})

describe('the built-in provider scoped to the project in the archive search', () => {
  it('other projects’ entries never push this project’s match out of the candidates', async () => {
    const here = projectKeyFor(fx.workspace)
    for (let index = 0; index < 30; index++) {
      fx.core.archive.add({ target: 'project', projectKey: `other-${index}`, text: `Staging deploys deploy-bot account stage-${index}` })
    }
    const mine = fx.core.archive.add({ target: 'project', projectKey: here, text: `In this repository the staging deploys run from CI with the deploy-bot account and a long approval chain before release` })
    const provider = new BuiltinMemoryProvider(fx.core.archive)
    const hits = await provider.recall('How do staging deploys work with the deploy-bot account?', { sessionId: 's', projectKey: here })
    expect(hits.map((hit) => hit.text)).toEqual([(mine as { entry: { text: string } }).entry.text])
  })
})

describe('a prefetch offered after a timed-out recall', () => {
  it('is offered only when it matches the new message strongly', async () => {
    const spy = new SpyProvider()
    spy.recallDelayMs = 150
    spy.hits = [{ provider: 'mem0', id: 'm-1', text: 'Prefers tea over coffee', score: 0.9 }]
    const { session } = fx.open({ recall: new MemoryRecall(spy, { boundMs: 30 }) })
    await session.runTurn('Should I drink tea or coffee this afternoon?').done
    await new Promise((resolve) => setTimeout(resolve, 250))
    await session.runTurn('Which train leaves for Lisbon tomorrow?').done
    await new Promise((resolve) => setTimeout(resolve, 250))
    await session.runTurn('Tea or coffee tomorrow morning then?').done
    const sent = fx.server.chatRequests().map(lastUserText)
    expect(sent[1]).not.toContain('<memory-context>')
    expect(sent[2]).toContain('- [mem0 #m-1] Prefers tea over coffee')
  })

  it('leaves out an entry hidden between the two turns', async () => {
    const id = archive.add(STAGING)
    const { session } = fx.open({ recall: new MemoryRecall(new SlowArchiveProvider(archive), { boundMs: 30 }) })
    await session.runTurn('How do staging deploys work with the deploy-bot account?').done
    await new Promise((resolve) => setTimeout(resolve, 300))
    archive.setHidden(id, true)
    await session.runTurn('And staging deploys through the deploy-bot account on weekends?').done
    const sent = fx.server.chatRequests().map(lastUserText)
    expect(sent[1]).not.toContain('<memory-context>')
    expect(archive.recalled).toEqual([])
  })
})

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HonchoProvider } from '../../../electron/core/recall/honcho-provider'
import { MemoryRecall } from '../../../electron/core/recall/memory-recall'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'
import { startHonchoServer, type HonchoTestServer } from '../../helpers/honcho-server'

let fx: AgentFixture
let honcho: HonchoTestServer
beforeEach(async () => {
  fx = await agentFixture({ server: { fallback: { text: 'Noted.' } } })
  honcho = await startHonchoServer({ apiKey: 'hk-test' })
})
afterEach(async () => {
  await fx.close()
  await honcho.close()
})

const provider = (apiKey = 'hk-test') => new HonchoProvider({ apiKey, baseURL: honcho.url, workspaceId: 'cairn', peerId: 'user' })

describe('Honcho, through its SDK against a server speaking its REST contract', () => {
  it('syncs each finished turn as two messages of a session, and recalls the user’s words from another conversation', async () => {
    const recall = new MemoryRecall(provider())
    const first = fx.open({ recall }).session
    await first.runTurn('My grandmother’s lasagne recipe uses fresh basil and ricotta').done
    await recall.drain()
    expect(honcho.messages.map((m) => [m.peer_id, m.session_id, m.content])).toEqual([
      ['user', first.id, 'My grandmother’s lasagne recipe uses fresh basil and ricotta'],
      ['cairn', first.id, 'Noted.']
    ])
    expect(honcho.requests.every((request) => request.authorization === 'Bearer hk-test')).toBe(true)

    const second = fx.open({ recall }).session
    await second.runTurn('What goes into the lasagne recipe again? Basil?').done
    const sent = String(fx.server.chatRequests().at(-1)!.body.messages.at(-1)?.content)
    expect(sent).toContain('- [honcho #msg_1] My grandmother’s lasagne recipe uses fresh basil and ricotta')
    expect(sent).not.toContain('Noted.') // Cairn's own answers are not recalled as facts

    // A message sharing one word recalls nothing.
    await second.runTurn('Is fresh pasta hard to make?').done
    expect(String(fx.server.chatRequests().at(-1)!.body.messages.at(-1)?.content)).not.toContain('<memory-context>')
    expect(recall.status()).toMatchObject({ provider: 'honcho', state: 'ready' })
    expect(recall.status().sent[0]).toMatchObject({ kind: 'turn' })
  })

  it('a refused key or a failing server is reported and retried in the background; the turn is never held up', async () => {
    honcho.failNextWrites(1)
    const recall = new MemoryRecall(provider(), { retry: { attempts: 3, baseDelayMs: 5 } })
    const { session } = fx.open({ recall })
    expect((await session.runTurn('Remember the lasagne needs ricotta').done).reason).toBe('completed')
    await recall.drain()
    expect(honcho.messages).toHaveLength(2) // the second try went through
    expect(recall.status().state).toBe('ready')

    const refused = new MemoryRecall(provider('wrong-key'), { retry: { attempts: 2, baseDelayMs: 5 } })
    const other = fx.open({ recall: refused }).session
    expect((await other.runTurn('And the basil?').done).reason).toBe('completed')
    await refused.drain()
    expect(refused.status()).toMatchObject({ state: 'failing', lastError: { code: 'unauthorized' } })
  })

  it('tags each session and its messages with the workspace project, and recalls from the same project’s sessions or those of none', async () => {
    const honchoProvider = provider()
    const recall = new MemoryRecall(honchoProvider)
    recall.afterTurn({ sessionId: 'in-a', userText: 'The lasagne recipe for repository A uses basil and ricotta', answer: 'Noted.' }, { projectKey: 'repo-a' })
    await recall.drain()
    expect(honcho.sessionMetadata.get('in-a')).toEqual({ cairnProject: 'repo-a' })
    expect(honcho.messages.map((m) => m.metadata)).toEqual([{ cairnProject: 'repo-a' }, { cairnProject: 'repo-a' }])
    const asked = 'What goes into the lasagne recipe? Basil and ricotta?'
    expect(await honchoProvider.recall(asked, { sessionId: 'in-b', projectKey: 'repo-b' })).toEqual([])
    expect((await honchoProvider.recall(asked, { sessionId: 'in-a2', projectKey: 'repo-a' })).map((hit) => hit.id)).toEqual(['msg_1'])
    // A message of no project (synced before projects, or from none) stays global.
    honcho.messages[0].metadata = {}
    expect((await honchoProvider.recall(asked, { sessionId: 'in-b', projectKey: 'repo-b' })).map((hit) => hit.id)).toEqual(['msg_1'])
  })
})

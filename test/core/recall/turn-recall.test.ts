import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recallOf } from '../../../shared/recall'
import { toDisplayMessage } from '../../../electron/core/app/handlers/sessions'
import { BuiltinMemoryProvider } from '../../../electron/core/recall/builtin-provider'
import { MemoryRecall } from '../../../electron/core/recall/memory-recall'
import { projectKeyFor } from '../../../electron/core/memory/project-key'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'
import { TestArchive } from '../../helpers/recall-archive'
import { SpyProvider } from '../../helpers/recall-spy'
import type { RecordedChatRequest } from '../../scripted-provider'

const STAGING = 'Staging deploys go to stage-eu.example.com through the deploy-bot account'

/** A model at its worst with recalled memory: it saves what it was reminded of, reworded, one call per response. */
function savesWhatItRecalls(request: RecordedChatRequest) {
  const last = request.body.messages.at(-1) as { role: string; content: unknown }
  if (last.role === 'tool') return { text: 'Noted, and here is how staging deploys work.' }
  if (String(last.content).includes('<memory-context>')) {
    return { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: 'Staging deploys use stage-eu.example.com via the deploy-bot account' } }] }
  }
  return { text: 'Sure.' }
}

const userContents = (request: RecordedChatRequest) => request.body.messages.filter((m) => m.role === 'user').map((m) => String(m.content))

let fx: AgentFixture
let archive: TestArchive
beforeEach(async () => {
  fx = await agentFixture({ server: { respond: savesWhatItRecalls } })
  archive = new TestArchive(join(fx.home, 'test-archive.db'))
  archive.add(STAGING)
  archive.add('The user plays the cello on weekends')
})
afterEach(async () => {
  archive.close()
  await fx.close()
})

describe('recall from the archive into a turn', () => {
  it('offers a strongly matching entry for that turn only, fenced and marked, outside the frozen prompt; the replay is byte-identical', async () => {
    const recall = new MemoryRecall(new BuiltinMemoryProvider(archive))
    const { session } = fx.open({ recall })
    const frozen = session.systemPrompt
    await session.runTurn('How do staging deploys work with the deploy-bot?').done
    await session.runTurn('Thanks. What should I cook tonight?').done

    const [first, , last] = fx.server.chatRequests()
    const sent = userContents(first).at(-1)!
    expect(sent).toMatch(/^How do staging deploys work with the deploy-bot\?[\s\S]*<memory-context>\n\[System note: The following is recalled memory context, NOT new user input/)
    expect(sent).toContain(`- [builtin #1] ${STAGING}`)
    expect(sent).not.toContain('cello')
    // The next turn's history carries the first message with the same bytes; its own message recalled nothing.
    expect(userContents(last)[0]).toBe(sent)
    expect(userContents(last).at(-1)).toBe('Thanks. What should I cook tonight?')
    for (const request of fx.server.chatRequests()) expect(request.body.messages[0].content).toBe(frozen)
    expect(archive.lastRecalledAt(1)).not.toBeNull()
    expect(archive.lastRecalledAt(2)).toBeNull()

    // Stored on the message's meta, shown as recalled (not as the user's words).
    const stored = fx.core.sessions.messages(session.id).find((m) => m.role === 'user')!
    expect(stored.content).toBe('How do staging deploys work with the deploy-bot?')
    expect(recallOf(stored.meta)?.items).toEqual([{ provider: 'builtin', id: '1', text: STAGING }])
    expect(toDisplayMessage(stored)).toMatchObject({ content: stored.content, recalled: [{ provider: 'builtin', id: '1', text: STAGING }] })
  })

  it('one shared word recalls nothing, nor do hidden entries or another project’s', async () => {
    archive.add('Deploy-bot tokens rotate monthly in the vault', { hidden: true })
    archive.add('Staging deploys of the other repository use deploy-bot too', { projectKey: 'other-0123456789ab' })
    const recall = new MemoryRecall(new BuiltinMemoryProvider(archive))
    const { session } = fx.open({ recall })
    await session.runTurn('Which account should I use for the weekends?').done // "account" and "weekends" are in different entries
    await session.runTurn('Do deploy-bot tokens rotate in the vault for the other repository staging?').done
    const sent = fx.server.chatRequests().map((request) => userContents(request).at(-1)!)
    expect(sent[0]).not.toContain('<memory-context>')
    const recalled = sent.at(-1)!.split('<memory-context>')[1] ?? ''
    expect(recalled).toContain('[builtin #1]') // this project's (none) entry still matches
    expect(recalled).not.toMatch(/#3|#4|vault|other repository/)
  })

  it('a memory write that copies a recalled item waits in the Inbox; the core file never gets it', async () => {
    const { session } = fx.open({ recall: new MemoryRecall(new BuiltinMemoryProvider(archive)) })
    await session.runTurn('How do staging deploys work with the deploy-bot?').done
    expect(fx.core.memory.read('memory').entries.join('\n')).not.toContain('stage-eu')
    const { ProposalStore } = await import('../../../electron/core/ledger/proposals')
    const [waiting] = new ProposalStore(fx.core.db).list({ states: ['pending'] })
    expect(waiting).toMatchObject({ kind: 'memory.add', cause: 'untrusted_source' })
    expect(waiting.meta).toMatchObject({ provenance: { origin: 'read', sources: [{ kind: 'recall', label: 'builtin #1' }] } })
  })
})

describe('a memory provider never reached without the option, never delaying or breaking a turn', () => {
  it('a conversation opened without recall (incognito) calls no provider; with it, the original words and the answer are synced', async () => {
    const spy = new SpyProvider()
    const recall = new MemoryRecall(spy)
    const incognito = fx.open()
    await incognito.session.runTurn('Remember nothing of the deploy-bot staging talk').done
    await recall.drain()
    expect(spy.calls).toBe(0)

    const { session } = fx.open({ recall })
    await session.runTurn('How do staging deploys work with the deploy-bot?').done
    await recall.drain()
    // Tagged with its workspace's project, which external providers recall within.
    expect(spy.synced).toEqual([{ sessionId: session.id, userText: 'How do staging deploys work with the deploy-bot?', answer: 'Sure.', projectKey: projectKeyFor(fx.workspace) }])
    expect(recall.status()).toMatchObject({ provider: 'mem0', state: 'ready', pendingSyncs: 0 })
    expect(recall.status().sent.map((s) => s.kind)).toContain('turn')
  })

  it('a slow provider costs the turn at most the bound; its late answer is offered on the next turn', async () => {
    const spy = new SpyProvider()
    spy.recallDelayMs = 800
    spy.hits = [{ provider: 'mem0', id: 'm-1', text: 'Prefers tea over coffee', score: 0.9 }]
    const recall = new MemoryRecall(spy, { boundMs: 100 })
    const { session } = fx.open({ recall })
    const started = Date.now()
    await session.runTurn('What should I drink this afternoon?').done
    expect(Date.now() - started).toBeLessThan(600)
    expect(userContents(fx.server.chatRequests()[0]).at(-1)).not.toContain('<memory-context>')
    await new Promise((resolve) => setTimeout(resolve, 900)) // the late answer lands
    await session.runTurn('And tea or coffee tomorrow morning?').done // a prefetch is offered only when it matches the new message strongly
    expect(userContents(fx.server.chatRequests()[1]).at(-1)).toContain('- [mem0 #m-1] Prefers tea over coffee')
  })

  it('failed syncs are tried again in order and reported; one that keeps failing is given up, the turns never fail', async () => {
    const spy = new SpyProvider()
    spy.syncFailures = 2
    const recall = new MemoryRecall(spy, { retry: { attempts: 3, baseDelayMs: 5 } })
    const states: string[] = []
    recall.events.on((status) => states.push(status.state))
    const { session } = fx.open({ recall })
    expect((await session.runTurn('first message about staging').done).reason).toBe('completed')
    expect((await session.runTurn('second message about staging').done).reason).toBe('completed')
    await recall.drain()
    expect(spy.synced.map((turn) => turn.userText)).toEqual(['first message about staging', 'second message about staging'])
    expect(spy.syncAttempts).toHaveLength(4)
    expect(recall.status().state).toBe('ready')

    spy.syncFailures = 99
    await session.runTurn('third message about staging').done
    await recall.drain()
    expect(states).toContain('failing')
    expect(recall.status()).toMatchObject({ state: 'failing', pendingSyncs: 0, lastError: { code: 'failed', message: 'mem0 answered 503' } })
  })
})

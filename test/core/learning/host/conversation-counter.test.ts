import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ReviewEvent } from '../../../../shared/review-protocol'
import { createAgentSession } from '../../../../electron/core/agent/create-agent'
import { LearningLoop } from '../../../../electron/core/learning/host/learning-loop'
import { MEMORY_TURNS_KEY } from '../../../../electron/core/learning/host/learning-state'
import { readProgress } from '../../../../electron/core/learning/host/session-progress'
import type { ReviewHost } from '../../../../electron/core/learning/host/review-host'
import { isReviewRequest, reviewFixture, reviewUserText, type ReviewFixture } from '../../../helpers/review-fixture'
import type { RecordedChatRequest, ScriptedReply } from '../../../scripted-provider'

/**
 * The memory counter counts user turns across conversations (most desktop chats are shorter than
 * the interval), and the review it starts reads every conversation whose turns it counted.
 */

const FACTS = ['The staging database is named bluefin.', 'Our office is in Lisbon.', 'The team ships releases on Thursdays.']

let fx: ReviewFixture
let workspace: string
let host: ReviewHost
let events: ReviewEvent[]
let loop: LearningLoop
const review: ScriptedReply[] = []

beforeEach(async () => {
  review.length = 0
  fx = await reviewFixture({
    config: { learning: { memoryNudgeInterval: 3 } },
    server: { respond: (request: RecordedChatRequest) => (isReviewRequest(request) ? review.shift() : { text: 'Noted.' }) }
  })
  workspace = mkdtempSync(join(tmpdir(), 'cairn-counter-ws-'))
  ;({ host, events } = fx.host())
  loop = new LearningLoop(fx.core, host)
})
afterEach(async () => {
  await fx.close()
  rmSync(workspace, { recursive: true, force: true })
})

async function oneTurnConversation(text: string): Promise<string> {
  const session = createAgentSession({ core: fx.core, env: { CAIRN_API_KEY: fx.apiKey }, workspace, hooks: loop.hooks })
  const turn = await session.runTurn(text).done
  expect(turn.reason).toBe('completed')
  return session.id
}

const queued = () => events.filter((e): e is Extract<ReviewEvent, { type: 'review_queued' }> => e.type === 'review_queued')

describe('the memory counter across conversations', () => {
  it('three one-turn conversations stating facts start one memory review that reads all three', async () => {
    review.push(
      {
        toolCalls: [
          {
            name: 'memory',
            arguments: { action: 'add', target: 'memory', content: 'Staging database: bluefin. Office: Lisbon. Releases ship on Thursdays.' }
          }
        ]
      },
      { text: 'Saved the three facts.' }
    )
    const first = await oneTurnConversation(FACTS[0])
    const second = await oneTurnConversation(FACTS[1])
    expect(queued()).toEqual([])
    expect(loop.state.count(MEMORY_TURNS_KEY)).toBe(2)
    const touched = [first, second].map((id) => fx.core.sessions.get(id)!.updatedAt)
    const third = await oneTurnConversation(FACTS[2])

    expect(queued()).toHaveLength(1)
    expect(queued()[0]).toMatchObject({ sessionId: third, kinds: ['memory'], reasons: [{ code: 'memory_interval', count: 3 }] })
    expect(loop.state.count(MEMORY_TURNS_KEY)).toBe(0)
    await host.whenIdle()
    const text = reviewUserText(fx.server.chatRequests().find(isReviewRequest)!)
    for (const fact of FACTS) expect(text).toContain(fact)
    expect(text).toMatch(/Other recent conversations with this user that no review has seen yet/)
    expect(readFileSync(join(fx.home, 'memories', 'MEMORY.md'), 'utf8')).toContain('bluefin')
    // The earlier two were read by that review: their marks moved on, so no later review reads them whole again.
    for (const id of [first, second, third]) expect(readProgress(fx.core.sessions.get(id)!).reviewedThrough).toBeGreaterThan(0)
    // Marking them is bookkeeping, not activity: the conversations list keeps its order.
    expect([first, second].map((id) => fx.core.sessions.get(id)!.updatedAt)).toEqual(touched)
    expect(fx.core.sessions.list().map((session) => session.id)).toEqual([third, second, first])
  })

  it('a later trigger merging into a queued review keeps what the queued one was to read, whole', async () => {
    host.pause() // reviews wait in the queue, as behind a long-running one
    const other = await oneTurnConversation('Our office is in Lisbon.')
    const session = createAgentSession({ core: fx.core, env: { CAIRN_API_KEY: fx.apiKey }, workspace, hooks: loop.hooks })
    await session.runTurn('I prefer tabs over spaces.').done
    await session.runTurn('I prefer dark themes as well.').done
    expect(new Set(queued().map((e) => e.reviewId)).size).toBe(1) // the second merged into the first
    review.push({ text: 'Nothing to save.' })
    host.resume()
    await host.whenIdle()
    const requests = fx.server.chatRequests().filter(isReviewRequest)
    expect(requests).toHaveLength(1)
    const text = reviewUserText(requests[0])
    const mark = /This transcript's mark is ⟨([0-9a-f]+)⟩/.exec(text)![1]
    for (const said of ['Our office is in Lisbon.', 'I prefer tabs over spaces.', 'I prefer dark themes as well.']) expect(text).toContain(`[[user ⟨${mark}⟩]]\n${said}`)
    expect(readProgress(fx.core.sessions.get(other)!).reviewedThrough).toBeGreaterThan(0)
  })

  it('a memory write by the model, and a review that ran for memory, start the count again', async () => {
    await oneTurnConversation('Hello there.')
    expect(loop.state.count(MEMORY_TURNS_KEY)).toBe(1)
    // The chat model saves memory itself in this turn: the counter goes back to 0 and no review starts.
    fx.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Goes by Sam.' } }] },
      { text: 'Nice to meet you, Sam.' }
    )
    await oneTurnConversation('Call me Sam from here on.') // a preference too, but memory was just saved
    expect(loop.state.count(MEMORY_TURNS_KEY)).toBe(0)
    expect(queued()).toEqual([])
    await oneTurnConversation('What time is it in Tokyo?')
    expect(loop.state.count(MEMORY_TURNS_KEY)).toBe(1)
    review.push({ text: 'Nothing to save.' })
    const id = await oneTurnConversation('And in Lima?')
    loop.reviewNow(id)
    expect(loop.state.count(MEMORY_TURNS_KEY)).toBe(0)
    await host.whenIdle()
  })
})

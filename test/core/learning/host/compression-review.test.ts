import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ReviewEvent } from '../../../../shared/review-protocol'
import { CairnCore } from '../../../../electron/core/cairn'
import { LearningLoop } from '../../../../electron/core/learning/host/learning-loop'
import { ReviewHost, reviewHostDepsOf } from '../../../../electron/core/learning/host/review-host'
import { chunkReviewMessages } from '../../../../electron/core/learning/host/review-snapshot'
import type { WorkerHandle } from '../../../../electron/core/learning/host/spawn-worker'
import type { MessageRecord } from '../../../../electron/core/sessions'

let core: CairnCore
beforeEach(async () => {
  core = await CairnCore.open({ home: mkdtempSync(join(tmpdir(), 'cairn-compress-review-')) })
})
afterEach(async () => {
  await core.close()
})

function record(id: number, role: MessageRecord['role'], content: string, extra: Partial<MessageRecord> = {}): MessageRecord {
  return {
    id, sessionId: 's', role, content, toolCalls: null, toolCallId: null, toolName: null, createdAt: id,
    promptTokens: null, completionTokens: null, cachedTokens: null, finishReason: null, compacted: false, meta: null, ...extra
  }
}

/** A long stretch of conversation: 30 exchanges of ~5,000 characters, each with a tool call. */
function longMiddle(): MessageRecord[] {
  const out: MessageRecord[] = []
  let id = 1
  for (let i = 0; i < 30; i++) {
    out.push(record(id++, 'user', `Step ${i}: ${'please check the logs '.repeat(100)}`))
    out.push(record(id++, 'assistant', '', { toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: '{"path":"app.log"}' }] }))
    out.push(record(id++, 'tool', `log ${i} ${'line '.repeat(400)}`, { toolCallId: `c${i}`, toolName: 'read_file' }))
    out.push(record(id++, 'assistant', `Finding ${i}: the cache warms up slowly.`))
  }
  return out
}

/** A worker that never answers: the first review stays running while others queue behind it. */
function silentWorker(): WorkerHandle {
  return { pid: 1, send: () => {}, onMessage: () => {}, onExit: () => {}, kill: () => {} }
}

describe('reviewing what compression condenses', () => {
  it('splits a long middle into chunks that together cover all of it, tool results with their call', () => {
    const middle = longMiddle()
    const chunks = chunkReviewMessages(middle, 60_000)
    expect(chunks.length).toBeGreaterThan(2)
    for (const chunk of chunks) {
      expect(chunk[0].role).not.toBe('tool')
      expect(chunk.reduce((n, m) => n + m.content.length, 0)).toBeLessThanOrEqual(60_000)
    }
    const texts = chunks.flat().map((m) => m.content)
    for (let i = 0; i < 30; i++) expect(texts.some((t) => t.startsWith(`Finding ${i}:`))).toBe(true)
  })

  it('queues every chunk as its own review that later triggers never merge into', async () => {
    const events: ReviewEvent[] = []
    const host = new ReviewHost({
      ...reviewHostDepsOf(core),
      spawn: silentWorker,
      provider: () => ({ preset: 'custom', baseURL: 'http://127.0.0.1:1/v1', model: 'm', apiKey: null, requestTimeoutMs: 1000, maxRetries: 0 })
    })
    host.events.on((e) => events.push(e))
    const loop = new LearningLoop(core, host)
    const session = core.sessions.create({ source: 'test' })
    // Something is already being reviewed, so everything below waits in the queue.
    host.enqueue({ sessionId: 'busy', kinds: ['memory'], reasons: [{ code: 'requested' as const }], messages: [], skillsUsed: [] })
    await loop.hooks.beforeCompression!({ sessionId: session.id, messages: longMiddle() })
    const chunkJobs = events.filter((e): e is Extract<ReviewEvent, { type: 'review_queued' }> => e.type === 'review_queued' && e.sessionId === session.id)
    expect(chunkJobs.length).toBeGreaterThan(2)
    expect(chunkJobs[0].reasons[0]).toMatchObject({ code: 'compression', part: 1 })
    // An ordinary end-of-turn trigger for the same session gets a review of its own.
    const later = host.enqueue({ sessionId: session.id, kinds: ['skills'], reasons: [{ code: 'requested' as const }], messages: [], skillsUsed: [] })
    expect(chunkJobs.map((e) => e.reviewId)).not.toContain(later)
    expect(host.status().queued).toBe(chunkJobs.length + 1)
    await host.close()
  })
})

import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { LearnImportedInfo } from '../../../../shared/ipc/contract-import'
import { importChatExport } from '../../../../electron/core/import'
import { IMPORT_LEARNED_KEY, ImportedLearning, LearnImportedBusyError, LearningOffError } from '../../../../electron/core/learning/host/learn-imported'
import { LearningLoop } from '../../../../electron/core/learning/host/learning-loop'
import type { RecordedChatRequest, ScriptedReply } from '../../../scripted-provider'
import { isReviewRequest, reviewFixture, reviewUserText, until, type ReviewFixture } from '../../../helpers/review-fixture'

const CHATGPT_EXPORT = join(__dirname, '..', '..', '..', 'fixtures', 'chatgpt-export', 'conversations.json')

let fx: ReviewFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

/** What the scripted review model does: saves one fact about the conversation it reads, then ends. */
function reviewer(options: { failOn?: string } = {}): (request: RecordedChatRequest) => ScriptedReply | undefined {
  return (request) => {
    if (!isReviewRequest(request)) return undefined
    if (request.body.messages.at(-1)?.role === 'tool') return { text: 'Saved.' }
    const transcript = reviewUserText(request)
    if (options.failOn && transcript.includes(options.failOn)) return { fault: { type: 'http', status: 500 } }
    // Keyed on words only the transcripts hold (the memory the review also reads holds the facts).
    const fact = transcript.includes('levain') ? 'User keeps a sourdough starter' : 'User watches the birds at their feeder'
    return { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: fact } }] }
  }
}

async function setUp(options: { failOn?: string; mode?: 'auto' | 'off' } = {}) {
  fx = await reviewFixture({ server: { respond: reviewer(options) }, config: { learning: { mode: options.mode ?? 'auto' } } })
  const core = fx.core
  const report = await importChatExport(core, { app: 'chatgpt', path: CHATGPT_EXPORT })
  const { host } = fx.host()
  const loop = new LearningLoop(core, host)
  const seen: LearnImportedInfo[] = []
  const learning = new ImportedLearning({
    db: core.db,
    sessions: core.sessions,
    loop,
    host,
    learningOn: () => core.config.get().learning.enabled && core.config.get().learning.mode !== 'off',
    changed: (progress) => seen.push(progress)
  })
  return { core, host, loop, learning, seen, importId: report.importId! }
}

function userMemory(fixture: ReviewFixture): string {
  return fixture.core.memory.read('user').entries.join('\n')
}

describe('learning from imported conversations', () => {
  it('reviews each imported conversation once, under the learning mode, and remembers that it did', async () => {
    const { core, learning, seen, importId } = await setUp()
    expect(learning.unreviewed()).toBe(2)
    expect(learning.unreviewed(importId)).toBe(2)

    const started = learning.start()
    expect(started).toMatchObject({ running: true, total: 2, done: 0 })
    const ended = await learning.finished()
    expect(ended).toMatchObject({ running: false, total: 2, done: 2, failed: 0, changes: 2, stopped: null, current: null })
    expect(userMemory(fx!)).toContain('User keeps a sourdough starter')
    expect(userMemory(fx!)).toContain('User watches the birds at their feeder')
    // Each conversation showed up as the one under review while it ran.
    expect(new Set(seen.map((progress) => progress.current?.title).filter(Boolean))).toEqual(new Set(['Reviving a sourdough starter', 'Bird on the feeder']))
    const marked = core.db.prepare(`SELECT json_extract(state, '$.${IMPORT_LEARNED_KEY}.reviewId') AS reviewId FROM sessions WHERE import_id = ?`).all(importId) as Array<{ reviewId: string | null }>
    expect(marked.every((row) => typeof row.reviewId === 'string')).toBe(true)

    // Asked again: nothing left, no review runs.
    const requestsBefore = fx!.server.requests.length
    expect(learning.unreviewed()).toBe(0)
    expect(learning.start()).toMatchObject({ total: 0 })
    expect(await learning.finished()).toMatchObject({ done: 0, total: 0, running: false })
    expect(fx!.server.requests.length).toBe(requestsBefore)
  })

  it('is refused with learning off, and one run at a time', async () => {
    const off = await setUp({ mode: 'off' })
    expect(() => off.learning.start()).toThrow(LearningOffError)
    await off.core.config.update({ learning: { mode: 'ask' } })
    off.learning.start()
    expect(() => off.learning.start()).toThrow(LearnImportedBusyError)
    await off.learning.finished()
  })

  it('cancel stops after the conversation under review; the rest are left for the next run', async () => {
    const { learning, seen } = await setUp()
    learning.start()
    // As soon as the first conversation is under review, the user cancels.
    await until(() => seen.some((progress) => progress.current !== null), 'the first review to start')
    expect(learning.cancel()).toMatchObject({ cancelRequested: true, running: true })
    const ended = await learning.finished()
    expect(ended).toMatchObject({ running: false, done: 1, total: 2, stopped: 'cancelled' })
    expect(learning.unreviewed()).toBe(1)
    expect(fx!.core.memory.read('user').entries).toHaveLength(1)
  })

  it('a failed review is counted and its conversation stays unreviewed; the others go on', async () => {
    const { learning } = await setUp({ failOn: 'levain' })
    learning.start()
    const ended = await learning.finished()
    expect(ended).toMatchObject({ done: 2, failed: 1, changes: 1, stopped: null })
    expect(ended.lastError).toBeTruthy()
    expect(learning.unreviewed()).toBe(1)
    expect(userMemory(fx!)).toContain('birds')
  })

  it('a conversation that was imported is not reviewed when it ends, unless the user added turns to it', async () => {
    const { core, loop, importId } = await setUp()
    const [imported] = core.db.prepare('SELECT id FROM sessions WHERE import_id = ? ORDER BY started_at').all(importId) as Array<{ id: string }>
    await core.config.update({ learning: { sessionEndMinTurns: 1 } })
    expect(loop.endConversation(imported.id, 'idle')).toBeNull()
    // The user goes on with it here: that turn is theirs, and is reviewed at the end.
    core.sessions.append(imported.id, { role: 'user', content: 'I moved the starter to the fridge.' })
    core.sessions.append(imported.id, { role: 'assistant', content: 'Feed it weekly then.' })
    expect(loop.endConversation(imported.id, 'idle')).toEqual(expect.any(String))
  })
})

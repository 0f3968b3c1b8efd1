import Database from 'better-sqlite3'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { appFixture, type AppFixture } from '../../../helpers/app-fixture'
import { isReviewRequest, until } from '../../../helpers/review-fixture'
import type { RecordedChatRequest, ScriptedReply } from '../../../scripted-provider'
import { TestClock, queuedReviews, say } from './desktop-chat'

/**
 * A conversation that ends (goes quiet, gives way to a new one, or is open when Cairn quits) is
 * reviewed once for the turns no review has seen, when it has at least learning.sessionEndMinTurns.
 */

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const reviewReplies: ScriptedReply[] = []

async function start(options: { quitReviewMs?: number } = {}) {
  reviewReplies.length = 0
  const clock = new TestClock()
  fx = await appFixture({
    server: { respond: (request: RecordedChatRequest) => (isReviewRequest(request) ? (reviewReplies.shift() ?? { text: 'Nothing to save.' }) : { text: 'Done.' }) },
    app: { clock, quitReviewMs: options.quitReviewMs },
    // Curation runs on the same clock; these tests are about conversations alone.
    config: { learning: { curateEveryDays: 0 } }
  })
  return { fx, clock }
}

const queued = queuedReviews

function runRows(home: string): Array<{ status: string; reasons: string; error: string | null }> {
  const db = new Database(join(home, 'state.db'), { readonly: true })
  try {
    return db.prepare('SELECT status, reasons, error FROM review_runs ORDER BY queued_at, rowid').all() as Array<{ status: string; reasons: string; error: string | null }>
  } finally {
    db.close()
  }
}

describe('end-of-conversation reviews', () => {
  it('an idle conversation is reviewed once: not again on the next idle tick, nor on quit', async () => {
    const { fx: app, clock } = await start()
    reviewReplies.push(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: 'The blog lives in ~/sites/blog and builds with Hugo.' } }] },
      { text: 'Saved where the blog lives.' }
    )
    const id = await say(app, null, 'Build the blog in ~/sites/blog.')
    await say(app, id, 'Now check the output folder.')
    clock.pass(9)
    expect(queued(app)).toEqual([]) // not idle long enough (learning.idleReviewMinutes: 10)

    clock.pass(2)
    expect(queued(app)).toHaveLength(1)
    expect(queued(app)[0]).toMatchObject({ sessionId: id, kinds: ['memory', 'skills'], reasons: [{ code: 'session_end', cause: 'idle', turns: 2 }] })
    await app.waitFor('review.event', (e) => e.type === 'review_finished')

    clock.pass(30)
    await app.app.close() // quitting: the conversation has nothing new
    expect(queued(app)).toHaveLength(1)
    expect(runRows(app.home).map((row) => row.status)).toEqual(['done'])
  })

  it('what a review learned comes back with the conversation, and a requested review that finds nothing says so', async () => {
    const { fx: app, clock } = await start()
    reviewReplies.push(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'User uses pnpm, never npm.' } }] },
      { text: 'Saved.' }
    )
    const id = await say(app, null, 'Set up the project, with pnpm.')
    await say(app, id, 'Add a lint script too.')
    clock.pass(10)
    await app.waitFor('review.event', (e) => e.type === 'review_finished')
    const { reviewId } = await app.ok('learning.reviewNow', { sessionId: id })
    await app.waitFor('review.event', (e) => e.type === 'review_finished' && e.reviewId === reviewId)

    const { learned } = await app.ok('sessions.get', { sessionId: id })
    expect(learned).toEqual([
      expect.objectContaining({ requested: false, summary: expect.objectContaining({ saved: true, remembered: [{ store: 'user', text: 'User uses pnpm, never npm.' }] }) }),
      expect.objectContaining({ reviewId, requested: true, summary: expect.objectContaining({ saved: false }) })
    ])
  })

  it('starting a new conversation reviews the one before it', async () => {
    const { fx: app } = await start()
    const first = await say(app, null, 'Rename the photos by date.')
    await say(app, first, 'Use the EXIF date, not the file date.')
    const second = await say(app, null, 'What is the capital of Peru?')
    expect(queued(app).map((e) => [e.sessionId, e.reasons])).toEqual([[first, [{ code: 'session_end', cause: 'new_conversation', turns: 2 }]]])
    expect(second).not.toBe(first)
    await app.waitFor('review.event', (e) => e.type === 'review_finished')
  })

  it('a conversation shorter than learning.sessionEndMinTurns is not reviewed for ending', async () => {
    const { fx: app, clock } = await start()
    await say(app, null, 'What is 2 + 2?')
    clock.pass(60)
    await app.app.close()
    expect(queued(app)).toEqual([])
  })

  it('quitting reviews an open conversation with turns no review has seen, and waits for it', async () => {
    const { fx: app } = await start()
    reviewReplies.push(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'User keeps invoices in ~/Documents/invoices.' } }] },
      { text: 'Saved.' }
    )
    const id = await say(app, null, 'File this invoice with the others.')
    await say(app, id, 'They are all in ~/Documents/invoices.')
    await app.app.close()
    expect(queued(app)[0]).toMatchObject({ sessionId: id, reasons: [{ code: 'session_end', cause: 'quit', turns: 2 }] })
    expect(runRows(app.home).map((row) => row.status)).toEqual(['done'])
  })

  it('quitting reviews the open conversations within a bound, and records why what did not finish', async () => {
    const { fx: app } = await start({ quitReviewMs: 300 })
    // The first review never gets an answer: the bound has to end it.
    reviewReplies.push({ fault: { type: 'hang' } })
    const first = await say(app, null, 'Sort the downloads folder.')
    await say(app, first, 'Put the PDFs in Documents.')
    const second = await app.ok('chat.send', { sessionId: null, text: 'Plan a trip to Kyoto.' }) // ends the first (its review hangs)
    await until(() => !app.app.chats.isRunning(second.sessionId), 'the second turn')
    await say(app, second.sessionId, 'Three days, in April.')
    await app.app.close()
    const rows = runRows(app.home)
    expect(rows.map((row) => [JSON.parse(row.reasons)[0].cause, row.status])).toEqual([
      ['new_conversation', 'failed'],
      ['quit', 'failed']
    ])
    expect(rows[0].error).toBe('Stopped because Cairn was closing.')
    expect(rows[1].error).toMatch(/Cairn quit before this review could run: reviews of the conversations open at quit get 0\.3 s/)
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { emptyReviewSummary } from '../../../../shared/review-outcome'
import { openStateDb } from '../../../../electron/core/db/state-db'
import { ReviewRuns } from '../../../../electron/core/ledger/review-runs'
import { appFixture, type AppFixture } from '../../../helpers/app-fixture'
import { isReviewRequest } from '../../../helpers/review-fixture'
import { startScriptedServer, type RecordedChatRequest, type ScriptedServer } from '../../../scripted-provider'

/** Reviews run on `learning.model` (and `learning.baseURL` with its own key) while chat keeps the chat model. */

let fx: AppFixture | undefined
let learningServer: ScriptedServer | undefined
afterEach(async () => {
  await fx?.close()
  await learningServer?.close()
  fx = undefined
  learningServer = undefined
})

const saveTea = (request: RecordedChatRequest) => {
  if (!isReviewRequest(request)) return { text: 'Green tea it is.' }
  const last = request.body.messages.at(-1)
  return last?.role === 'tool' ? { text: 'Saved.' } : { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Prefers green tea.' } }] }
}

describe('a cheaper model for learning', () => {
  it('reviews name learning.model while chat names the chat model, and the review row says which', async () => {
    fx = await appFixture({ server: { respond: saveTea }, config: { learning: { model: 'cheap-model' } } })
    const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'I prefer green tea over coffee.' })
    const done = await fx.waitFor('review.event', (e) => e.type === 'review_finished')
    const requests = fx.server.chatRequests()
    expect(requests.filter((r) => !isReviewRequest(r)).map((r) => r.body.model)).toEqual(['scripted'])
    const reviewModels = requests.filter(isReviewRequest).map((r) => r.body.model)
    expect(reviewModels.length).toBeGreaterThan(0)
    expect(new Set(reviewModels)).toEqual(new Set(['cheap-model']))
    expect(done).toMatchObject({ sessionId, outcome: { model: 'cheap-model' } })
    const { reviews } = await fx.ok('timeline.list', {})
    expect(reviews[0]).toMatchObject({ sessionId, status: 'done', model: 'cheap-model' })
  })

  it('on learning.baseURL a review uses the learning key, and the chat key never goes there', async () => {
    learningServer = await startScriptedServer({ strict: true, apiKey: 'sk-learning', respond: saveTea })
    fx = await appFixture({ server: { respond: saveTea }, config: { learning: { baseURL: learningServer.url, model: 'small' } } })
    const view = await fx.ok('settings.setApiKey', { apiKey: 'sk-learning-0042', which: 'learning' })
    expect(view).toMatchObject({ hasApiKey: true, learningKey: { hasApiKey: true, keyHint: '0042', keyStorage: 'memory' } })
    // Wrong key first: the review's provider is refused; the chat's request went to the chat server alone.
    await fx.ok('chat.send', { sessionId: null, text: 'I prefer green tea over coffee.' })
    const failed = await fx.waitFor('review.event', (e) => e.type === 'review_failed')
    expect(failed).toMatchObject({ type: 'review_failed' })
    expect(learningServer.requests.map((r) => r.headers.authorization)).toEqual(['Bearer sk-learning-0042'])

    await fx.ok('settings.setApiKey', { apiKey: 'sk-learning', which: 'learning' })
    expect((await fx.ok('settings.get')).hasApiKey).toBe(true) // the chat key is untouched
    const { reviewId } = await fx.ok('learning.reviewNow', { sessionId: (await fx.ok('sessions.list', {})).sessions[0].id })
    await fx.waitFor('review.event', (e) => e.type === 'review_finished' && e.reviewId === reviewId)
    const reviewRequests = learningServer.chatRequests()
    expect(reviewRequests.every((r) => isReviewRequest(r) && r.body.model === 'small')).toBe(true)
    expect(learningServer.requests.every((r) => !String(r.headers.authorization).includes('sk-app-test'))).toBe(true)
    expect(fx.server.chatRequests().filter(isReviewRequest)).toEqual([])
  })
})

describe('tokens per review', () => {
  it('review_runs keeps the model from the start and the tokens the outcome reports', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-runs-'))
    const db = openStateDb(join(dir, 'state.db'))
    try {
      const runs = new ReviewRuns(db)
      runs.queued({ reviewId: 'r1', sessionId: null, kinds: ['memory'], reasons: [{ code: 'requested' }] })
      runs.started('r1', 123, Date.now(), 'cheap-model')
      // A detached worker records its own ending: its outcome may not name the model, the row still does.
      runs.finished('r1', { summary: emptyReviewSummary(), usage: { promptTokens: 1200, completionTokens: 80 } })
      expect(runs.get('r1')).toMatchObject({ status: 'done', model: 'cheap-model', promptTokens: 1200, completionTokens: 80 })
      runs.queued({ reviewId: 'r2', sessionId: null, kinds: ['memory'], reasons: [{ code: 'requested' }] })
      runs.finished('r2', { summary: emptyReviewSummary() })
      expect(runs.get('r2')).toMatchObject({ model: null, promptTokens: null, completionTokens: null })
    } finally {
      db.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

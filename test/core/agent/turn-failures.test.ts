import { afterEach, describe, expect, it } from 'vitest'
import { readAttachments } from '../../../electron/core/attachments'
import { toSummary } from '../../../electron/core/app/handlers/sessions'
import { isUnanswered, storedTurnFailure } from '../../../electron/core/sessions/turn-failure'
import { translator } from '../../../shared/i18n'
import { describeTurnError } from '../../../shared/i18n/describe'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'
import { ONE_PIXEL_PNG } from '../../helpers/pdf-file'

let fx: AgentFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

/** A 404 whose words hold "vision", as a provider answers for a model it lacks (no structured code). */
const visionNamed404 = { fault: { type: 'http' as const, status: 404, body: { error: { message: 'Unknown model llama-3.2-vision: vision models are listed at /v1/models', type: 'invalid_request_error' } } } }

describe('a model the provider lacks', () => {
  it('is reported missing, naming the model and the address, when its name and the 404 say "vision"', async () => {
    fx = await agentFixture({ server: { models: ['scripted'] }, config: { provider: { model: 'llama-3.2-vision', maxRetries: 0 } } })
    const { session, ofType } = fx.open()
    await session.runTurn('hello').done
    const [error] = ofType('error')
    expect(error).toMatchObject({ code: 'model_not_found', retryable: false, params: { model: 'llama-3.2-vision', baseURL: fx.server.url } })
    const worded = describeTurnError(error, translator('en')).text
    expect(worded).toBe(`The provider at ${fx.server.url} has no model "llama-3.2-vision". Choose a model it lists in Settings.`)
    expect(worded).not.toMatch(/images/)
  })

  it('is reported missing by the 404 alone, without a structured code, even when the text talks of vision', async () => {
    fx = await agentFixture({ config: { provider: { model: 'llama-3.2-vision', maxRetries: 0 } } })
    fx.server.enqueue(visionNamed404)
    const { session, ofType } = fx.open()
    await session.runTurn('hello').done
    expect(ofType('error')).toMatchObject([{ code: 'model_not_found', params: { model: 'llama-3.2-vision' } }])
  })

  it('is still reported missing when the request carried an image', async () => {
    fx = await agentFixture({ config: { provider: { model: 'llama-3.2-vision', maxRetries: 0 } } })
    fx.server.enqueue(visionNamed404)
    const { session, ofType } = fx.open()
    const saved = fx.core.attachments.save(session.id, await readAttachments([{ name: 'pixel.png', bytes: ONE_PIXEL_PNG }]))
    await session.runTurn('What is this?', { attachments: saved }).done
    expect(ofType('error')).toMatchObject([{ code: 'model_not_found' }])
  })

  it('says "does not take images" only when images were sent', async () => {
    fx = await agentFixture({ config: { provider: { maxRetries: 0 } } })
    const refusal = { fault: { type: 'http' as const, status: 400, body: { error: { message: 'This model does not support vision input.', type: 'invalid_request_error' } } } }
    fx.server.enqueue(refusal, refusal)
    const { session, ofType } = fx.open()
    await session.runTurn('hello').done
    const saved = fx.core.attachments.save(session.id, await readAttachments([{ name: 'pixel.png', bytes: ONE_PIXEL_PNG }]))
    await session.runTurn('And this?', { attachments: saved }).done
    expect(ofType('error').map((error) => error.code)).toEqual(['bad_request', 'images_unsupported'])
  })
})

describe('a failed turn kept with its conversation', () => {
  it('is stored at the message it answered, listed with the conversation, and cleared by the next turn', async () => {
    fx = await agentFixture({ config: { provider: { maxRetries: 0 } } })
    fx.server.enqueue({ fault: { type: 'http', status: 401 } }, { text: 'Now it works.' })
    const { session } = fx.open()
    await session.runTurn('hello').done
    const [asked] = fx.core.sessions.messages(session.id)
    const stored = fx.core.sessions.get(session.id)!
    expect(storedTurnFailure(stored)).toMatchObject({ messageId: asked.id, code: 'auth', retryable: false, params: { baseURL: fx.server.url } })
    expect(toSummary(stored).failedTurn).toMatchObject({ messageId: asked.id, code: 'auth' })
    expect(isUnanswered(stored)).toBe(true)
    expect(fx.core.sessions.findUnanswered('hello', { workspace: fx.workspace, source: 'cli' })).toBe(session.id)
    expect(fx.core.sessions.findUnanswered('hello there', { workspace: fx.workspace, source: 'cli' })).toBeNull()

    // Retry (answering the same message again) clears it.
    await session.regenerate().done
    const after = fx.core.sessions.get(session.id)!
    expect(storedTurnFailure(after)).toBeNull()
    expect(toSummary(after).failedTurn).toBeUndefined()
    expect(fx.core.sessions.findUnanswered('hello', { workspace: fx.workspace, source: 'cli' })).toBeNull()
  })

  it('is kept when it reopens in a new session object (the app restarted)', async () => {
    fx = await agentFixture({ config: { provider: { maxRetries: 0 } } })
    fx.server.enqueue({ fault: { type: 'http', status: 500 } })
    const { session } = fx.open()
    await session.runTurn('hello').done
    const reopened = fx.open({ sessionId: session.id })
    expect(storedTurnFailure(fx.core.sessions.get(reopened.session.id)!)).toMatchObject({ code: 'server' })
  })
})

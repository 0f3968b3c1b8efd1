import { afterEach, describe, expect, it } from 'vitest'
import { MAX_INSTRUCTIONS_CHARS } from '../../../shared/config'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

async function finishTurn(app: AppFixture, input: { sessionId: string | null; text: string }) {
  app.events.length = 0
  const { sessionId } = await app.ok('chat.send', input)
  await app.waitFor('chat.status', (s) => s.sessionId === sessionId && !s.running)
  return sessionId
}

/** The system message of each chat request, in order. */
const systemPrompts = (app: AppFixture) => app.server.chatRequests().map((r) => (r.body as { messages: Array<{ role: string; content: string }> }).messages[0].content)

describe('custom instructions', () => {
  it('puts the global instructions in a new conversation\'s prompt, which stays byte-identical when they change mid-conversation', async () => {
    fx = await appFixture({ config: { agent: { instructions: 'Answer in British English.' } } })
    fx.server.enqueue({ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' })
    const sessionId = await finishTurn(fx, { sessionId: null, text: 'hello' })
    await fx.ok('settings.update', { patch: { agent: { instructions: 'Answer in French.' } } })
    await finishTurn(fx, { sessionId, text: 'and again' })
    await finishTurn(fx, { sessionId: null, text: 'a new conversation' })
    const [first, second, fresh] = systemPrompts(fx)
    expect(first).toContain("## The user's instructions")
    expect(first).toContain('Answer in British English.')
    expect(second).toBe(first)
    expect(fresh).toContain('Answer in French.')
    expect(fresh).not.toContain('British')
  })

  it('restarts the conversation\'s prompt with its own instructions, then keeps it byte-identical', async () => {
    fx = await appFixture()
    fx.server.enqueue({ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' })
    const sessionId = await finishTurn(fx, { sessionId: null, text: 'hello' })
    await fx.ok('settings.update', { patch: { agent: { instructions: 'Use metric units.' } } })
    const summary = await fx.ok('sessions.setInstructions', { sessionId, instructions: '  You are reviewing my thesis chapter.  ' })
    expect(summary.instructions).toBe('You are reviewing my thesis chapter.')
    expect(fx.events).toContainEqual({ name: 'sessions.changed', payload: { sessionId } })
    await finishTurn(fx, { sessionId, text: 'chapter one' })
    await finishTurn(fx, { sessionId, text: 'chapter two' })
    const [before, restarted, after] = systemPrompts(fx)
    expect(before).not.toContain('thesis')
    expect(restarted).toContain('## Instructions for this conversation')
    expect(restarted).toContain('You are reviewing my thesis chapter.')
    // A restart composes the whole prompt again: the global instructions changed since are in it too.
    expect(restarted).toContain('Use metric units.')
    expect(after).toBe(restarted)
    expect((await fx.ok('sessions.get', { sessionId })).session.instructions).toBe('You are reviewing my thesis chapter.')

    // Cleared: the summary no longer carries them.
    expect((await fx.ok('sessions.setInstructions', { sessionId, instructions: '' })).instructions).toBeUndefined()
  })

  it('refuses instructions that are too long, and a change while the conversation is answering', async () => {
    fx = await appFixture()
    fx.server.enqueue({ text: 'one two three four five six seven eight', chunkDelayMs: 200 })
    const tooLong = 'x'.repeat(MAX_INSTRUCTIONS_CHARS + 1)
    expect(await fx.call('settings.update', { patch: { agent: { instructions: tooLong } } })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect((await fx.ok('settings.get')).config.agent.instructions).toBe('')
    const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'count slowly' })
    expect(await fx.call('sessions.setInstructions', { sessionId, instructions: tooLong })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect(await fx.call('sessions.setInstructions', { sessionId, instructions: 'Be brief.' })).toMatchObject({ ok: false, error: { code: 'BUSY' } })
    await fx.ok('chat.cancel', { sessionId })
    await fx.waitFor('chat.status', (s) => s.sessionId === sessionId && !s.running)
  })
})

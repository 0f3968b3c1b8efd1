import { afterEach, describe, expect, it } from 'vitest'
import { cleanTitle, TITLE_PROMPT_START } from '../../../electron/core/agent/conversation-title'
import type { RecordedChatRequest } from '../../scripted-provider'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture | undefined

afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const isTitleRequest = (request: RecordedChatRequest) => {
  const system = request.body.messages[0]
  return typeof system?.content === 'string' && system.content.startsWith(TITLE_PROMPT_START)
}

async function titled(sessionId: string): Promise<string | null> {
  await fx!.waitFor('sessions.changed', (event) => event.sessionId === sessionId && fx!.app.core.sessions.get(sessionId)?.state.titledBy === 'cairn')
  return fx!.app.core.sessions.get(sessionId)!.title
}

describe('auto titles', () => {
  it('names a new conversation from its first exchange, in the background, once', async () => {
    fx = await appFixture({ config: { agent: { autoTitle: true } } })
    fx.server.enqueue({ text: 'Use pnpm init, then add TypeScript.' }, { text: 'Title: "Setting up a Node project".' }, { text: 'Sure.' })
    const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'how do I start a node project with pnpm and typescript?' })
    expect(await titled(sessionId)).toBe('Setting up a Node project')
    const titleRequest = fx.server.chatRequests()[1]
    expect(isTitleRequest(titleRequest)).toBe(true)
    expect(JSON.stringify(titleRequest.body.messages[1])).toContain('pnpm and typescript')

    await fx.ok('chat.send', { sessionId, text: 'thanks' })
    await fx.waitFor('chat.status', (s) => s.sessionId === sessionId && !s.running)
    expect(fx.server.chatRequests().filter(isTitleRequest)).toHaveLength(1)
    expect(fx.app.core.sessions.get(sessionId)!.title).toBe('Setting up a Node project')
  })

  it('never replaces a title the user gave, and keeps the first words when the model fails', async () => {
    fx = await appFixture({ config: { agent: { autoTitle: true } } })
    fx.server.enqueue({ text: 'An answer.' }, { fault: { type: 'http', status: 500 } })
    const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'tell me about rust lifetimes' })
    await fx.waitFor('chat.status', (s) => s.sessionId === sessionId && !s.running)
    await fx.server.waitForChatRequests(2)
    expect(fx.app.core.sessions.get(sessionId)!.title).toBe('tell me about rust lifetimes')

    await fx.ok('sessions.rename', { sessionId, title: 'Lifetimes' })
    fx.server.enqueue({ text: 'More.' })
    await fx.ok('chat.send', { sessionId, text: 'more please' })
    await fx.waitFor('chat.status', (s) => s.sessionId === sessionId && !s.running)
    expect(fx.server.chatRequests().filter(isTitleRequest)).toHaveLength(1)
    expect(fx.app.core.sessions.get(sessionId)!.title).toBe('Lifetimes')
  })

  it('is off when agent.autoTitle is false', async () => {
    fx = await appFixture()
    fx.server.enqueue({ text: 'Hello.' })
    const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'hello there' })
    await fx.waitFor('chat.status', (s) => s.sessionId === sessionId && !s.running)
    expect(fx.server.chatRequests()).toHaveLength(1)
    expect(fx.app.core.sessions.get(sessionId)!.title).toBe('hello there')
  })
})

describe('cleanTitle', () => {
  it('keeps the title only, in any language', () => {
    expect(cleanTitle('Title: "Deploying with Docker".')).toBe('Deploying with Docker')
    expect(cleanTitle('## **Node setup**\nMore text')).toBe('Node setup')
    expect(cleanTitle('标题：「配置 Node 项目」。')).toBe('配置 Node 项目')
    expect(cleanTitle('   \n  ')).toBeNull()
    expect(cleanTitle('x'.repeat(200))).toHaveLength(60)
  })
})

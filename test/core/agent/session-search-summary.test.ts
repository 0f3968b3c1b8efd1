import { afterEach, describe, expect, it } from 'vitest'
import { createAgentSession } from '../../../electron/core/agent/create-agent'
import { providerKeys } from '../../../electron/core/provider/provider-access'
import { SUMMARY_PROMPT_START } from '../../../electron/core/sessions/session-summaries'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'
import { startScriptedServer, type RecordedChatRequest } from '../../scripted-provider'

let fx: AgentFixture | undefined

afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const isSummaryRequest = (request: RecordedChatRequest) => {
  const system = request.body.messages[0]
  return system.role === 'system' && typeof system.content === 'string' && system.content.startsWith(SUMMARY_PROMPT_START)
}

describe('a chat turn that searches past sessions with summaries', () => {
  it('gets the learning model summary of the past session as the tool result and answers from it', async () => {
    fx = await agentFixture({
      config: { learning: { model: 'small-model' } },
      server: {
        respond(request) {
          if (isSummaryRequest(request)) return { text: 'The blog was deployed with `fly deploy --remote-only`; the 502 came from port 8080.' }
          const last = request.body.messages.at(-1)!
          if (last.role === 'user') return { toolCalls: [{ name: 'session_search', arguments: { query: 'blog deploy 502', summarize: true } }] }
          return { text: 'Last time: fly deploy --remote-only, and the 502 was port 8080.' }
        }
      }
    })
    fx.core.sessions.create({ id: 's_past', title: 'Blog deploy', startedAt: Date.UTC(2026, 2, 1) })
    fx.core.sessions.appendMany('s_past', [
      { role: 'user', content: 'The blog deploy gives a 502', createdAt: Date.UTC(2026, 2, 1) },
      { role: 'assistant', content: 'The app listens on 8080; ran fly deploy --remote-only and the 502 is gone.', createdAt: Date.UTC(2026, 2, 1, 0, 5) }
    ])

    const { session, ofType } = fx.open()
    const summary = await session.runTurn('How did we fix the blog 502 last time?').done

    expect(summary.reason).toBe('completed')
    expect(summary.answer).toBe('Last time: fly deploy --remote-only, and the 502 was port 8080.')
    const [finished] = ofType('tool_call_finished')
    expect(finished.ok).toBe(true)
    const result = JSON.parse(finished.result)
    expect(result.sessions).toHaveLength(1)
    expect(result.sessions[0]).toMatchObject({
      session_id: 's_past',
      summary: 'The blog was deployed with `fly deploy --remote-only`; the 502 came from port 8080.',
      covers: { messages: 2, from: '2026-03-01T00:00:00.000Z', to: '2026-03-01T00:05:00.000Z' }
    })
    expect(result.sessions[0].messages).toBeUndefined()

    // The summary ran on learning.model with the past session's messages; the chat stayed on the chat model.
    const summaryRequests = fx.server.chatRequests().filter(isSummaryRequest)
    expect(summaryRequests).toHaveLength(1)
    expect(summaryRequests[0].body.model).toBe('small-model')
    expect(summaryRequests[0].body.messages[1].content).toContain('The app listens on 8080')
    expect(fx.server.chatRequests().filter((r) => !isSummaryRequest(r)).map((r) => r.body.model)).toEqual(['scripted', 'scripted'])
  })

  it('sends summaries to learning.baseURL with the learning key, never the chat key', async () => {
    const learning = await startScriptedServer({ strict: true, apiKey: 'sk-learning', respond: () => ({ text: 'Recap from the learning server.' }) })
    try {
      fx = await agentFixture({
        server: {
          respond(request) {
            if (request.body.messages.at(-1)!.role === 'user') return { toolCalls: [{ name: 'session_search', arguments: { query: 'blog deploy', summarize: true } }] }
            return { text: 'Done.' }
          }
        }
      })
      await fx.core.config.update({ learning: { baseURL: learning.url, model: 'small-model' } })
      fx.core.sessions.create({ id: 's_past', title: 'Blog deploy', startedAt: Date.UTC(2026, 2, 1) })
      fx.core.sessions.appendMany('s_past', [{ role: 'user', content: 'How do I deploy the blog?', createdAt: Date.UTC(2026, 2, 1) }])

      const session = createAgentSession({ core: fx.core, env: fx.env, workspace: fx.workspace, keys: providerKeys((which) => (which === 'learning' ? 'sk-learning' : null), fx.env) })
      const results: string[] = []
      session.events.on((event) => event.type === 'tool_call_finished' && results.push(event.result))
      await session.runTurn('How did we deploy the blog?').done

      expect(JSON.parse(results[0]).sessions[0].summary).toBe('Recap from the learning server.')
      expect(learning.chatRequests().map((r) => [r.body.model, r.headers.authorization])).toEqual([['small-model', 'Bearer sk-learning']])
      expect(fx.server.chatRequests().some(isSummaryRequest)).toBe(false)
    } finally {
      await learning.close()
    }
  })

  it('tells the model in its system prompt when to summarise and when not to', async () => {
    fx = await agentFixture({ server: { respond: () => ({ text: 'Hi.' }) } })
    const { session } = fx.open()
    await session.runTurn('hello').done
    const system = fx.server.chatRequests()[0].body.messages[0].content as string
    expect(system).toMatch(/fact or decision in a long past conversation, pass summarize: true/)
    expect(system).toMatch(/Leave it off when you need the exact words/)
  })
})

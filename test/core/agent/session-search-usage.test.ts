import { afterEach, describe, expect, it } from 'vitest'
import type { ScriptedReply } from '../../scripted-provider'
import { toDisplayMessage } from '../../../electron/core/app/handlers/sessions'
import { SUMMARY_PROMPT_START } from '../../../electron/core/sessions/session-summaries'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'
import type { RecordedChatRequest } from '../../scripted-provider'

let fx: AgentFixture | undefined

afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const isSummaryRequest = (request: RecordedChatRequest) => {
  const system = request.body.messages[0]
  return system.role === 'system' && typeof system.content === 'string' && system.content.startsWith(SUMMARY_PROMPT_START)
}

/** Each chat call reports 1000 in / 20 out (100 cached); each summary whatever `summary` says. */
async function turnWithSearch(searchArgs: Record<string, unknown>, summary: ScriptedReply) {
  fx = await agentFixture({
    config: { learning: { model: 'small-model' } },
    server: {
      respond(request) {
        if (isSummaryRequest(request)) return summary
        const usage = { prompt_tokens: 1000, completion_tokens: 20, cached_tokens: 100 }
        if (request.body.messages.at(-1)!.role === 'user') return { toolCalls: [{ name: 'session_search', arguments: searchArgs }], usage }
        return { text: 'Port 8080, both times.', usage }
      }
    }
  })
  for (const [id, day] of [['s_blog', 1], ['s_api', 2]] as const) {
    fx.core.sessions.create({ id, title: `Deploy ${id}`, startedAt: Date.UTC(2026, 2, day) })
    fx.core.sessions.appendMany(id, [
      { role: 'user', content: `The ${id} deploy gives a 502`, createdAt: Date.UTC(2026, 2, day) },
      { role: 'assistant', content: 'The app listens on 8080; fly deploy fixed the 502.', createdAt: Date.UTC(2026, 2, day, 0, 5) }
    ])
  }
  const recorded = fx.open()
  const done = await recorded.session.runTurn('How did we fix the 502 last time?').done
  const [finished] = recorded.ofType('turn_finished')
  const toolRow = fx.core.sessions.messages(recorded.session.id).find((m) => m.role === 'tool')!
  return { done, finished, toolRow, totals: fx.core.sessions.get(recorded.session.id)!, result: JSON.parse(toolRow.content!) }
}

const CHAT_CALLS = { promptTokens: 2000, completionTokens: 40, cachedTokens: 200 }

describe('the tokens session_search summaries spend count into the turn', () => {
  it('adds both summaries to the turn usage and the session totals, kept with the tool result under the summary model', async () => {
    const { done, finished, toolRow, totals, result } = await turnWithSearch(
      { query: 'deploy 502', summarize: true },
      { text: 'The 502 came from port 8080.', usage: { prompt_tokens: 700, completion_tokens: 45, cached_tokens: 0 } }
    )

    expect(result.sessions.map((s: { summary?: string }) => s.summary)).toEqual(['The 502 came from port 8080.', 'The 502 came from port 8080.'])
    const withSummaries = { promptTokens: 2000 + 2 * 700, completionTokens: 40 + 2 * 45, cachedTokens: 200 }
    expect(done.usage).toEqual(withSummaries)
    expect(finished.usage).toEqual(withSummaries)
    // The conversation's totals (the chat header's token count) include them too.
    expect({ promptTokens: totals.inputTokens, completionTokens: totals.outputTokens, cachedTokens: totals.cachedTokens }).toEqual(withSummaries)
    // Attributed to the model that wrote the summaries, not the chat model.
    expect(toolRow).toMatchObject({ promptTokens: 1400, completionTokens: 90, cachedTokens: 0, meta: { model: 'small-model' } })
    // The app shows them in the turn's tokens; the answer's model stays the chat model.
    expect(toDisplayMessage(toolRow)).toMatchObject({ usage: { promptTokens: 1400, completionTokens: 90, cachedTokens: 0 } })
    expect(toDisplayMessage(toolRow).model).toBeUndefined()
    const answers = fx!.core.sessions.messages(done.sessionId).filter((m) => m.role === 'assistant')
    expect(answers.map((m) => [m.meta?.model, m.promptTokens, m.completionTokens])).toEqual([
      ['scripted', 1000, 20],
      ['scripted', 1000, 20]
    ])
  })

  it('adds nothing for summaries the provider failed (the raw messages came back instead)', async () => {
    const { done, toolRow, totals, result } = await turnWithSearch({ query: 'deploy 502', summarize: true }, { fault: { type: 'http', status: 500 } })

    expect(result.sessions.every((s: { summary_unavailable?: string }) => typeof s.summary_unavailable === 'string')).toBe(true)
    expect(done.usage).toEqual(CHAT_CALLS)
    expect(totals.inputTokens).toBe(2000)
    expect(toolRow).toMatchObject({ promptTokens: null, completionTokens: null, meta: null })
  })

  it('leaves a turn that searches without summaries as it was', async () => {
    const { done, finished, toolRow, totals } = await turnWithSearch({ query: 'deploy 502' }, { text: 'never asked' })

    expect(fx!.server.chatRequests().some(isSummaryRequest)).toBe(false)
    expect(done.usage).toEqual(CHAT_CALLS)
    expect(finished.usage).toEqual(CHAT_CALLS)
    expect(totals.outputTokens).toBe(40)
    expect(toolRow).toMatchObject({ promptTokens: null, completionTokens: null, cachedTokens: null, meta: null })
    expect(toDisplayMessage(toolRow).usage).toBeUndefined()
  })
})

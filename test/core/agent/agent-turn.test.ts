import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'

let fx: AgentFixture

beforeEach(async () => {
  fx = await agentFixture()
})
afterEach(async () => {
  await fx.close()
})

describe('a turn with tools', () => {
  it('runs parallel tool calls, feeds results back and streams the final answer', async () => {
    fx.server.enqueue(
      {
        text: 'Let me note that and look at your skills.',
        toolCalls: [
          { name: 'memory', arguments: { action: 'add', target: 'user', content: 'Prefers tea over coffee' }, splitInto: 4 },
          { name: 'skills_list', arguments: {} }
        ]
      },
      { text: 'Noted: you prefer tea. You have no skills yet.', chunks: ['Noted: you prefer tea. ', 'You have no skills yet.'] }
    )
    const { session, events, ofType } = fx.open()
    const summary = await session.runTurn('I prefer tea, by the way. What skills do you have?').done

    expect(summary.reason).toBe('completed')
    expect(summary.answer).toBe('Noted: you prefer tea. You have no skills yet.')
    expect(summary.toolCalls.map((c) => c.name).sort()).toEqual(['memory', 'skills_list'])
    expect(ofType('text_delta').map((e) => e.text).join('')).toContain('Noted: you prefer tea. You have no skills yet.')
    expect(ofType('tool_call_finished').every((e) => e.ok)).toBe(true)
    expect(events.at(-1)).toMatchObject({ type: 'turn_finished', reason: 'completed', toolCalls: 2 })

    // The memory write happened, attributed to the agent and this session.
    expect(readFileSync(join(fx.home, 'memories', 'USER.md'), 'utf8')).toBe('Prefers tea over coffee')
    expect(fx.core.ledger.list()[0]).toMatchObject({ kind: 'memory.add', source: 'agent', sessionId: session.id })

    // The second request carried both tool results after the assistant's calls.
    const second = fx.server.chatRequests()[1].body.messages as Array<{ role: string; tool_call_id?: string }>
    const toolMessages = second.filter((m) => m.role === 'tool')
    expect(toolMessages).toHaveLength(2)

    // Every message is in the database, in order.
    const stored = fx.core.sessions.messages(session.id)
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant'])
    expect(stored[1].toolCalls).toHaveLength(2)
  })

  it('returns invalid tool arguments to the model as a readable error and carries on', async () => {
    fx.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: '{"action": "add", "target": "user", "content": ' }] },
      { toolCalls: [{ name: 'memory', arguments: { action: 'launch', target: 'user' } }] },
      { text: 'Sorry, I could not save that.' }
    )
    const { session, ofType } = fx.open()
    const summary = await session.runTurn('remember that I like tea').done
    expect(summary.reason).toBe('completed')
    const results = ofType('tool_call_finished')
    expect(results.map((r) => r.ok)).toEqual([false, false])
    expect(results[0].result).toMatch(/not valid JSON/)
    expect(results[1].result).toMatch(/Invalid arguments for memory: action/)
    const third = fx.server.chatRequests()[2].body.messages as Array<{ role: string; content: string }>
    expect(third.filter((m) => m.role === 'tool').map((m) => m.content).join(' ')).toMatch(/Invalid arguments/)
  })

  it('tells the model about a tool that does not exist', async () => {
    fx.server.enqueue({ toolCalls: [{ name: 'teleport', arguments: {} }] }, { text: 'I cannot do that.' })
    const { session, ofType } = fx.open()
    await session.runTurn('teleport me').done
    expect(JSON.parse(ofType('tool_call_finished')[0].result).error).toMatch(/no tool named "teleport".*Available tools: .*memory/)
  })

  it('stops at agent.maxIterations with a message instead of looping forever', async () => {
    await fx.core.config.update({ agent: { maxIterations: 3 } })
    for (let i = 0; i < 3; i++) fx.server.enqueue({ toolCalls: [{ name: 'skills_list', arguments: {} }] })
    const { session } = fx.open()
    const summary = await session.runTurn('loop please').done
    expect(summary.reason).toBe('max_iterations')
    expect(summary.answer).toMatch(/stopped after 3 steps/)
    expect(fx.server.chatRequests()).toHaveLength(3)
    const last = fx.core.sessions.messages(session.id).at(-1)
    expect(last).toMatchObject({ role: 'assistant', finishReason: 'max_iterations' })
  })

  it('resumes a session with its stored prompt and history', async () => {
    fx.server.enqueue({ text: 'Hi Ada.' }, { text: 'You told me your name is Ada.' })
    const first = fx.open()
    await first.session.runTurn('My name is Ada.').done
    const resumed = fx.open({ sessionId: first.session.id })
    expect(resumed.session.systemPrompt).toBe(first.session.systemPrompt)
    await resumed.session.runTurn('What is my name?').done
    const request = fx.server.lastChatRequest()!.body.messages as Array<{ role: string; content: string }>
    expect(request.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user'])
    expect(request[1].content).toContain('My name is Ada.')
    expect(fx.core.sessions.get(first.session.id)!.title).toBe('My name is Ada.')
  })

  it('refuses to resume a session that does not exist', () => {
    expect(() => fx.open({ sessionId: 'nope' })).toThrow(/no session nope/)
  })
})

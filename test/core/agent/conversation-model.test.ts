import { afterEach, describe, expect, it } from 'vitest'
import { createAgentSession } from '../../../electron/core/agent/create-agent'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'

let fx: AgentFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const models = (f: AgentFixture) => f.server.chatRequests().map((r) => (r.body as { model: string }).model)

describe("a conversation's own model", () => {
  it('is recorded for a new session and used by every later opening of it (the CLI resuming, /model)', async () => {
    fx = await agentFixture()
    fx.server.enqueue({ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' })
    const started = createAgentSession({ core: fx.core, env: fx.env, workspace: fx.workspace, model: 'gpt-small' })
    expect(fx.core.sessions.get(started.id)?.model).toBe('gpt-small')
    await started.runTurn('hello').done

    // Switched while open: the next turn of the same live session uses it.
    fx.core.sessions.update(started.id, { model: 'gpt-big' })
    await started.runTurn('again').done

    // Opened again (a later `cairn chat --continue`): still the conversation's model, not the configured one.
    const resumed = fx.open({ sessionId: started.id }).session
    await resumed.runTurn('and again').done
    expect(models(fx)).toEqual(['gpt-small', 'gpt-big', 'gpt-big'])
  })

  it('follows the configured model when the conversation has none of its own', async () => {
    fx = await agentFixture()
    fx.server.enqueue({ text: 'One.' })
    const { session } = fx.open()
    fx.core.sessions.update(session.id, { model: null })
    await fx.core.config.update({ provider: { model: 'gpt-configured' } })
    await session.runTurn('hello').done
    expect(models(fx)).toEqual(['gpt-configured'])
  })
})

import { existsSync, watch } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'

let fx: AgentFixture | undefined

afterEach(async () => {
  await fx?.close()
  fx = undefined
})

async function setup(config: Parameters<typeof agentFixture>[0] = {}) {
  fx = await agentFixture(config)
  return fx
}

function userMessages(f: AgentFixture, sessionId: string) {
  return f.core.sessions.messages(sessionId).filter((m) => m.role === 'user').map((m) => m.content)
}

describe('provider faults', () => {
  it('waits out a 429 as Retry-After asks, then answers', async () => {
    const f = await setup()
    // 50 ms, where the backoff without the header would be 250 to 500 ms.
    f.server.enqueue({ fault: { type: 'http', status: 429, headers: { 'Retry-After': '0.05' } } }, { text: 'Here you go.' })
    const { session, ofType } = f.open()
    const summary = await session.runTurn('hello').done
    expect(summary.reason).toBe('completed')
    expect(summary.answer).toBe('Here you go.')
    expect(ofType('retry')).toHaveLength(1)
    expect(ofType('retry')[0]).toMatchObject({ attempt: 1, delayMs: 50 })
    expect(ofType('retry')[0].reason).toMatch(/rate-limiting/)
    expect(f.server.chatRequests()).toHaveLength(2)
  })

  it('recovers from a 500 and from a stream cut mid-answer, voiding the partial text', async () => {
    const f = await setup()
    f.server.enqueue(
      { fault: { type: 'http', status: 500 } },
      { text: 'This answer will be cut short before it ends', fault: { type: 'cut', afterChunks: 3 } },
      { text: 'Complete answer.' }
    )
    const { session, ofType } = f.open()
    const summary = await session.runTurn('hello').done
    expect(summary.answer).toBe('Complete answer.')
    const retries = ofType('retry')
    expect(retries).toHaveLength(2)
    expect(retries[0].discardPartial).toBe(false)
    expect(retries[1]).toMatchObject({ discardPartial: true })
    expect(retries[1].reason).toMatch(/dropped in the middle/)
    const assistant = f.core.sessions.messages(session.id).filter((m) => m.role === 'assistant')
    expect(assistant.map((m) => m.content)).toEqual(['Complete answer.'])
  })

  it('gives up with a clear error when retries run out, keeping the user message', async () => {
    const f = await setup({ config: { provider: { maxRetries: 1 } } })
    f.server.enqueue({ fault: { type: 'http', status: 503 } }, { fault: { type: 'http', status: 503 } })
    const { session, ofType } = f.open()
    const summary = await session.runTurn('please answer').done
    expect(summary.reason).toBe('failed')
    const [error] = ofType('error')
    expect(error.code).toBe('server')
    expect(error.message).toMatch(/server error \(503.*Gave up after 2 attempts/)
    expect(userMessages(f, session.id)).toEqual(['please answer'])
  })

  it('says plainly when the API key is wrong', async () => {
    const f = await setup({ server: { apiKey: 'the-right-key' } })
    const { session, ofType } = f.open()
    const summary = await session.runTurn('hi').done
    expect(summary.reason).toBe('failed')
    expect(ofType('error')[0]).toMatchObject({ code: 'auth', retryable: false })
    expect(ofType('error')[0].message).toMatch(/rejected the API key \(401.*CAIRN_API_KEY/)
    expect(f.server.chatRequests()).toHaveLength(1) // no pointless retries
    expect(userMessages(f, session.id)).toEqual(['hi'])
  })

  it('says plainly when the model does not exist', async () => {
    const f = await setup({ server: { models: ['gpt-real'] } })
    const { session, ofType } = f.open()
    await session.runTurn('hi').done
    expect(ofType('error')[0]).toMatchObject({ code: 'model_not_found' })
    expect(ofType('error')[0].message).toMatch(/model "scripted" was not found/)
  })

  it('says plainly when the host cannot be reached', async () => {
    const f = await setup({ config: { provider: { maxRetries: 1 } } })
    const port = await closedPort()
    await f.core.config.update({ provider: { baseURL: `http://127.0.0.1:${port}/v1` } })
    const { session, ofType } = f.open()
    await session.runTurn('hi').done
    expect(ofType('error')[0]).toMatchObject({ code: 'unreachable' })
    expect(ofType('error')[0].message).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:\d+\/v1 \(connection refused\)/)
  })

  it('times out a provider that never sends the first byte', async () => {
    const f = await setup({ config: { provider: { maxRetries: 0, requestTimeoutMs: 1000 } } })
    f.server.enqueue({ text: 'too late', fault: { type: 'slowFirstByte', ms: 3000 } })
    const { session, ofType } = f.open()
    const summary = await session.runTurn('hi').done
    expect(summary.reason).toBe('failed')
    expect(ofType('error')[0]).toMatchObject({ code: 'timeout' })
    expect(ofType('error')[0].message).toMatch(/within 1 s/)
  })

  it('explains what to configure when no model is set', async () => {
    const f = await setup({ config: { provider: { model: '' } } })
    const { session, ofType } = f.open()
    await session.runTurn('hi').done
    expect(ofType('error')[0]).toMatchObject({ code: 'not_configured' })
    expect(ofType('error')[0].message).toMatch(/No model is chosen/)
    expect(f.server.chatRequests()).toHaveLength(0)
  })
})

describe('cancellation', () => {
  it('stops mid-stream, keeps what was said so far, and the session goes on', async () => {
    const f = await setup()
    f.server.enqueue(
      { text: 'one two three four five six seven eight nine ten', chunkDelayMs: 100 },
      { text: 'Fine, a new answer.' }
    )
    const { session, events, ofType } = f.open()
    const controller = new AbortController()
    session.events.on((e) => {
      if (e.type === 'text_delta' && events.filter((x) => x.type === 'text_delta').length === 3) controller.abort()
    })
    const summary = await session.runTurn('count to ten slowly', { signal: controller.signal }).done
    expect(summary.reason).toBe('cancelled')
    expect(ofType('error')).toHaveLength(0)
    const stored = f.core.sessions.messages(session.id)
    expect(stored.at(-1)).toMatchObject({ role: 'assistant', finishReason: 'cancelled' })
    expect(stored.at(-1)!.content).toMatch(/^one two/)

    const next = await session.runTurn('something else').done
    expect(next.reason).toBe('completed')
    expect(next.answer).toBe('Fine, a new answer.')
  })

  it('cancels a running command and closes the open tool call with a result', async () => {
    const f = await setup()
    f.server.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch running && sleep 20' } }] }, { text: 'ok' })
    const { session, ofType } = f.open({ autoApprove: true })
    // Cancel once the command is running: its first act is to create a file, which the test watches for.
    const running = fileAppears(f.workspace, 'running')
    const started = Date.now()
    const turn = session.runTurn('sleep')
    await running
    session.cancel()
    const summary = await turn.done
    expect(summary.reason).toBe('cancelled')
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(ofType('tool_call_finished')).toHaveLength(1)
    expect(ofType('tool_call_finished')[0].result).toMatch(/stopped by the user/)
    const messages = session.modelMessages()
    expect(messages.at(-1)).toMatchObject({ role: 'tool' })
  })
})

/** Resolves once `name` exists in `dir` (watched, not polled). */
function fileAppears(dir: string, name: string): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (!existsSync(join(dir, name))) return
      watcher.close()
      resolve()
    }
    const watcher = watch(dir, check)
    check()
  })
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer()
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => resolve(port))
    })
  })
}

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openStateDb } from '../../../electron/core/db/state-db'
import { SessionStore } from '../../../electron/core/sessions'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'

let fx: AgentFixture

beforeEach(async () => {
  fx = await agentFixture()
})
afterEach(async () => {
  vi.restoreAllMocks()
  await fx.close()
})

/** What SQLite throws when another process holds the write lock past the busy timeout. */
function databaseLocked(): Error {
  return Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
}

describe('a turn that fails before the model is called', () => {
  it('ends with an error when the user message cannot be saved, and the next message is answered', async () => {
    fx.server.enqueue({ text: 'Hello, I am here.' })
    const { session, events, ofType } = fx.open()
    vi.spyOn(fx.core.sessions, 'append').mockImplementationOnce(() => {
      throw databaseLocked()
    })

    const first = await session.runTurn('hello?').done
    expect(first.reason).toBe('failed')
    expect(events.map((e) => e.type)).toEqual(['error', 'turn_finished'])
    expect(ofType('error')[0]).toMatchObject({ code: 'internal', message: expect.stringMatching(/database is locked/) })
    expect(session.isRunning).toBe(false)
    expect(fx.server.chatRequests()).toHaveLength(0)

    const second = await session.runTurn('hello?').done
    expect(second).toMatchObject({ reason: 'completed', answer: 'Hello, I am here.' })
    expect(fx.core.sessions.messages(session.id).map((m) => [m.role, m.content])).toEqual([
      ['user', 'hello?'],
      ['assistant', 'Hello, I am here.']
    ])
  })

  it('ends with an error when the title cannot be saved, keeping the message that was saved', async () => {
    fx.server.enqueue({ text: 'Answered.' })
    const { session, ofType } = fx.open()
    vi.spyOn(fx.core.sessions, 'update').mockImplementationOnce(() => {
      throw databaseLocked()
    })

    const first = await session.runTurn('name this chat').done
    expect(first.reason).toBe('failed')
    expect(ofType('turn_started')).toHaveLength(1)
    expect(ofType('error')).toHaveLength(1)
    expect(ofType('turn_finished')[0]).toMatchObject({ reason: 'failed' })

    expect((await session.runTurn('and answer it').done).reason).toBe('completed')
    expect(fx.core.sessions.get(session.id)!.title).toBe('and answer it')
  })

  it('says the conversation is gone when another process deleted it, turn after turn', async () => {
    const { session, ofType } = fx.open()
    const otherProcess = openStateDb(fx.core.paths.stateDb)
    new SessionStore(otherProcess).delete(session.id)
    otherProcess.close()

    for (const text of ['are you there?', 'hello?']) {
      const summary = await session.runTurn(text).done
      expect(summary.reason).toBe('failed')
      expect(session.isRunning).toBe(false)
    }
    const errors = ofType('error')
    expect(errors).toHaveLength(2)
    expect(errors[0]).toMatchObject({ code: 'session_deleted', message: expect.stringMatching(/deleted/) })
    expect(ofType('turn_finished').map((e) => e.reason)).toEqual(['failed', 'failed'])
    expect(fx.server.chatRequests()).toHaveLength(0)
  })

  it('keeps the previous answer when regenerating cannot drop it, and can regenerate afterwards', async () => {
    fx.server.enqueue({ text: 'First answer.' }, { text: 'Second answer.' })
    const { session, ofType } = fx.open()
    await session.runTurn('answer me').done
    vi.spyOn(fx.core.sessions, 'forkAfter').mockImplementationOnce(() => {
      throw databaseLocked()
    })

    expect((await session.regenerate().done).reason).toBe('failed')
    expect(ofType('error')[0].message).toMatch(/database is locked/)
    expect(fx.core.sessions.messages(session.id).map((m) => m.content)).toEqual(['answer me', 'First answer.'])

    expect((await session.regenerate().done).answer).toBe('Second answer.')
    expect(fx.core.sessions.messages(session.id).map((m) => m.content)).toEqual(['answer me', 'Second answer.'])
  })

  it('refuses a second turn while one runs, at once and without disturbing the first', async () => {
    fx.server.enqueue({ text: 'one two three', chunkDelayMs: 20 })
    const { session } = fx.open()
    const running = session.runTurn('count')
    expect(() => session.runTurn('again')).toThrow(/already running/)
    expect((await running.done).answer).toBe('one two three')
  })
})

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { searchSessions, VersionError } from '../../../electron/core/sessions'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'

let fx: AgentFixture

beforeEach(async () => {
  fx = await agentFixture()
})
afterEach(async () => {
  await fx.close()
})

const shown = (sessionId: string) => fx.core.sessions.messages(sessionId, { includeCompacted: true }).map((m) => `${m.role}: ${m.content ?? ''}`)
const lastUserContent = (index: number) => {
  const messages = fx.server.chatRequests()[index].body.messages as Array<{ role: string; content: unknown }>
  return messages.filter((m) => m.role === 'user').map((m) => m.content)
}

describe('answering again keeps the earlier answers as versions', () => {
  it('shows the new answer, keeps the old one, and switches back and forth without losing either', async () => {
    fx.server.enqueue({ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'Third answer.' })
    const { session } = fx.open()
    await session.runTurn('Name a colour').done
    await session.regenerate().done
    expect(shown(session.id)).toEqual(['user: Name a colour', 'assistant: Second answer.'])
    // The model was asked the same question once, without the first answer in its history.
    expect(lastUserContent(1)).toEqual(['Name a colour'])
    expect((fx.server.chatRequests()[1].body.messages as unknown[]).length).toBe(2)

    await session.regenerate().done
    const [group] = fx.core.sessions.versions(session.id)
    expect(group.branches).toHaveLength(3)
    expect(group.branches.indexOf(null)).toBe(2)

    session.showVersion(group.branches[0]!)
    expect(shown(session.id)).toEqual(['user: Name a colour', 'assistant: First answer.'])
    const [again] = fx.core.sessions.versions(session.id)
    expect(again.branches.indexOf(null)).toBe(0)
    expect(again.branches).toHaveLength(3)
    expect(fx.core.sessions.get(session.id)!.messageCount).toBe(2)
  })

  it('goes on from the version shown: the next turn sees that answer, not the others', async () => {
    fx.server.enqueue({ text: 'Blue.' }, { text: 'Green.' }, { text: 'You chose blue.' })
    const { session } = fx.open()
    await session.runTurn('Pick a colour').done
    await session.regenerate().done
    session.showVersion(fx.core.sessions.versions(session.id)[0].branches[0]!)
    await session.runTurn('What did you pick?').done
    const history = fx.server.chatRequests()[2].body.messages as Array<{ role: string; content: unknown }>
    expect(history.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual(['Pick a colour', 'Blue.', 'What did you pick?'])
  })
})

describe('editing a sent message', () => {
  it('sends the new words in its place and keeps the old turn and what followed as another version', async () => {
    fx.server.enqueue({ text: 'Paris.' }, { text: 'About 2 million.' }, { text: 'Rome.' })
    const { session } = fx.open()
    await session.runTurn('Capital of France?').done
    await session.runTurn('Population?').done
    const first = fx.core.sessions.messages(session.id)[0]

    await session.editAndResend(first.id, 'Capital of Italy?').done
    expect(shown(session.id)).toEqual(['user: Capital of Italy?', 'assistant: Rome.'])
    const [group] = fx.core.sessions.versions(session.id)
    expect(group).toMatchObject({ afterId: 0 })
    expect(group.branches).toEqual([expect.any(Number), null])

    // Search finds what is shown, not the versions set aside.
    expect(searchSessions(fx.core.db, 'Population').sessions).toEqual([])
    expect(searchSessions(fx.core.db, 'Italy').sessions.map((hit) => hit.sessionId)).toEqual([session.id])

    session.showVersion(group.branches[0]!)
    expect(shown(session.id)).toEqual(['user: Capital of France?', 'assistant: Paris.', 'user: Population?', 'assistant: About 2 million.'])
    expect(searchSessions(fx.core.db, 'Population').sessions.map((hit) => hit.sessionId)).toEqual([session.id])
  })

  it('keeps versions inside versions: an answer made again in a stored version comes back with it', async () => {
    fx.server.enqueue({ text: 'A1' }, { text: 'A2' }, { text: 'B1' })
    const { session } = fx.open()
    await session.runTurn('question').done
    await session.regenerate().done // versions of the answer: A1, A2
    const question = fx.core.sessions.messages(session.id)[0]
    await session.editAndResend(question.id, 'other question').done // versions of the question
    expect(fx.core.sessions.versions(session.id)).toHaveLength(1)

    session.showVersion(fx.core.sessions.versions(session.id)[0].branches[0]!)
    expect(shown(session.id)).toEqual(['user: question', 'assistant: A2'])
    const groups = fx.core.sessions.versions(session.id)
    expect(groups.map((g) => g.branches.length)).toEqual([2, 2])
  })

  it('refuses a message that is not the user’s, with a clear error and nothing changed', async () => {
    fx.server.enqueue({ text: 'Hi.' })
    const { session } = fx.open()
    await session.runTurn('hello').done
    const answer = fx.core.sessions.messages(session.id)[1]
    expect(() => session.editAndResend(answer.id, 'x')).toThrow(VersionError)
    expect(() => session.editAndResend(123456, 'x')).toThrow(/Only a message you sent/)
    expect(shown(session.id)).toEqual(['user: hello', 'assistant: Hi.'])
  })

  it('refuses to fork a part that was condensed away, keeping the conversation as it is', async () => {
    fx.server.enqueue({ text: 'one' }, { text: 'two' })
    const { session } = fx.open()
    await session.runTurn('first').done
    await session.runTurn('second').done
    const [firstUser, firstAnswer] = fx.core.sessions.messages(session.id)
    fx.core.sessions.markCompacted(session.id, [firstUser.id, firstAnswer.id])
    fx.core.sessions.append(session.id, { role: 'summary', content: 'They said first.', meta: { coversThrough: firstAnswer.id } })
    const summary = await session.editAndResend(firstUser.id, 'changed').done
    expect(summary.reason).toBe('failed')
    expect(fx.server.chatRequests()).toHaveLength(2)
    expect(fx.core.sessions.versions(session.id)).toEqual([])
    expect(shown(session.id).filter((line) => line.startsWith('user'))).toEqual(['user: first', 'user: second'])
  })
})

describe('each answer records its model and usage', () => {
  it('stores the model that wrote it and the tokens the provider reported', async () => {
    fx.server.enqueue({ text: 'Counted.', usage: { prompt_tokens: 120, completion_tokens: 7 } })
    const { session } = fx.open()
    await session.runTurn('count my tokens').done
    const answer = fx.core.sessions.messages(session.id)[1]
    expect(answer.meta).toMatchObject({ model: 'scripted' })
    expect(answer).toMatchObject({ promptTokens: 120, completionTokens: 7 })
  })
})

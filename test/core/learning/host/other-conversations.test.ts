import { describe, expect, it } from 'vitest'
import { withOtherConversations, type OtherConversation } from '../../../../electron/core/learning/host/other-conversations'
import type { MessageRecord, SessionRecord } from '../../../../electron/core/sessions'

const message = (id: number, sessionId: string, role: 'user' | 'assistant', content: string): MessageRecord => ({
  id,
  sessionId,
  role,
  content,
  toolCalls: null,
  toolCallId: null,
  toolName: null,
  createdAt: id,
  promptTokens: null,
  completionTokens: null,
  cachedTokens: null,
  finishReason: null,
  compacted: false,
  meta: null
})

function other(id: string, updatedAt: number, turns: string[]): OtherConversation {
  const records = turns.flatMap((text, i) => [message(updatedAt * 100 + 2 * i, id, 'user', text), message(updatedAt * 100 + 2 * i + 1, id, 'assistant', 'Noted.')])
  return { session: { id, title: id, updatedAt, startedAt: updatedAt } as SessionRecord, records, through: records.at(-1)!.id }
}

describe('other conversations in a memory review', () => {
  it('are taken in whole or not at all, so no turn is marked reviewed that the review did not read', () => {
    const long = other('long', 2, Array.from({ length: 40 }, (_, i) => `Turn ${i}: ${'a long story about the garden '.repeat(20)}`))
    const short = other('short', 1, ['I moved to Lisbon last month.'])
    const { messages, included } = withOtherConversations(() => [{ role: 'user', content: 'Current conversation.' }], [long, short], 20_000)
    expect(included.map((conversation) => conversation.session.id)).toEqual(['short'])
    const text = messages.map((m) => m.content).join('\n')
    expect(text).toContain('I moved to Lisbon last month.')
    expect(text).not.toContain('garden')
  })
})

import { describe, expect, it } from 'vitest'
import { SUMMARY_PREFIX } from '../../../electron/core/agent/history'
import type { Recorded } from '../../helpers/agent-fixture'
import { answerText, expectToolPairs, filler, messagesOf, rig, turnsUntilCompressed, userText } from '../../helpers/compression-rig'

/** A session after a compression: resumed, compressed again, regenerated. */
describe('a compressed session, later', () => {
  it('resumes a compressed session as head + summary + tail, and folds the first summary into the second', async () => {
    const r = await rig()
    const recorded = r.open()
    const { session } = recorded
    let turn = await turnsUntilCompressed(r, recorded, 1, 1)

    // A resumed session sends exactly what the live one would: no compacted message.
    const resumed = r.open(session.id).session
    expect(resumed.systemPrompt).toBe(session.systemPrompt)
    expect(resumed.modelMessages()).toEqual(session.modelMessages())
    await resumed.runTurn(userText(turn++)).done
    const resumedRequest = messagesOf(r.mainRequests().at(-1)!)
    const compactedIds = new Set(r.compressions[0].messages.map((m) => m.id))
    for (const record of r.compressions[0].messages) {
      if (record.content) expect(resumedRequest.some((m) => m.content === record.content)).toBe(false)
    }
    expect(resumedRequest.filter((m) => m.content?.startsWith(SUMMARY_PREFIX))).toHaveLength(1)
    expect(resumedRequest[1].content).toBe(userText(1))
    expect(resumedRequest[2].content).toBe(answerText(1))
    expect(resumedRequest[3].content).toBe(SUMMARY_PREFIX + r.f.core.sessions.messages(session.id).find((m) => m.role === 'summary')!.content)
    expect(compactedIds.size).toBeGreaterThan(0)

    // Keep going in the resumed session until it compresses again.
    const continued: Recorded = { ...recorded, session: resumed }
    turn = await turnsUntilCompressed(r, continued, turn, 2)
    const second = r.summaryRequests()[1]
    const transcript = messagesOf(second)[1].content!
    expect(transcript).toContain('(earlier summary)')
    expect(transcript).toContain('summary-marker-1')
    expect(r.compressions[1].messages[0].role).toBe('summary')

    const stored = r.f.core.sessions.messages(session.id)
    expect(stored.filter((m) => m.role === 'summary').map((m) => m.content)).toEqual([expect.stringContaining('summary-marker-2')])
    const all = r.f.core.sessions.messages(session.id, { includeCompacted: true })
    expect(all.find((m) => m.content?.includes('summary-marker-1'))?.compacted).toBe(true)

    const last = messagesOf(r.mainRequests().at(-1)!)
    expect(last.filter((m) => m.content?.startsWith(SUMMARY_PREFIX)).map((m) => m.content)).toEqual([expect.stringContaining('summary-marker-2')])
    expect(last[3].content).toContain('summary-marker-2')

    // After two compressions a resumed session still sees the same conversation, in the same order.
    const again = r.open(session.id).session
    expect(again.modelMessages()).toEqual(resumed.modelMessages())
    const roles = again.modelMessages().map((m) => m.role)
    expect(roles.slice(0, 4)).toEqual(['system', 'user', 'assistant', 'user'])
    for (const request of r.f.server.chatRequests()) expectToolPairs(messagesOf(request))
  })

  it('keeps the summary right after the first exchange when compressions follow each other closely', async () => {
    // A long first answer is kept verbatim in the head, so the context stays near the threshold and
    // the next compression comes after one turn, folding part of the previous tail.
    const r = await rig({
      main: (request) => {
        const last = messagesOf(request).at(-1)!
        const turn = Number(/^Question (\d+)/.exec(last.content ?? '')?.[1] ?? 0)
        return { text: turn === 1 ? `Answer 1: ${filler(1, 14_000)}` : answerText(turn) }
      }
    })
    const recorded = r.open()
    const { session } = recorded
    await turnsUntilCompressed(r, recorded, 1, 2)
    for (const request of r.mainRequests().filter((req) => messagesOf(req).some((m) => m.content?.startsWith(SUMMARY_PREFIX)))) {
      const sent = messagesOf(request)
      expect(sent.map((m) => m.role).slice(0, 4)).toEqual(['system', 'user', 'assistant', 'user'])
      expect(sent[3].content).toMatch(/^\[CONTEXT SUMMARY/)
      expect(sent.filter((m) => m.content?.startsWith(SUMMARY_PREFIX))).toHaveLength(1)
      // The tail follows in the order it was said.
      const questions = sent.slice(4).flatMap((m) => (m.role === 'user' ? [Number(/^Question (\d+)/.exec(m.content ?? '')?.[1])] : []))
      expect(questions).toEqual([...questions].sort((a, b) => a - b))
    }
    expect(r.open(session.id).session.modelMessages()).toEqual(session.modelMessages())
  })
})

describe('regenerating after a compression', () => {
  it('keeps the summary (it stands for older turns) and answers the same question again', async () => {
    const r = await rig()
    const { session } = r.open()
    let turn = 1
    while (r.compressions.length === 0 && turn < 20) {
      const summary = await session.runTurn(userText(turn)).done
      expect(summary.reason).toBe('completed')
      turn++
    }
    expect(r.compressions.length).toBe(1)
    const lastQuestion = userText(turn - 1)
    const before = session.modelMessages()
    expect(before.some((m) => typeof m.content === 'string' && m.content.startsWith(SUMMARY_PREFIX))).toBe(true)

    const again = await session.regenerate().done
    expect(again.reason).toBe('completed')
    const stored = r.f.core.sessions.messages(session.id)
    expect(stored.filter((m) => m.role === 'summary')).toHaveLength(1)
    expect(stored.filter((m) => m.role === 'user' && m.content === lastQuestion)).toHaveLength(1)
    // The model still sees the summary in place of the compacted turns, and the question once.
    const after = messagesOf(r.mainRequests().at(-1)!)
    expect(after.filter((m) => typeof m.content === 'string' && m.content.startsWith(SUMMARY_PREFIX))).toHaveLength(1)
    expect(after.filter((m) => m.role === 'user' && m.content === lastQuestion)).toHaveLength(1)
    // A resumed session agrees with the live one.
    const resumed = r.open(session.id)
    expect(resumed.session.modelMessages()).toEqual(session.modelMessages())
  })
})

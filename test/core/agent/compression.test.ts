import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SUMMARY_PREFIX } from '../../../electron/core/agent/history'
import { searchSessions, type MessageRecord } from '../../../electron/core/sessions'
import { THRESHOLD, answerText, asRequestMessages, expectToolPairs, filler, messagesOf, rig, userText } from '../../helpers/compression-rig'

/** What one compression sends to the summariser, keeps verbatim and stores; and a summariser that fails. */
describe('context compression', () => {
  it('summarises the middle with the model and keeps the prompt, the first exchange and the latest turns', async () => {
    const r = await rig()
    const recorded = r.open()
    const { session } = recorded
    const promptAtStart = session.systemPrompt
    await session.runTurn(userText(1)).done
    await session.runTurn('Please remember that the staging host is stg-7.internal. quokka').done
    expect(session.systemPrompt).toBe(promptAtStart) // frozen until the compression
    const allBefore = () => r.f.core.sessions.messages(session.id)
    let lastTurn = 2
    let before: MessageRecord[] = []
    while (r.compressions.length === 0) {
      before = allBefore()
      lastTurn++
      await session.runTurn(userText(lastTurn)).done
      if (lastTurn > 25) throw new Error('never compressed')
    }

    // The summariser was asked once, with the structured template and without tools.
    const [summaryRequest] = r.summaryRequests()
    expect(r.summaryRequests()).toHaveLength(1)
    const template = messagesOf(summaryRequest)[0].content!
    for (const section of ['## Goal', '## Constraints and preferences', '## Completed actions', '## Current state', '## Key decisions', '## Open questions', '## Relevant files and commands', '## Remaining work', '## Critical context']) {
      expect(template).toContain(section)
    }
    expect(template).toMatch(/\[REDACTED\]/)
    expect(summaryRequest.body.tools).toBeUndefined()
    const transcript = messagesOf(summaryRequest)[1].content!

    // The hook saw exactly the messages summarised, which are now compacted in the database.
    const [event] = r.compressions
    expect(event.sessionId).toBe(session.id)
    const middle = event.messages
    const compacted = r.f.core.sessions.messages(session.id, { includeCompacted: true }).filter((m) => m.compacted)
    expect(compacted.map((m) => m.id)).toEqual(middle.map((m) => m.id))
    for (const record of middle) if (record.content) expect(transcript).toContain(record.content.slice(0, 200))
    expect(transcript).not.toContain(userText(1).slice(0, 200))
    expect(transcript).not.toContain(userText(lastTurn).slice(0, 200))

    // head = first exchange, middle = everything up to the kept tail, tail = the latest turns.
    const head = before.slice(0, 2)
    expect(head.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(middle[0].id).toBe(before[2].id)
    const tail = before.filter((m) => m.id > middle.at(-1)!.id)
    expect(tail.length).toBeGreaterThan(0)
    expect(middle.some((m) => m.content?.includes('quokka'))).toBe(true)

    // The summary is its own stored message and stands for the middle.
    const summaryRecord = r.f.core.sessions.messages(session.id).find((m) => m.role === 'summary')!
    expect(summaryRecord.content).toContain('summary-marker-1')
    expect(summaryRecord.meta).toEqual({ coversThrough: middle.at(-1)!.id })

    // The next call: the rebuilt prompt, the first exchange, the summary, the tail, the new question, verbatim.
    const afterCompression = r.mainRequests().find((request) => messagesOf(request).some((m) => m.content?.startsWith(SUMMARY_PREFIX)))!
    const sent = messagesOf(afterCompression)
    expect(sent[0].role).toBe('system')
    expect(sent.slice(1)).toEqual(asRequestMessages([...head, summaryRecord, ...tail, allBefore().find((m) => m.content === userText(lastTurn))!]))

    // The prompt was rebuilt: the memory saved mid-session is in it now, and stored.
    expect(promptAtStart).not.toContain('stg-7.internal')
    expect(session.systemPrompt).not.toBe(promptAtStart)
    expect(session.systemPrompt).toContain('The staging host is stg-7.internal')
    expect(sent[0].content).toBe(session.systemPrompt)
    expect(r.f.core.sessions.get(session.id)!.systemPrompt).toBe(session.systemPrompt)

    const [compressed] = recorded.ofType('compressed')
    expect(compressed.summarizedMessages).toBe(middle.length)
    expect(compressed.tokensBefore).toBeGreaterThan(THRESHOLD)
    expect(compressed.tokensAfter).toBeLessThan(compressed.tokensBefore)

    // Compacted messages stay searchable.
    const found = searchSessions(r.f.core.db, 'quokka')
    expect(found.sessions[0]?.sessionId).toBe(session.id)
    expect(middle.map((m) => m.id)).toContain(found.sessions[0].matchMessageId)

    for (const request of r.f.server.chatRequests()) expectToolPairs(messagesOf(request))
  })

  it('compresses a single very long turn of tool calls without splitting a call from its result', async () => {
    let reads = 0
    const r = await rig({
      main: () => {
        reads++
        if (reads <= 16) return { text: `Reading part ${reads}.`, toolCalls: [{ name: 'read_file', arguments: { path: `part-${reads}.txt` } }] }
        return { text: 'I read all sixteen parts: they describe the rivers.' }
      }
    })
    for (let i = 1; i <= 16; i++) writeFileSync(join(r.f.workspace, `part-${i}.txt`), `part ${i}\n${filler(i, 2400)}\n`)
    const recorded = r.open()
    const summary = await recorded.session.runTurn('Read part-1.txt to part-16.txt and tell me what they describe.').done

    expect(summary.reason).toBe('completed')
    expect(summary.answer).toBe('I read all sixteen parts: they describe the rivers.')
    expect(summary.toolCalls).toHaveLength(16)
    expect(r.compressions.length).toBeGreaterThanOrEqual(1)
    // Only the request is kept as the head; the summary follows it; the tail starts with a call.
    const [first] = r.compressions
    expect(first.messages[0].role).toBe('assistant')
    const afterCompression = r.mainRequests().find((request) => messagesOf(request).some((m) => m.content?.startsWith(SUMMARY_PREFIX)))!
    const sent = messagesOf(afterCompression)
    expect(sent[1]).toEqual({ role: 'user', content: 'Read part-1.txt to part-16.txt and tell me what they describe.' })
    expect(sent[2].content).toContain(SUMMARY_PREFIX)
    expect(sent[3].role).toBe('assistant')
    expect(sent[3].tool_calls).toHaveLength(1)
    for (const request of r.f.server.chatRequests()) expectToolPairs(messagesOf(request))
    // Every tool result is still stored, compacted or not.
    const results = r.f.core.sessions.messages(recorded.session.id, { includeCompacted: true }).filter((m) => m.role === 'tool')
    expect(results).toHaveLength(16)
    expect(results.filter((m) => m.compacted).length).toBeGreaterThan(0)
  })

  it('keeps the turn going when the summariser fails, and tries again only on the next turn', async () => {
    let failSummaries = true
    let step = 0
    // A window smaller than the tool list: every call wants a compression once there is a middle to summarise.
    const r = await rig(
      {
        summary: (n) => (failSummaries ? { fault: { type: 'http', status: 400 } } : { text: `## Goal\nsummary-marker-${n}` }),
        main: (request) => {
          const last = messagesOf(request).at(-1)!
          if (last.role === 'user' && last.content === 'Run two lookups.') return { toolCalls: [{ name: 'skills_list', arguments: {} }] }
          if (last.role === 'tool' && step++ === 0) return { toolCalls: [{ name: 'skills_list', arguments: {} }] }
          if (last.role === 'tool') return { text: 'Both lookups done.' }
          return { text: answerText(Number(/^Question (\d+)/.exec(last.content ?? '')?.[1] ?? 0)) }
        }
      },
      { context: { windowTokens: 4000, compressAt: 0.5 } }
    )
    const recorded = r.open()
    const { session } = recorded
    for (let turn = 1; turn <= 2; turn++) await session.runTurn(userText(turn)).done
    expect(r.summaryRequests()).toHaveLength(0)
    const summary = await session.runTurn('Run two lookups.').done

    expect(summary.reason).toBe('completed')
    expect(summary.answer).toBe('Both lookups done.')
    expect(summary.iterations).toBe(3)
    const errors = recorded.ofType('error')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ code: 'compression_failed', retryable: false })
    expect(errors[0].message).toMatch(/Could not condense the conversation/)
    expect(r.summaryRequests()).toHaveLength(1) // not retried on every step of the same turn
    expect(recorded.ofType('compressed')).toHaveLength(0)
    // Nothing was lost: nothing compacted, no summary, the full history went to the model.
    expect(r.f.core.sessions.messages(session.id, { includeCompacted: true }).some((m) => m.compacted || m.role === 'summary')).toBe(false)
    const lastRequest = messagesOf(r.mainRequests().at(-1)!)
    expect(lastRequest.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([userText(1), userText(2), 'Run two lookups.'])

    // The next turn tries again, and this time the summariser works.
    failSummaries = false
    const next = await session.runTurn(userText(3)).done
    expect(next.reason).toBe('completed')
    expect(recorded.ofType('compressed')).toHaveLength(1)
    expect(r.f.core.sessions.messages(session.id).some((m) => m.role === 'summary')).toBe(true)
    for (const request of r.f.server.chatRequests()) expectToolPairs(messagesOf(request))
  })
})

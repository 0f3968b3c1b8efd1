import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AgentEvent } from '../../../shared/agent-events'
import { searchSessions } from '../../../electron/core/sessions'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { snapshotHome } from '../../helpers/home-snapshot'

let fx: AppFixture | undefined

afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const SKILL = `---
name: rotate-logs
description: Rotate and compress the app's log files without losing lines.
---
# Rotate logs
1. Run logrotate with the app's config.
`

/** A text file as the renderer sends it (base64). */
const textFile = (name: string, text: string) => ({ name, mime: 'text/plain', data: Buffer.from(text).toString('base64') })

/** The user's learned store, so a prompt that leaked it would show: a memory entry, a profile entry and a skill. */
async function learnedStore(app: AppFixture): Promise<void> {
  await app.core.memory.add('memory', 'The NAS is at 10.0.0.7 (okapiwharf)', { write: { source: 'user' } })
  await app.core.memory.add('user', 'Prefers tea over coffee (marmotglen)', { write: { source: 'user' } })
  await app.core.skills.create({ name: 'rotate-logs', category: 'ops', content: SKILL }, { source: 'user' })
}

async function finished(app: AppFixture, sessionId: string): Promise<void> {
  await app.waitFor('chat.status', (status) => status.sessionId === sessionId && !status.running)
}

describe('incognito chats in the app', () => {
  it('leaves the data home as it was: no session, messages, attachments, index rows or files, only what its tools wrote in the workspace', async () => {
    fx = await appFixture({ config: { learning: { memoryNudgeInterval: 1, skillNudgeInterval: 1 } } })
    await learnedStore(fx)
    const before = snapshotHome(fx.home, fx.core.db)
    const afterTurn = vi.spyOn(fx.app.loop as unknown as { afterTurn(summary: unknown): void }, 'afterTurn')
    const endConversation = vi.spyOn(fx.app.loop, 'endConversation')

    // A model at its worst: one tool call per response, a blind write to the memory it was not given, a
    // search of past chats it was not given either, then a real write in the workspace.
    fx.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Works on project quokkafern' } }] },
      { toolCalls: [{ name: 'session_search', arguments: { query: 'tea' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'quokkafern notes\n' } }] },
      { text: 'Saved notes.txt about quokkafern.' }
    )
    const { sessionId } = await fx.ok('chat.send', {
      sessionId: null,
      text: 'Remember I work on quokkafern and write notes',
      incognito: true,
      attachments: [textFile('brief.txt', 'The brief mentions velvetcrane.')]
    })
    const approval = (await fx.waitFor('chat.event', (e) => e.type === 'approval_needed' && e.sessionId === sessionId)) as Extract<AgentEvent, { type: 'approval_needed' }>
    await fx.ok('chat.approve', { sessionId, requestId: approval.requestId, allow: true })
    await finished(fx, sessionId)

    // The model got the attachment and the workspace tools, and nothing of the learned store.
    const first = fx.server.chatRequests()[0].body
    const system = String(first.messages[0].content)
    expect(system).toContain('You are Cairn')
    for (const leaked of ['okapiwharf', 'marmotglen', 'rotate-logs', '## Memory', '## Skills', 'session_search', 'MEMORY']) expect(system).not.toContain(leaked)
    const toolNames = (first.tools ?? []).map((tool) => (tool as { function: { name: string } }).function.name)
    expect(toolNames).toContain('write_file')
    for (const absent of ['memory', 'skill_manage', 'skill_view', 'session_search']) expect(toolNames).not.toContain(absent)
    expect(JSON.stringify(first.messages.at(-1))).toContain('velvetcrane')
    const results = fx.events.flatMap((e) => (e.name === 'chat.event' && (e.payload as AgentEvent).type === 'tool_call_finished' ? [e.payload as Extract<AgentEvent, { type: 'tool_call_finished' }>] : []))
    expect(results.map((r) => r.ok)).toEqual([false, false, true])

    // While it is open the chat reads it back (marked incognito), but nothing lists, searches or announces it.
    const open = await fx.ok('sessions.get', { sessionId })
    expect(open.session.incognito).toBe(true)
    expect(open.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant'])
    expect((await fx.ok('sessions.list', {})).sessions.map((s) => s.id)).not.toContain(sessionId)
    expect((await fx.ok('sessions.search', { query: 'quokkafern' })).hits).toEqual([])
    expect(searchSessions(fx.core.db, 'velvetcrane', { includeCurrent: true }).sessions).toEqual([])
    expect(fx.events.filter((e) => e.name === 'sessions.changed' && (e.payload as { sessionId: string }).sessionId === sessionId)).toEqual([])
    for (const refused of ['sessions.rename', 'sessions.export'] as const) {
      const input = refused === 'sessions.rename' ? { sessionId, title: 'x' } : { sessionId, format: 'md' as const }
      expect(await fx.call(refused, input as never)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    }

    // The learning loop never saw it: no turn counted, no review queued, not even when it ends.
    fx.app.chats.endAll('new_conversation')
    expect(afterTurn).not.toHaveBeenCalled()
    expect(endConversation).not.toHaveBeenCalled()
    expect(fx.app.host.status()).toMatchObject({ running: null, queued: 0 })

    expect(await fx.ok('chat.discard', { sessionId })).toEqual({ discarded: true })
    expect(await fx.call('sessions.get', { sessionId })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    expect(await fx.call('chat.send', { sessionId, text: 'still there?' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })

    // Only the workspace file the tool wrote exists; the data home is byte for byte and row for row what it was.
    expect(readFileSync(join(fx.userHome, 'Cairn', 'notes.txt'), 'utf8')).toBe('quokkafern notes\n')
    expect(existsSync(join(fx.home, 'attachments'))).toBe(false)
    expect(snapshotHome(fx.home, fx.core.db)).toEqual(before)
  })

  it('counts a saved conversation the same way (the control: the loop does see ordinary turns)', async () => {
    fx = await appFixture()
    const afterTurn = vi.spyOn(fx.app.loop as unknown as { afterTurn(summary: unknown): void }, 'afterTurn')
    fx.server.enqueue({ text: 'Hello.' })
    const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'hello' })
    await finished(fx, sessionId)
    expect(afterTurn).toHaveBeenCalledTimes(1)
    expect((await fx.ok('sessions.list', {})).sessions.map((s) => s.id)).toContain(sessionId)
  })

  it('keeps answering in the same incognito conversation, and drops it when the app closes', async () => {
    fx = await appFixture()
    fx.server.enqueue({ text: 'First.' }, { text: 'Second.' })
    const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'one', incognito: true })
    await finished(fx, sessionId)
    fx.events.length = 0
    await fx.ok('chat.send', { sessionId, text: 'two' })
    await finished(fx, sessionId)
    const second = fx.server.chatRequests()[1].body.messages.map((m) => m.role)
    expect(second).toEqual(['system', 'user', 'assistant', 'user'])
    expect((await fx.ok('sessions.get', { sessionId })).messages).toHaveLength(4)

    await fx.app.chats.cancelAll() // what closing the app does first
    expect(fx.app.chats.incognitoSessions(sessionId)).toBeNull()
    expect(await fx.call('sessions.get', { sessionId })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })

  it('validates the route: only a new conversation starts incognito, and discarding a saved one does nothing', async () => {
    fx = await appFixture()
    fx.server.enqueue({ text: 'Saved.' })
    const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'keep me' })
    await finished(fx, sessionId)
    expect(await fx.call('chat.send', { sessionId, text: 'now hide', incognito: true })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect(await fx.call('chat.discard', { sessionId: 42 } as never)).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect(await fx.ok('chat.discard', { sessionId })).toEqual({ discarded: false })
    expect(fx.core.sessions.get(sessionId)).not.toBeNull()
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { exportSession, exportStream, SessionNotFoundError, SessionStore } from '../../../electron/core/sessions'

let dir: string
let db: StateDb
let store: SessionStore

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-export-'))
  db = openStateDb(join(dir, 'state.db'))
  store = new SessionStore(db)
})
afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

const HINT = '\n\n[Cairn: skills that may help: deploy-compose]'

/** A conversation with a hinted user message, a tool call and its JSON result, and an answer quoting a code fence. */
function conversation() {
  const session = store.create({ title: 'Deploy: staging/prod?', model: 'gpt-test', workspace: '/home/me/Cairn', startedAt: Date.UTC(2026, 10, 30, 9) })
  store.appendMany(session.id, [
    { role: 'user', content: 'How do I deploy?', meta: { hint: HINT }, createdAt: 1000 },
    { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'terminal', arguments: '{"command":"ls deploy"}' }], createdAt: 2000 },
    { role: 'tool', toolCallId: 'c1', toolName: 'terminal', content: JSON.stringify({ exit_code: 0, output: 'compose.yml\nREADME.md' }), createdAt: 3000 },
    { role: 'assistant', content: 'Run:\n```sh\ndocker compose up -d\n```', createdAt: 4000 }
  ])
  return session
}

describe('session flags', () => {
  it('renaming, pinning, archiving and choosing its model keep the conversation where it was in time', () => {
    const older = store.create({ startedAt: 1000 })
    store.append(older.id, { role: 'user', content: 'first', createdAt: 1000 })
    const newer = store.create({ startedAt: 2000 })
    store.append(newer.id, { role: 'user', content: 'second', createdAt: 2000 })

    const renamed = store.update(older.id, { title: 'Groceries' })
    expect(renamed).toMatchObject({ title: 'Groceries', updatedAt: 1000 })
    expect(store.update(older.id, { pinned: true, archived: true })).toMatchObject({ pinned: true, archived: true, updatedAt: 1000 })
    expect(store.update(older.id, { model: 'gpt-big' })).toMatchObject({ model: 'gpt-big', updatedAt: 1000 })
    expect(store.list().map((s) => s.id)).toEqual([newer.id, older.id])
    expect(store.update(older.id, { pinned: false })).toMatchObject({ pinned: false, archived: true })
    expect(new SessionStore(db).get(older.id)).toMatchObject({ pinned: false, archived: true, title: 'Groceries' })
    expect(store.get(newer.id)).toMatchObject({ pinned: false, archived: false })
  })

  it('an empty patch changes nothing, and an unknown session is an error', () => {
    const session = store.create({ startedAt: 5 })
    expect(store.update(session.id, {}).updatedAt).toBe(5)
    expect(() => store.update('nope', { pinned: true })).toThrow(SessionNotFoundError)
  })
})

describe('exportSession', () => {
  it('heads imported answers by the app and model that wrote them, named by the face exporting', () => {
    const session = store.create({ title: 'Sourdough', source: 'import:chatgpt', model: null })
    store.appendMany(session.id, [
      { role: 'user', content: 'Is it dead?', meta: { importedFrom: 'chatgpt' } },
      { role: 'assistant', content: 'Not dead.', meta: { importedFrom: 'chatgpt', model: 'o3' } },
      { role: 'assistant', content: 'Feed it.', meta: { importedFrom: 'chatgpt' } },
      { role: 'user', content: 'And now?' },
      { role: 'assistant', content: 'Bake.', meta: { model: 'scripted' } }
    ])
    const named = exportSession(store, session.id, 'md', { importedSpeaker: ({ app, model }) => `${app === 'chatgpt' ? 'ChatGPT' : app}${model ? ` (${model})` : ''}` }).text
    expect(named).toContain('## ChatGPT (o3)\n\nNot dead.')
    expect(named).toContain('## ChatGPT\n\nFeed it.')
    expect(named).toContain('## Cairn\n\nBake.')
    // Without a namer: the app as stored.
    expect(exportSession(store, session.id, 'md').text).toContain('## chatgpt (o3)\n\nNot dead.')
    const json = JSON.parse(exportSession(store, session.id, 'json').text) as { messages: Array<{ importedFrom?: unknown }> }
    expect(json.messages[1].importedFrom).toEqual({ app: 'chatgpt', model: 'o3' })
    expect(json.messages[4].importedFrom).toBeUndefined()
  })

  it('writes Markdown with the user words, readable tool calls and results, and no skill hint', () => {
    const session = conversation()
    const file = exportSession(store, session.id, 'md')
    expect(file.mimeType).toBe('text/markdown')
    expect(file.fileName).toBe(`Deploy-staging-prod-${session.id}.md`)
    expect(file.text).not.toContain('[Cairn: skills')
    expect(file.text).toContain('# Deploy: staging/prod?\n')
    expect(file.text).toContain('- Model: gpt-test')
    expect(file.text).toContain('## You\n\nHow do I deploy?\n')
    expect(file.text).toContain('**Tool call:** `terminal`\n\n```json\n{\n  "command": "ls deploy"\n}\n```')
    // The result's multi-line output is shown as lines, never as a literal \n.
    expect(file.text).toContain('**Result of `terminal`:**\n\n```\nexit_code: 0\noutput:\ncompose.yml\nREADME.md\n```')
    expect(file.text).not.toContain('\\n')
    // The answer's own fence is kept as written.
    expect(file.text).toContain('## Cairn\n\nRun:\n```sh\ndocker compose up -d\n```')
  })

  it('fences a tool result longer than any backticks inside it', () => {
    const session = store.create({})
    store.appendMany(session.id, [
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: 'a\n```\nb' }
    ])
    expect(exportSession(store, session.id, 'md').text).toContain('````\na\n```\nb\n````')
  })

  it('writes JSON with parsed tool arguments, compacted messages included and no hint', () => {
    const session = conversation()
    const first = store.messages(session.id)[0]
    store.markCompacted(session.id, [first.id])
    const file = exportSession(store, session.id, 'json')
    expect(file.fileName.endsWith('.json')).toBe(true)
    expect(file.text).not.toContain('[Cairn: skills')
    const parsed = JSON.parse(file.text)
    expect(parsed).toMatchObject({
      format: 'cairn-conversation',
      version: 1,
      session: { id: session.id, title: 'Deploy: staging/prod?', model: 'gpt-test', startedAt: '2026-11-30T09:00:00.000Z' }
    })
    expect(parsed.messages).toHaveLength(4)
    expect(parsed.messages[0]).toMatchObject({ role: 'user', content: 'How do I deploy?', compacted: true })
    expect(parsed.messages[0]).not.toHaveProperty('meta')
    expect(parsed.messages[1].toolCalls).toEqual([{ id: 'c1', name: 'terminal', arguments: { command: 'ls deploy' } }])
    expect(parsed.messages[2]).toMatchObject({ role: 'tool', toolCallId: 'c1', toolName: 'terminal' })
  })

  it('names an untitled conversation by its id and refuses an unknown one', () => {
    const session = store.create({})
    expect(exportSession(store, session.id, 'md')).toMatchObject({ fileName: `conversation-${session.id}.md`, text: expect.stringContaining('# Untitled conversation') })
    expect(() => exportSession(store, 'missing', 'json')).toThrow(SessionNotFoundError)
  })
})

describe('exporting a message with files', () => {
  it('names the attached files in both formats, without their text or where they are stored', () => {
    const session = store.create({ title: 'Report', startedAt: 1000 })
    const file = { name: 'report.pdf', kind: 'pdf', mime: 'application/pdf', size: 12345, path: 'attachments/x/abc.pdf', textChars: 40 }
    store.append(session.id, { role: 'user', content: 'Summarise this', meta: { attachments: [file] }, createdAt: 1000 })
    const markdown = exportSession(store, session.id, 'md').text
    expect(markdown).toContain('*Attached:* `report.pdf` (pdf, 12,345 bytes)')
    const json = JSON.parse(exportSession(store, session.id, 'json').text) as { messages: Array<{ attachments?: unknown }> }
    expect(json.messages[0].attachments).toEqual([{ name: 'report.pdf', kind: 'pdf', mime: 'application/pdf', size: 12345 }])
    expect(markdown).not.toContain('attachments/x')
  })
})

describe('exporting a long conversation', () => {
  it('reads it a page at a time and writes the same file as one piece would be', () => {
    const session = store.create({ title: 'Months', startedAt: 1000 })
    store.appendMany(
      session.id,
      Array.from({ length: 1203 }, (_, n) => ({ role: n % 2 ? ('assistant' as const) : ('user' as const), content: `message ${n + 1}`, createdAt: 1000 + n }))
    )
    store.forkAfter(session.id, store.messages(session.id).at(-2)!.id)
    const json = exportStream(store, session.id, 'json')
    const chunks = [...json.chunks]
    expect(chunks.length).toBeGreaterThan(1000)
    const text = chunks.join('')
    const parsed = JSON.parse(text) as { messages: Array<{ content: string }> }
    // Exactly what JSON.stringify writes; the last message, moved into a stored version, is left out.
    expect(text).toBe(`${JSON.stringify(parsed, null, 2)}\n`)
    expect(parsed.messages).toHaveLength(1202)
    expect(parsed.messages.at(-1)?.content).toBe('message 1202')

    const markdown = exportSession(store, session.id, 'md').text
    expect(markdown.match(/^## You$/gm)).toHaveLength(601)
    expect(markdown.endsWith('message 1202\n')).toBe(true)
    expect(markdown).toContain(`- Conversation: ${session.id}\n\n## You\n\nmessage 1\n\n## Cairn\n\nmessage 2\n\n## You`)
  })

  it('writes an empty conversation as valid JSON and a header in Markdown', () => {
    const session = store.create({ title: 'Nothing yet', startedAt: 1000 })
    const text = exportSession(store, session.id, 'json').text
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`)
    expect(JSON.parse(text).messages).toEqual([])
    expect(exportSession(store, session.id, 'md').text.endsWith(`- Conversation: ${session.id}\n`)).toBe(true)
  })
})

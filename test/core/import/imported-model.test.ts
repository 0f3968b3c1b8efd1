import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { importChatExport, importHermes, ImportBatches } from '../../../electron/core/import'
import { importedModelMigration } from '../../../electron/core/db/imported-model-migration'
import { openStateDb } from '../../../electron/core/db/state-db'
import { searchSessions } from '../../../electron/core/sessions/session-search'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'
import { hermesHome, tempDir } from './hermes-home'

const CHATGPT = join(__dirname, '..', '..', 'fixtures', 'chatgpt-export', 'conversations.json')
const CLAUDE = join(__dirname, '..', '..', 'fixtures', 'claude-export', 'conversations.json')

let fixture: AgentFixture | undefined
afterEach(async () => {
  await fixture?.close()
  fixture = undefined
})

const sessionOf = (f: AgentFixture, query: string) => f.core.sessions.get(searchSessions(f.core.db, query).sessions[0].sessionId)!

describe('an imported conversation goes on with the user’s model', () => {
  it('ChatGPT: the next turn asks the user’s provider for the configured model, and the imported answers keep theirs', async () => {
    fixture = await agentFixture()
    await importChatExport(fixture.core, { app: 'chatgpt', path: CHATGPT })
    const session = sessionOf(fixture, 'levain nail polish')
    // The conversation has no model of its own; each imported answer names the app and the model that wrote it.
    expect(session.model).toBeNull()
    const imported = fixture.core.sessions.messages(session.id)
    expect(imported.map((m) => [m.role, m.meta?.importedFrom, m.meta?.model ?? null])).toEqual([
      ['user', 'chatgpt', null],
      ['assistant', 'chatgpt', 'gpt-4o'],
      ['user', 'chatgpt', null],
      ['assistant', 'chatgpt', 'gpt-4o-mini']
    ])

    fixture.server.enqueue({ text: 'Yes, rye works well.' })
    const { session: chat } = fixture.open({ sessionId: session.id })
    const summary = await chat.runTurn('And can I use whole rye?').done
    expect(summary.reason).toBe('completed')
    expect(fixture.server.lastChatRequest()!.body.model).toBe('scripted')
    const answer = fixture.core.sessions.messages(session.id).at(-1)!
    expect(answer).toMatchObject({ role: 'assistant', content: 'Yes, rye works well.' })
    expect(answer.meta?.model).toBe('scripted')
    expect(answer.meta?.importedFrom).toBeUndefined()
  })

  it('Hermes and Claude.ai: no model kept on the conversation; Hermes answers name the model Hermes used', async () => {
    fixture = await agentFixture()
    await importHermes(fixture.core, { path: hermesHome() })
    await importChatExport(fixture.core, { app: 'claude', path: CLAUDE })
    const sessions = fixture.core.sessions.list({ limit: 100 })
    expect(sessions.length).toBeGreaterThan(2)
    expect(sessions.every((s) => s.model === null)).toBe(true)
    const answers = sessions.filter((s) => s.source === 'import:hermes').flatMap((s) => fixture!.core.sessions.messages(s.id, { includeCompacted: true }).filter((m) => m.role === 'assistant'))
    expect(answers.length).toBeGreaterThan(0)
    expect(answers.every((m) => m.meta?.importedFrom === 'hermes' && m.meta?.model === 'hermes-4-405b')).toBe(true)
    const claude = sessions.find((s) => s.source === 'import:claude')!
    expect(fixture.core.sessions.messages(claude.id).every((m) => m.meta?.importedFrom === 'claude' && m.meta?.model === undefined)).toBe(true)
  })

  it('a re-import of the same export keeps no batch and says nothing was new', async () => {
    fixture = await agentFixture()
    const first = await importChatExport(fixture.core, { app: 'chatgpt', path: CHATGPT })
    const again = await importChatExport(fixture.core, { app: 'chatgpt', path: CHATGPT })
    expect(again).toMatchObject({ importId: null, nothingNew: true, dryRun: false, counts: { sessions: { added: 0, existing: 2 } } })
    expect(new ImportBatches(fixture.core.db).list().map((batch) => batch.id)).toEqual([first.importId])
    const hermes = hermesHome()
    await importHermes(fixture.core, { path: hermes })
    const hermesAgain = await importHermes(fixture.core, { path: hermes })
    expect(hermesAgain).toMatchObject({ importId: null, nothingNew: true })
    expect(new ImportBatches(fixture.core.db).list()).toHaveLength(2)
  })
})

describe('migration 23: conversations imported before go on with the user’s model', () => {
  it('marks the imported messages, keeps each answer’s model and clears the conversation’s unless the user went on with it', () => {
    const dir = tempDir('cairn-migration-23-')
    const path = join(dir, 'state.db')
    // A state.db at version 22, as an import before this fix left it.
    const db = openStateDb(path)
    db.close()
    const raw = new Database(path)
    raw.exec(`
      PRAGMA user_version = 22;
      INSERT INTO imports (id, source, path, started_at, finished_at) VALUES (1, 'chatgpt', '/x', 1000, 2000);
      INSERT INTO sessions (id, title, source, model, started_at, updated_at, import_id, external_id, state) VALUES
        ('a', 'stuck', 'import:chatgpt', 'o3', 100, 100, 1, 'ea', '{}'),
        ('b', 'went on', 'import:chatgpt', 'o3', 100, 3000, 1, 'eb', '{}'),
        ('c', 'own', 'cli', 'scripted', 100, 100, NULL, NULL, '{}');
      INSERT INTO messages (session_id, role, content, created_at, meta) VALUES
        ('a', 'user', 'q', 500, NULL),
        ('a', 'assistant', 'an answer', 600, '{"model":"gpt-4o"}'),
        ('a', 'assistant', 'another', 700, NULL),
        ('b', 'user', 'q', 500, NULL),
        ('b', 'assistant', 'old', 600, '{"model":"o3"}'),
        ('b', 'user', 'later', 2500, '{}'),
        ('b', 'assistant', 'new', 2600, '{"model":"o3"}'),
        ('c', 'assistant', 'mine', 600, '{"model":"scripted"}');
    `)
    raw.close()
    const migrated = openStateDb(path)
    try {
      expect(migrated.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(importedModelMigration.version)
      const models = migrated.prepare('SELECT id, model FROM sessions ORDER BY id').all()
      expect(models).toEqual([
        { id: 'a', model: null },
        { id: 'b', model: 'o3' },
        { id: 'c', model: 'scripted' }
      ])
      const metas = migrated.prepare('SELECT session_id AS s, content, meta FROM messages ORDER BY id').all() as Array<{ s: string; content: string; meta: string | null }>
      expect(metas.map((m) => [m.s, m.content, m.meta === null ? null : JSON.parse(m.meta)])).toEqual([
        ['a', 'q', { importedFrom: 'chatgpt' }],
        ['a', 'an answer', { model: 'gpt-4o', importedFrom: 'chatgpt' }],
        ['a', 'another', { importedFrom: 'chatgpt', model: 'o3' }],
        ['b', 'q', { importedFrom: 'chatgpt' }],
        ['b', 'old', { model: 'o3', importedFrom: 'chatgpt' }],
        ['b', 'later', {}],
        ['b', 'new', { model: 'o3' }],
        ['c', 'mine', { model: 'scripted' }]
      ])
    } finally {
      migrated.close()
    }
  })
})

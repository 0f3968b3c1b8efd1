import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { toDisplayMessage } from '../../../electron/core/app/handlers/sessions'
import { migrations } from '../../../electron/core/db/migrations'
import { openStateDb } from '../../../electron/core/db/state-db'
import { SessionStore, searchSessions } from '../../../electron/core/sessions'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'

let fx: AgentFixture | undefined
const dirs: string[] = []

afterEach(async () => {
  await fx?.close()
  fx = undefined
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const skillMd = '---\nname: deploy-blog\ndescription: Deploy the Hugo blog to Fly.io with flyctl\n---\n\n# deploy-blog\n\nRun the build, then publish.\n'

describe('the skill hint Cairn adds to a user message', () => {
  it('reaches the model but is never in the shown text nor found by search', async () => {
    fx = await agentFixture()
    await fx.core.skills.create({ name: 'deploy-blog', content: skillMd }, { source: 'user' })
    const { session } = fx.open()
    fx.server.enqueue({ text: 'Sure.' })
    await session.runTurn('How do I deploy the hugo blog?').done

    const sent = fx.server.chatRequests()[0].body.messages as Array<{ role: string; content: string }>
    expect(sent.at(-1)?.content).toContain('[Cairn: skills that may help with this: deploy-blog')

    const [user] = fx.core.sessions.messages(session.id).filter((m) => m.role === 'user')
    expect(toDisplayMessage(user).content).toBe('How do I deploy the hugo blog?')
    // "flyctl" and "Cairn" appear only in the hint.
    expect(searchSessions(fx.core.db, 'flyctl').sessions).toEqual([])
    expect(searchSessions(fx.core.db, 'Cairn skills that may help').sessions).toEqual([])
    expect(searchSessions(fx.core.db, 'hugo blog').sessions.map((s) => s.sessionId)).toEqual([session.id])
  })

  it('is stripped from messages stored before it moved out of the text, which stay readable and searchable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-hint-'))
    dirs.push(dir)
    const dbPath = join(dir, 'state.db')
    const old = new Database(dbPath)
    for (const migration of migrations.filter((m) => m.version <= 6)) old.exec(migration.sql)
    old.pragma('user_version = 6')
    old.prepare("INSERT INTO sessions (id, source, started_at, updated_at) VALUES ('old', 'app', 1, 1)").run()
    const hint = '\n\n[Cairn: skills that may help with this: deploy-blog (Deploy the Hugo blog to Fly.io with flyctl). Load one with skill_view before you start if it fits.]'
    const insert = old.prepare("INSERT INTO messages (session_id, role, content, created_at, meta) VALUES ('old', ?, ?, 1, ?)")
    insert.run('user', `Deploy my hugo site${hint}`, JSON.stringify({ hint }))
    insert.run('assistant', 'Done, it is live.', null)
    // A message that merely quotes such a hint (no meta) is the user's own text and stays whole.
    insert.run('user', 'What does [Cairn: skills that may help …] mean?', null)
    old.close()

    const db = openStateDb(dbPath)
    try {
      const store = new SessionStore(db)
      const [first, , quoted] = store.messages('old')
      expect(first.content).toBe('Deploy my hugo site')
      expect(first.meta?.hint).toBe(hint)
      expect(toDisplayMessage(first).content).toBe('Deploy my hugo site')
      expect(quoted.content).toBe('What does [Cairn: skills that may help …] mean?')
      expect(searchSessions(db, 'flyctl').sessions).toEqual([])
      expect(searchSessions(db, 'hugo site').sessions.map((s) => s.sessionId)).toEqual(['old'])
    } finally {
      db.close()
    }
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { SessionStore, searchSessions } from '../../../electron/core/sessions'
import type { SemanticCandidate } from '../../../electron/core/sessions/semantic-search'

let dir: string
let db: StateDb
let store: SessionStore
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-fusion-'))
  db = openStateDb(join(dir, 'state.db'))
  store = new SessionStore(db)
})
afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

function conversation(title: string, user: string, answer: string): { sessionId: string; answerId: number } {
  const session = store.create({ title, source: 'desktop' })
  store.append(session.id, { role: 'user', content: user })
  const reply = store.append(session.id, { role: 'assistant', content: answer })
  return { sessionId: session.id, answerId: reply.id }
}

describe('keyword search fused with search by meaning', () => {
  it('adds the conversation only meaning found, with its closest message, and keeps the keyword hits', () => {
    const keyword = conversation('Reverse proxy', 'nginx returns 502 behind the proxy', 'The upstream timed out; raise proxy_read_timeout.')
    const meaning = conversation('Web server errors', 'my site shows bad gateway after the deploy', 'The app server was not listening on the port the web server expects.')
    const byMeaning: SemanticCandidate[] = [{ messageId: meaning.answerId, sessionId: meaning.sessionId, rank: 1, distance: 0.2 }]

    const plain = searchSessions(db, 'nginx 502 proxy', { limit: 5 })
    expect(plain.sessions.map((hit) => hit.sessionId)).toEqual([keyword.sessionId])

    const fused = searchSessions(db, 'nginx 502 proxy', { limit: 5, meaning: byMeaning })
    expect(fused.sessions.map((hit) => hit.sessionId).sort()).toEqual([keyword.sessionId, meaning.sessionId].sort())
    const found = fused.sessions.find((hit) => hit.sessionId === meaning.sessionId)!
    expect(found.matchMessageId).toBe(meaning.answerId)
    expect(found.messages.map((message) => message.content)).toContain('The app server was not listening on the port the web server expects.')
    expect(found.title).toBe('Web server errors')
  })

  it('a conversation both found ranks above one only one of them found', () => {
    const both = conversation('Postgres pool', 'postgres connection pool exhausted', 'Raise max_connections or use pgbouncer.')
    const keywordOnly = conversation('Postgres vacuum', 'postgres vacuum is slow', 'Tune autovacuum.')
    const meaningOnly = conversation('Database limits', 'too many clients already', 'The database refuses new clients past its limit.')
    const byMeaning: SemanticCandidate[] = [
      { messageId: both.answerId, sessionId: both.sessionId, rank: 1, distance: 0.1 },
      { messageId: meaningOnly.answerId, sessionId: meaningOnly.sessionId, rank: 2, distance: 0.3 }
    ]
    const fused = searchSessions(db, 'postgres connection', { limit: 5, meaning: byMeaning })
    expect(fused.sessions[0].sessionId).toBe(both.sessionId)
    expect(fused.sessions.map((hit) => hit.sessionId)).toEqual(expect.arrayContaining([keywordOnly.sessionId, meaningOnly.sessionId]))
    // Each says which search found it, so a conversation holding none of the words can be told apart.
    const foundBy = new Map(fused.sessions.map((hit) => [hit.sessionId, hit.foundBy]))
    expect([foundBy.get(both.sessionId), foundBy.get(keywordOnly.sessionId), foundBy.get(meaningOnly.sessionId)]).toEqual(['both', 'words', 'meaning'])
    expect(searchSessions(db, 'postgres connection', { limit: 5 }).sessions.every((hit) => hit.foundBy === 'words')).toBe(true)
  })
})

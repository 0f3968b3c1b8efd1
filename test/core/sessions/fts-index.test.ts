import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { SessionStore } from '../../../electron/core/sessions'

let dir: string
let db: StateDb
let store: SessionStore

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-'))
  db = openStateDb(join(dir, 'state.db'))
  store = new SessionStore(db)
})

afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

function integrity(): void {
  db.exec("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)")
  db.exec("INSERT INTO messages_trigram (messages_trigram) VALUES ('integrity-check')")
}

function wordHits(match: string): number[] {
  return (db.prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid').all(match) as Array<{ rowid: number }>).map((r) => r.rowid)
}

function trigramHits(match: string): number[] {
  return (db.prepare('SELECT rowid FROM messages_trigram WHERE messages_trigram MATCH ? ORDER BY rowid').all(match) as Array<{ rowid: number }>).map((r) => r.rowid)
}

describe('full-text index maintained by triggers', () => {
  it('indexes content, tool names and tool-call arguments on insert, with stemming and folded accents', () => {
    const session = store.create()
    const [said, called, output] = store.appendMany(session.id, [
      { role: 'user', content: 'We were running the café migrations' },
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'run_command', arguments: '{"command":"kubectl rollout restart"}' }] },
      { role: 'tool', toolName: 'run_command', toolCallId: 'c1', content: 'deployment.apps/web restarted' }
    ])
    integrity()
    expect(wordHits('"run"')).toEqual([said.id, called.id, output.id])
    expect(wordHits('"cafe"')).toEqual([said.id])
    expect(wordHits('"kubectl"')).toEqual([called.id])
    expect(wordHits('"restarted"')).toEqual([called.id, output.id])
    expect(wordHits('"deployment"')).toEqual([output.id])
  })

  it('re-indexes edited text, leaves the index alone when only the compacted flag changes, and drops deleted rows', () => {
    const session = store.create()
    const [first, second] = store.appendMany(session.id, [
      { role: 'user', content: 'postgres is slow' },
      { role: 'user', content: 'try an index' }
    ])
    db.prepare('UPDATE messages SET content = ? WHERE id = ?').run('mysql is slow', first.id)
    integrity()
    expect(wordHits('"postgres"')).toEqual([])
    expect(wordHits('"mysql"')).toEqual([first.id])

    store.markCompacted(session.id, [first.id, second.id])
    integrity()
    expect(wordHits('"mysql"')).toEqual([first.id])

    db.prepare('DELETE FROM messages WHERE id = ?').run(second.id)
    integrity()
    expect(wordHits('"index"')).toEqual([])
  })

  it('sends only messages holding unsegmented script to the trigram index, and keeps it in step', () => {
    const session = store.create()
    const [english, chinese, toolArgs] = store.appendMany(session.id, [
      { role: 'user', content: 'plain english text' },
      { role: 'user', content: '我们讨论了数据库迁移' },
      { role: 'assistant', toolCalls: [{ id: 'c', name: 'search', arguments: '{"q":"東京の天気予報"}' }] }
    ])
    integrity()
    expect(trigramHits('"ish"')).toEqual([])
    expect(trigramHits('"数据库"')).toEqual([chinese.id])
    expect(trigramHits('"天気予"')).toEqual([toolArgs.id])

    db.prepare('UPDATE messages SET content = ? WHERE id = ?').run('数据库迁移完成', english.id)
    db.prepare('UPDATE messages SET content = ? WHERE id = ?').run('now in english', chinese.id)
    integrity()
    expect(trigramHits('"数据库"')).toEqual([english.id])

    store.delete(session.id)
    integrity()
    expect(trigramHits('"数据库"')).toEqual([])
    expect(trigramHits('"天気予"')).toEqual([])
  })
})

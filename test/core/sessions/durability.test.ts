import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { SessionStore, searchSessions } from '../../../electron/core/sessions'

const repo = resolve(__dirname, '..', '..', '..')
let dir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-'))
})

afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

function integrity(db: StateDb): void {
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
  // rank = 1: also compare the index with the messages table it is built from.
  db.exec("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)")
  db.exec("INSERT INTO messages_trigram (messages_trigram) VALUES ('integrity-check')")
}

describe('durability', () => {
  it('keeps every message a killed writer had appended, searchable and consistent', async () => {
    const dbPath = join(dir, 'state.db')
    const child = join(dir, 'writer.ts')
    writeFileSync(
      child,
      `import { openStateDb } from ${JSON.stringify(join(repo, 'electron/core/db/state-db.ts'))}
import { SessionStore } from ${JSON.stringify(join(repo, 'electron/core/sessions/session-store.ts'))}
const store = new SessionStore(openStateDb(process.argv[2]))
const session = store.create({ id: 'victim' })
for (let i = 0; ; i++) {
  const message = store.append(session.id, { role: i % 2 ? 'assistant' : 'user', content: 'message number ' + i + ' about zebrafish ' + (i % 3 ? '' : '斑马鱼实验'), promptTokens: 1 })
  process.stdout.write(message.id + '\\n')
}
`
    )
    const proc = spawn(process.execPath, ['--import', 'tsx', child, dbPath], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] })
    const reported: number[] = []
    let stderr = ''
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    let buffer = ''
    await new Promise<void>((resolvePromise, reject) => {
      proc.on('error', reject)
      proc.on('exit', (code) => (code === null ? resolvePromise() : reject(new Error(`writer exited ${code}: ${stderr}`))))
      proc.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString()
        const lines = buffer.split('\n')
        buffer = lines.pop() ?? ''
        reported.push(...lines.map(Number))
        // Kill it mid-loop, without warning, once it has written a good number of messages.
        if (reported.length >= 300 && !proc.killed) proc.kill('SIGKILL')
      })
    })

    const db = openStateDb(dbPath)
    try {
      const store = new SessionStore(db)
      const stored = store.messages('victim').map((m) => m.id)
      // Every id the writer saw committed is there (a message committed after the last report may be too).
      expect(stored.slice(0, reported.length)).toEqual(reported)
      expect(store.get('victim')?.messageCount).toBe(stored.length)
      expect(store.get('victim')?.inputTokens).toBe(stored.length)
      integrity(db)
      const hit = searchSessions(db, 'zebrafish', { limit: 1 }).sessions[0]
      expect(hit.sessionId).toBe('victim')
      expect(searchSessions(db, '斑马鱼实验').sessions.map((s) => s.sessionId)).toEqual(['victim'])
    } finally {
      db.close()
    }
  })

  it('sees messages appended by another connection (the app and the CLI share state.db)', () => {
    const dbPath = join(dir, 'state.db')
    const writer = openStateDb(dbPath)
    const reader = openStateDb(dbPath)
    try {
      const store = new SessionStore(writer)
      const session = store.create()
      store.append(session.id, { role: 'user', content: 'the flux capacitor needs 1.21 gigawatts' })
      expect(searchSessions(reader, 'how much power does the flux capacitor need').sessions[0]?.sessionId).toBe(session.id)
    } finally {
      writer.close()
      reader.close()
    }
  })
})

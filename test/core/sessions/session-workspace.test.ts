import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb } from '../../../electron/core/db/state-db'
import { migrations } from '../../../electron/core/db/migrations'
import { checkWorkspace, defaultWorkspace, SessionStore, WorkspaceError } from '../../../electron/core/sessions'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-ws-check-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

function refusal(path: string, options: Parameters<typeof checkWorkspace>[1] = {}): WorkspaceError {
  try {
    checkWorkspace(path, options)
  } catch (error) {
    if (error instanceof WorkspaceError) return error
    throw error
  }
  throw new Error(`${path} was accepted`)
}

describe('a session stores its workspace', () => {
  it('keeps the folder a session was created with and a changed one, across reopening state.db', () => {
    const dbPath = join(dir, 'state.db')
    let db = openStateDb(dbPath)
    const created = new SessionStore(db).create({ workspace: '/home/me/site' })
    expect(created.workspace).toBe('/home/me/site')
    expect(new SessionStore(db).create({}).workspace).toBeNull()
    new SessionStore(db).update(created.id, { workspace: '/home/me/other' })
    db.close()
    db = openStateDb(dbPath)
    expect(new SessionStore(db).get(created.id)?.workspace).toBe('/home/me/other')
    db.close()
  })

  it('migrates a database from before workspaces: its sessions read as having none', () => {
    const dbPath = join(dir, 'state.db')
    const old = new Database(dbPath)
    for (const migration of migrations.filter((m) => m.version <= 2)) old.exec(migration.sql)
    old.pragma('user_version = 2')
    old.prepare("INSERT INTO sessions (id, source, started_at, updated_at, system_prompt) VALUES ('old-1', 'cli', 1, 1, 'prompt')").run()
    old.close()
    const db = openStateDb(dbPath)
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(3)
    expect(new SessionStore(db).get('old-1')).toMatchObject({ id: 'old-1', workspace: null, systemPrompt: 'prompt' })
    db.close()
  })
})

describe('checking a workspace folder', () => {
  it('accepts an existing folder and returns it normalised', () => {
    expect(checkWorkspace(join(dir, 'a', '..', '.'))).toBe(dir)
  })

  it('refuses a relative path, a missing folder (unless asked to create it) and a file', () => {
    expect(refusal('projects/site').code).toBe('not_absolute')
    expect(refusal('').code).toBe('not_absolute')
    expect(refusal(join(dir, 'nope')).code).toBe('missing')
    expect(existsSync(join(dir, 'nope'))).toBe(false)
    expect(checkWorkspace(join(dir, 'new', 'deep'), { create: true })).toBe(join(dir, 'new', 'deep'))
    expect(existsSync(join(dir, 'new', 'deep'))).toBe(true)
    writeFileSync(join(dir, 'file.txt'), 'x')
    const file = refusal(join(dir, 'file.txt'), { create: true })
    expect(file.code).toBe('not_folder')
    expect(file.message).toContain('is a file, not a folder')
  })

  it('refuses a forbidden root and anything inside it, before creating anything, but not a sibling with a longer name', () => {
    const app = join(dir, 'app')
    mkdirSync(join(app, 'resources'), { recursive: true })
    const forbiddenRoots = [app]
    expect(refusal(app, { forbiddenRoots })).toMatchObject({ code: 'forbidden', root: app })
    expect(refusal(join(app, 'resources'), { forbiddenRoots }).code).toBe('forbidden')
    expect(refusal(join(app, 'made', 'by', 'model'), { create: true, forbiddenRoots }).code).toBe('forbidden')
    expect(existsSync(join(app, 'made'))).toBe(false)
    expect(checkWorkspace(join(dir, 'app-projects'), { create: true, forbiddenRoots })).toBe(join(dir, 'app-projects'))
    expect(checkWorkspace(dir, { forbiddenRoots })).toBe(dir)
  })

  it('refuses a link that leads into a forbidden root, and a new folder below such a link', () => {
    const app = join(dir, 'app')
    mkdirSync(app)
    symlinkSync(app, join(dir, 'innocent'))
    expect(refusal(join(dir, 'innocent'), { forbiddenRoots: [app] }).code).toBe('forbidden')
    expect(refusal(join(dir, 'innocent', 'new'), { create: true, forbiddenRoots: [app] }).code).toBe('forbidden')
    expect(existsSync(join(app, 'new'))).toBe(false)
  })
})

describe('the default workspace', () => {
  it('is a Cairn folder in the home, or agent.workspace with ~ expanded', () => {
    expect(defaultWorkspace('', '/home/me')).toBe(join('/home/me', 'Cairn'))
    expect(defaultWorkspace(undefined, '/home/me')).toBe(join('/home/me', 'Cairn'))
    expect(defaultWorkspace('~/work', '/home/me')).toBe(join('/home/me', 'work'))
    expect(defaultWorkspace('/srv/data', '/home/me')).toBe('/srv/data')
    expect(defaultWorkspace('notes', '/home/me')).toBe(join('/home/me', 'notes'))
  })
})

import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import * as tar from 'tar'
import { afterEach, describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import { createBackup, latestSchemaVersion, restoreBackup, type BackupProgress } from '../../../electron/core/backup'
import { migrations } from '../../../electron/core/db/migrations'
import { CairnCore } from '../../../electron/core/cairn'
import { BACKED_UP, filesOf, LEFT_OUT, SECRET_VALUE, seedBackupHome, tableRows, tempDir } from './backup-home'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function dir(prefix: string): string {
  const path = tempDir(prefix)
  dirs.push(path)
  return path
}

const never = async () => {
  throw new Error('a restore into an empty home must not ask')
}

/** The files a backup carries (everything but the database and what stays local). */
const carried = (rel: string) => rel.startsWith('state.db') || rel === 'backups' || rel.startsWith('.locks') || LEFT_OUT.some((left) => rel === left || left.startsWith(`${rel}/`))

describe('backup and restore round trip', () => {
  it('restores every file byte for byte and every table row for row, and leaves secrets, locks and caches behind', async () => {
    const home = dir('cairn-backup-src-')
    await seedBackupHome(home)
    const out = join(dir('cairn-backup-out-'), 'home.tar.gz')

    const progress: BackupProgress[] = []
    const backup = await createBackup({ home, out, cairnVersion: '9.9.9', onProgress: (step) => progress.push(step) })
    // One step per file, ending at the totals it announced.
    expect(progress).toHaveLength(backup.manifest.files.length)
    expect(progress.at(-1)).toEqual({ files: progress[0].totalFiles, totalFiles: progress[0].totalFiles, bytes: progress[0].totalBytes, totalBytes: progress[0].totalBytes })
    expect(backup.file).toBe(out)
    // It holds every conversation: readable by its owner only, wherever the folder is.
    expect(statSync(out).mode & 0o777).toBe(0o600)
    expect(backup.manifest.cairnVersion).toBe('9.9.9')
    expect(backup.manifest.schemaVersion).toBeGreaterThan(0)
    const listed = backup.manifest.files.map((file) => file.path)
    expect(listed).toEqual(expect.arrayContaining(['state.db', ...BACKED_UP]))
    for (const left of LEFT_OUT) expect(listed).not.toContain(left)

    const members: string[] = []
    await tar.t({ file: out, onReadEntry: (entry) => void members.push(entry.path) })
    expect(members.sort()).toEqual(['manifest.json', ...listed].sort())
    // The MCP secret stays a reference: the archive never holds its value.
    const extracted = dir('cairn-backup-peek-')
    await tar.x({ file: out, cwd: extracted })
    for (const bytes of filesOf(extracted).values()) expect(bytes.includes(SECRET_VALUE)).toBe(false)
    expect(readFileSync(join(extracted, 'config.json'), 'utf8')).toContain('${secret:github}')

    const target = join(dir('cairn-backup-dst-'), 'restored')
    // The user's own backup: they bring its settings in.
    const restored = await restoreBackup({ archive: out, home: target, confirmReplace: never, confirmSettings: async () => true })
    expect(restored).toMatchObject({ restored: true, aside: null })

    const before = filesOf(home, carried)
    const after = filesOf(target, carried)
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort())
    for (const [rel, bytes] of before) expect(after.get(rel)?.equals(bytes), rel).toBe(true)
    expect(tableRows(join(target, 'state.db'))).toEqual(tableRows(join(home, 'state.db')))
    for (const left of LEFT_OUT) expect(existsSync(join(target, left)), left).toBe(false)

    // The restored home opens and finds what the old one knew.
    const core = await CairnCore.open({ home: target })
    try {
      expect(core.sessions.list()).toHaveLength(5)
      expect(core.memory.read('memory').entries).toContain('The build server is called atlas.')
      expect(core.skills.list().map((skill) => skill.name)).toContain('deploy-checklist')
    } finally {
      await core.close()
    }
  })

  it('replaces a home that holds data only when confirmed, keeping the old one aside with its backups', async () => {
    const source = dir('cairn-backup-src-')
    await seedBackupHome(source, 3)
    const archive = (await createBackup({ home: source, cairnVersion: '1.0.0' })).file
    expect(archive.startsWith(join(source, 'backups', 'cairn-'))).toBe(true)

    const parent = dir('cairn-backup-dst-')
    const target = join(parent, 'home')
    await seedBackupHome(target, 1)
    const earlier = (await createBackup({ home: target, cairnVersion: '1.0.0' })).file
    // The check for a live process may checkpoint the WAL: the database is compared by its rows.
    const withoutDb = (rel: string) => rel.startsWith('state.db')
    const original = filesOf(target, withoutDb)
    const originalRows = tableRows(join(target, 'state.db'))

    const declined = await restoreBackup({ archive, home: target, confirmReplace: async () => false })
    expect(declined).toEqual({ restored: false, home: target, reason: 'declined' })
    expect(filesOf(target, withoutDb)).toEqual(original)
    expect(tableRows(join(target, 'state.db'))).toEqual(originalRows)
    expect(readdirSync(parent)).toEqual(['home'])

    let asked = ''
    const replaced = await restoreBackup({
      archive,
      home: target,
      confirmSettings: async () => true,
      confirmReplace: async (plan) => {
        asked = plan.aside
        return true
      }
    })
    if (!replaced.restored) throw new Error('expected a restore')
    expect(replaced.aside).toBe(asked)
    expect(replaced.aside).toMatch(/home\.before-restore-\d{8}-\d{6}$/)
    // The old home is all there, apart from its backups folder, which moved with the home.
    const kept = filesOf(replaced.aside!)
    for (const [rel, bytes] of original) if (!rel.startsWith('backups/')) expect(kept.get(rel)?.equals(bytes), rel).toBe(true)
    expect(tableRows(join(replaced.aside!, 'state.db'))).toEqual(originalRows)
    expect(existsSync(join(target, 'backups', earlier.split('/').pop()!))).toBe(true)
    expect(tableRows(join(target, 'state.db'))).toEqual(tableRows(join(source, 'state.db')))
    expect(readdirSync(parent).sort()).toEqual(['home', replaced.aside!.split('/').pop()!].sort())
  })

  it('upgrades a database from an older Cairn when the restored home is opened', async () => {
    const home = dir('cairn-backup-old-')
    const older = latestSchemaVersion() - 1
    const db = new Database(join(home, 'state.db'))
    for (const migration of migrations.filter((m) => m.version <= older)) db.exec(migration.sql)
    db.pragma(`user_version = ${older}`)
    db.prepare("INSERT INTO sessions (id, title, started_at, updated_at) VALUES ('old-1', 'from an older Cairn', 1, 1)").run()
    db.close()
    const { file, manifest } = await createBackup({ home, out: join(dir('cairn-backup-out-'), 'old.tar.gz'), cairnVersion: '0.0.9' })
    expect(manifest.schemaVersion).toBe(older)

    const target = join(dir('cairn-backup-dst-'), 'home')
    const restored = await restoreBackup({ archive: file, home: target, confirmReplace: never, confirmSettings: async () => true })
    expect(restored).toMatchObject({ restored: true, schemaVersion: latestSchemaVersion() })
    const core = await CairnCore.open({ home: target })
    try {
      expect(core.sessions.get('old-1')?.title).toBe('from an older Cairn')
    } finally {
      await core.close()
    }
  })
})

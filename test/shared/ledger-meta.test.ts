import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ensureHome } from '../../electron/core/config/home'
import { openStateDb, type StateDb } from '../../electron/core/db/state-db'
import { Ledger } from '../../electron/core/ledger/ledger'
import { ledgerEntrySchema, skillNameOf } from '../../shared/ledger'

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
})

function setup(): { db: StateDb; ledger: Ledger } {
  const root = mkdtempSync(join(tmpdir(), 'cairn-'))
  const db = openStateDb(ensureHome(root).stateDb)
  cleanups.push(() => {
    db.close()
    rmSync(root, { recursive: true, force: true })
  })
  return { db, ledger: new Ledger(db) }
}

/** A row as an older Cairn wrote it, straight into the table: no skill name, no memory file in `meta`. */
function oldRow(db: StateDb, kind: string, target: string, meta: object = {}): number {
  const info = db
    .prepare(`INSERT INTO ledger (at, kind, target, source, before, after, meta) VALUES (?, ?, ?, 'agent', NULL, 'x', ?)`)
    .run(Date.now(), kind, target, JSON.stringify(meta))
  return Number(info.lastInsertRowid)
}

describe('ledger meta', () => {
  it('names the skill and the memory file on every row it records, even when the writer left them out', () => {
    const { ledger } = setup()
    const skill = ledger.record({ kind: 'skill.file_write', target: 'skills/devops/deploy/references/notes/a.md', before: null, after: 'A' }, { source: 'agent' })
    expect(skill.meta).toEqual({ skill: 'deploy', category: 'devops' })
    const memory = ledger.record({ kind: 'memory.add', target: 'memories/USER.md', before: null, after: 'Likes tea' }, { source: 'agent' })
    expect(memory.meta).toEqual({ store: 'user' })
  })

  it('reads rows written before every row named its skill, by their path, in the shape the schema checks', () => {
    const { db, ledger } = setup()
    const patch = oldRow(db, 'skill.patch', 'skills/devops/deploy/SKILL.md')
    const file = oldRow(db, 'skill.file_write', 'skills/deploy/scripts/run.sh')
    const memory = oldRow(db, 'memory.remove', 'memories/MEMORY.md', { revertOf: 3 })
    oldRow(db, 'skill.create', 'skills/other/SKILL.md', { skill: 'other', category: null })

    expect(ledger.get(patch)!.meta).toEqual({ skill: 'deploy', category: 'devops' })
    expect(skillNameOf(ledger.get(file)!)).toBe('deploy')
    expect(ledger.get(memory)!.meta).toEqual({ store: 'memory', revertOf: 3 })
    for (const entry of ledger.list({ limit: 10 })) expect(ledgerEntrySchema.safeParse(entry).success, entry.target).toBe(true)
    // The skill's history finds old and new rows alike, and only that skill's.
    expect(ledger.forSkill('deploy').map((entry) => entry.id)).toEqual([file, patch])
  })

  it('gives a skill name to any row, however old, and none to a memory row', () => {
    expect(skillNameOf({ kind: 'skill.delete', target: 'skills/a/b/old/SKILL.md', meta: {} })).toBe('old')
    expect(skillNameOf({ kind: 'skill.patch', target: 'skills/x/SKILL.md', meta: { skill: 'renamed' } })).toBe('renamed')
    expect(skillNameOf({ kind: 'memory.add', target: 'memories/MEMORY.md', meta: {} })).toBeNull()
  })
})

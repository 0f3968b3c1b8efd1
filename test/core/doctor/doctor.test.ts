import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { hostname } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { repairHome, runDoctor, type DoctorReport, type Finding } from '../../../electron/core/doctor'
import { searchSessions } from '../../../electron/core/sessions'
import { MARKER, overwritePages, seedHome } from '../db/damaged-home'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const HOUR_AGO = (Date.now() - 3_600_000) / 1000
const skillText = (name: string, body = 'Run the tests first.') => `---\nname: ${name}\ndescription: How to ${name}.\n---\n\n# ${name}\n\n${body}\n`

/** A home with sessions, a memory entry and a skill, all written through the core (so all on the ledger). */
async function home(): Promise<string> {
  const seeded = await seedHome(20, 'cairn-doctor-')
  dirs.push(seeded.home)
  const core = await CairnCore.open({ home: seeded.home })
  const created = await core.skills.create({ name: 'ship-it', category: 'devops', content: skillText('ship-it') }, { source: 'user' })
  expect(created.success).toBe(true)
  await core.close()
  return seeded.home
}

const finding = (report: DoctorReport, check: Finding['check']) => report.findings.find((f) => f.check === check)!

describe('cairn doctor, in the core', () => {
  it('a healthy home: every check ok, healthy', async () => {
    const report = runDoctor(await home())
    expect(report.findings.map((f) => [f.check, f.status])).toEqual([
      ['database', 'ok'],
      ['ledger', 'ok'],
      ['locks', 'ok'],
      ['temp-files', 'ok'],
      ['skills', 'ok'],
      ['config', 'ok']
    ])
    expect(report.healthy).toBe(true)
    expect(finding(report, 'ledger').summary).toMatch(/2 ledger rows/)
  })

  it('stale locks: reported with their age, removed by repair; a lock in use is left alone', async () => {
    const dir = await home()
    const stale = join(dir, '.locks', 'skills', 'ship-it.lock')
    const fresh = join(dir, '.locks', 'config.lock')
    mkdirSync(stale, { recursive: true })
    mkdirSync(fresh, { recursive: true })
    utimesSync(stale, HOUR_AGO, HOUR_AGO)
    const locks = finding(runDoctor(dir), 'locks')
    expect(locks).toMatchObject({ status: 'problem', repairable: true })
    expect(locks.details).toEqual([expect.stringMatching(/^\.locks\/skills\/ship-it\.lock \(untouched for 60 min\)$/)])
    const actions = await repairHome(dir)
    expect(actions.find((a) => a.check === 'locks')).toMatchObject({ ok: true, summary: 'removed 1 stale lock' })
    expect(existsSync(stale)).toBe(false)
    expect(existsSync(fresh)).toBe(true)
    expect(runDoctor(dir).healthy).toBe(true)
  })

  it('orphan temp files of killed writes: reported and removed; backups, user files and a write in progress are not', async () => {
    const dir = await home()
    const skillDir = join(dir, 'skills', 'devops', 'ship-it')
    const orphans = [
      join(skillDir, 'SKILL.md.3735928559'),
      join(dir, 'memories', 'MEMORY.md.2882400018'),
      join(dir, 'config.json.123456789'),
      join(dir, 'state.db.new-4242-0badf00d')
    ]
    const kept = [
      join(dir, 'memories', 'MEMORY.md.bak.1733040000000'),
      join(skillDir, 'references', 'backup.20240101'),
      join(skillDir, 'references', 'v1.2'),
      // Digits after a name Cairn never wrote through write-file-atomic: the user's own dated file.
      join(skillDir, 'references', 'schema.sql.20240131')
    ]
    mkdirSync(join(skillDir, 'references'), { recursive: true })
    for (const path of [...orphans, ...kept]) {
      writeFileSync(path, path.endsWith('.2882400018') ? '' : 'half a write')
      utimesSync(path, HOUR_AGO, HOUR_AGO)
    }
    const inProgress = join(dir, 'memories', 'USER.md.99')
    writeFileSync(inProgress, 'being written right now')
    const temp = finding(runDoctor(dir), 'temp-files')
    expect(temp.status).toBe('problem')
    expect(temp.details.map((line) => line.split(' (')[0]).sort()).toEqual(
      [
        'memories/MEMORY.md.2882400018',
        'skills/devops/ship-it/SKILL.md.3735928559',
        'config.json.123456789',
        'state.db.new-4242-0badf00d'
      ].sort()
    )
    await repairHome(dir)
    for (const path of orphans) expect(existsSync(path)).toBe(false)
    for (const path of [...kept, inProgress]) expect(existsSync(path)).toBe(true)
    expect(readFileSync(join(skillDir, 'SKILL.md'), 'utf8')).toBe(skillText('ship-it'))
  })

  it('temp files named by the atomic writer (<file>.cairn-<pid>-<n>.tmp): a dead writer’s are reported at once and removed by repair; a live one’s are not', async () => {
    const dir = await home()
    const dead = spawnSync(process.execPath, ['-e', '0']).pid
    const skillDir = join(dir, 'skills', 'devops', 'ship-it')
    const orphans = [join(skillDir, `SKILL.md.cairn-${dead}-3.tmp`), join(dir, 'memories', `MEMORY.md.cairn-${dead}-1.tmp`), join(dir, `config.json.cairn-${dead}-2.tmp`)]
    const live = [join(skillDir, `SKILL.md.cairn-${process.pid}-7.tmp`), join(dir, 'memories', `USER.md.cairn-${process.pid}-8.tmp`)]
    for (const path of [...orphans, ...live]) writeFileSync(path, 'half a write') // just now: only the writer's pid tells them apart
    const temp = finding(runDoctor(dir), 'temp-files')
    expect(temp).toMatchObject({ status: 'problem', repairable: true })
    expect(temp.details.map((line) => line.split(' (')[0]).sort()).toEqual(
      [`config.json.cairn-${dead}-2.tmp`, `memories/MEMORY.md.cairn-${dead}-1.tmp`, `skills/devops/ship-it/SKILL.md.cairn-${dead}-3.tmp`].sort()
    )
    const actions = await repairHome(dir)
    expect(actions.find((a) => a.check === 'temp-files')).toMatchObject({ ok: true, summary: 'removed 3 orphan temp files' })
    for (const path of orphans) expect(existsSync(path)).toBe(false)
    for (const path of live) expect(existsSync(path)).toBe(true)
    expect(finding(runDoctor(dir), 'temp-files').status).toBe('ok')
    expect(readFileSync(join(skillDir, 'SKILL.md'), 'utf8')).toBe(skillText('ship-it'))
  })

  it('ledger and files disagree: a skill or memory file changed behind the ledger’s back is named with its row', async () => {
    const dir = await home()
    writeFileSync(join(dir, 'skills', 'devops', 'ship-it', 'SKILL.md'), skillText('ship-it', 'Edited by hand.'))
    writeFileSync(join(dir, 'memories', 'MEMORY.md'), 'Something else entirely.')
    const ledger = finding(runDoctor(dir), 'ledger')
    expect(ledger.status).toBe('problem')
    expect(ledger.summary).toMatch(/^2 changes on the timeline the files do not hold/)
    expect(ledger.details).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^#\d+ skills\/devops\/ship-it\/SKILL\.md holds other text than this row wrote$/),
        expect.stringMatching(/^#\d+ memories\/MEMORY\.md does not hold the entry this row wrote: "The build server is called atlas\."$/),
        expect.stringMatching(/memories\/MEMORY\.md: 1 entry no ledger row accounts for/)
      ])
    )
  })

  it('an entry added by hand is a note, not a problem; a revert keeps the files in line with the ledger', async () => {
    const dir = await home()
    writeFileSync(join(dir, 'memories', 'MEMORY.md'), 'The build server is called atlas.\n§\nTyped in an editor.')
    const core = await CairnCore.open({ home: dir })
    const row = core.ledger.list({ limit: 10 }).find((entry) => entry.kind === 'skill.create')!
    expect((await core.revert(row.id)).ok).toBe(true)
    await core.close()
    const report = runDoctor(dir)
    expect(finding(report, 'ledger')).toMatchObject({ status: 'note' })
    expect(report.healthy).toBe(true)
  })

  it('a ledger row a killed write left pending: reported, settled by repair against the file', async () => {
    const dir = await home()
    const dead = spawnSync(process.execPath, ['-e', '0']).pid
    const entry = 'Deploys go through the staging box first.'
    writeFileSync(join(dir, 'memories', 'MEMORY.md'), `The build server is called atlas.\n§\n${entry}`)
    const db = new Database(join(dir, 'state.db'))
    db.prepare(
      `INSERT INTO ledger (at, kind, target, source, before, after, meta, state, writer)
       VALUES (?, 'memory.add', 'memories/MEMORY.md', 'agent', NULL, ?, '{"store":"memory"}', 'pending', ?)`
    ).run(Date.now(), entry, `${hostname()}:${dead}`)
    db.close()
    const ledger = finding(runDoctor(dir), 'ledger')
    expect(ledger).toMatchObject({ status: 'problem', repairable: true })
    expect(ledger.summary).toContain('1 change a killed write left unsettled')
    expect(ledger.details).toEqual([expect.stringMatching(/^#\d+ memory\.add on memories\/MEMORY\.md was never confirmed$/)])
    const actions = await repairHome(dir)
    expect(actions.find((a) => a.check === 'ledger')).toMatchObject({ ok: true, summary: 'settled 1 unsettled ledger row' })
    expect(actions.find((a) => a.check === 'ledger')?.details[0]).toBe('1 committed (the change is in the file)')
    const after = runDoctor(dir)
    expect(finding(after, 'ledger').status).toBe('ok')
    expect(after.healthy).toBe(true)
  })

  it('a killed write’s change that reached the file (or left it holding neither side) is reported once, as unsettled, not also as a disagreement', async () => {
    const dir = await home()
    const dead = spawnSync(process.execPath, ['-e', '0']).pid
    const skillFile = join(dir, 'skills', 'devops', 'ship-it', 'SKILL.md')
    const edited = skillText('ship-it', 'Run the tests, then ship.')
    writeFileSync(skillFile, edited) // the edit landed; its row was never committed
    writeFileSync(join(dir, 'memories', 'MEMORY.md'), 'The build server is called hermes.') // neither the row's before nor its after
    const db = new Database(join(dir, 'state.db'))
    const insert = db.prepare(
      `INSERT INTO ledger (at, kind, target, source, before, after, meta, state, writer) VALUES (?, ?, ?, 'agent', ?, ?, ?, 'pending', ?)`
    )
    insert.run(Date.now(), 'skill.edit', 'skills/devops/ship-it/SKILL.md', skillText('ship-it'), edited, '{"skill":"ship-it","category":"devops"}', `${hostname()}:${dead}`)
    insert.run(Date.now() + 1, 'memory.replace', 'memories/MEMORY.md', 'The build server is called atlas.', 'The build server is called zeus.', '{"store":"memory"}', `${hostname()}:${dead}`)
    db.close()
    const before = finding(runDoctor(dir), 'ledger')
    expect(before).toMatchObject({ status: 'problem', repairable: true, summary: '2 changes a killed write left unsettled' })
    expect(before.details.filter((line) => line.startsWith('#'))).toEqual([
      expect.stringMatching(/^#\d+ skill\.edit on skills\/devops\/ship-it\/SKILL\.md was never confirmed$/),
      expect.stringMatching(/^#\d+ memory\.replace on memories\/MEMORY\.md was never confirmed$/)
    ])
    const actions = await repairHome(dir)
    expect(actions.find((a) => a.check === 'ledger')?.details.slice(0, 3)).toEqual([
      '1 committed (the change is in the file)',
      '0 dropped (the change never reached the file)',
      '1 marked as conflicts (the file holds neither side; "cairn doctor" lists them)'
    ])
    const after = finding(runDoctor(dir), 'ledger')
    expect(after).toMatchObject({ status: 'problem', repairable: false, summary: '1 interrupted change the files agree with neither way' })
    expect(after.details.filter((line) => line.startsWith('#'))).toEqual([
      expect.stringMatching(/^#\d+ memory\.replace on memories\/MEMORY\.md: the file holds neither its before nor its after text$/)
    ])
  })

  it('a pending row in a damaged state.db survives the salvage and is settled against the file by the same repair', async () => {
    const dir = await home()
    const dead = spawnSync(process.execPath, ['-e', '0']).pid
    const entry = 'Deploys go through the staging box first.'
    writeFileSync(join(dir, 'memories', 'MEMORY.md'), `The build server is called atlas.\n§\n${entry}`)
    const db = new Database(join(dir, 'state.db'))
    db.prepare(
      `INSERT INTO ledger (at, kind, target, source, before, after, meta, state, writer)
       VALUES (?, 'memory.add', 'memories/MEMORY.md', 'agent', NULL, ?, '{"store":"memory"}', 'pending', ?)`
    ).run(Date.now(), entry, `${hostname()}:${dead}`)
    db.pragma('wal_checkpoint(TRUNCATE)')
    db.close()
    overwritePages(join(dir, 'state.db'), 1, 1) // the header and the schema: SQLite cannot open it, the rows are on the raw pages
    expect(finding(runDoctor(dir), 'database').status).toBe('problem')
    const actions = await repairHome(dir)
    expect(actions.find((a) => a.check === 'database')?.ok).toBe(true)
    expect(actions.find((a) => a.check === 'ledger')).toMatchObject({ ok: true, summary: 'settled 1 unsettled ledger row' })
    expect(actions.find((a) => a.check === 'ledger')?.details[0]).toBe('1 committed (the change is in the file)')
    expect(runDoctor(dir).healthy).toBe(true)
  })

  it('a skill that does not load is a problem; config.json that is not JSON is a problem nobody rewrites', async () => {
    const dir = await home()
    mkdirSync(join(dir, 'skills', 'broken'), { recursive: true })
    writeFileSync(join(dir, 'skills', 'broken', 'SKILL.md'), '---\nname: [unclosed\n---\nbody\n')
    writeFileSync(join(dir, 'config.json'), '{ "ui": ')
    const report = runDoctor(dir)
    expect(finding(report, 'skills')).toMatchObject({ status: 'problem', repairable: false })
    expect(finding(report, 'skills').details.join('\n')).toContain(join('broken', 'SKILL.md'))
    expect(finding(report, 'config')).toMatchObject({ status: 'problem', repairable: false })
    await repairHome(dir)
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{ "ui": ')
  })

  it('a search index out of step with the messages: reported, and rebuilt by repair (nothing else touched)', async () => {
    const dir = await home()
    const core = await CairnCore.open({ home: dir })
    const message = core.db.prepare('SELECT id, content, tool_name, tool_call_text FROM messages ORDER BY id LIMIT 1').get() as Record<string, unknown>
    core.db
      .prepare("INSERT INTO messages_fts (messages_fts, rowid, content, tool_name, tool_call_text) VALUES ('delete', ?, ?, ?, ?)")
      .run(message.id, message.content, message.tool_name, message.tool_call_text)
    await core.close()
    const database = finding(runDoctor(dir), 'database')
    expect(database).toMatchObject({ status: 'problem', repairable: true })
    expect(database.summary).toMatch(/search index/)
    const actions = await repairHome(dir)
    expect(actions.find((a) => a.check === 'database')?.summary).toMatch(/rebuilt the search indexes/)
    expect(readdirSync(dir).filter((name) => name.includes('corrupt'))).toEqual([])
    expect(runDoctor(dir).healthy).toBe(true)
  })

  it('a damaged state.db: reported (the ledger waits for it), moved aside and salvaged by repair, healthy afterwards', async () => {
    const dir = await home()
    overwritePages(join(dir, 'state.db'), 3, 20)
    const report = runDoctor(dir)
    expect(finding(report, 'database')).toMatchObject({ status: 'problem', repairable: true })
    expect(finding(report, 'ledger').status).toBe('note')
    const actions = await repairHome(dir, { now: Date.parse('2026-03-04T05:06:07Z') })
    const database = actions.find((a) => a.check === 'database')!
    expect(database.ok).toBe(true)
    expect(database.details).toContain(`moved the damaged file aside as ${join(dir, 'state.db.corrupt-2026-03-04T05-06-07Z')}`)
    expect(existsSync(join(dir, 'state.db.corrupt-2026-03-04T05-06-07Z'))).toBe(true)
    expect(runDoctor(dir).healthy).toBe(true)
    const core = await CairnCore.open({ home: dir })
    expect(searchSessions(core.db, MARKER).sessions.length).toBeGreaterThan(0)
    await core.close()
  })
})

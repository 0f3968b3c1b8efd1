import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MARKER, overwritePages, pagesOf, seedHome, truncateDb } from '../core/db/damaged-home'
import { runCairn, type CliRun } from '../helpers/run-cli'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function seeded() {
  const home = await seedHome(120, 'cairn-cli-doctor-')
  dirs.push(home.home)
  return home
}

const cairn = (home: string, ...args: string[]) => runCairn(['--home', home, ...args], { cwd: home })

/** An expected fault: exit 1, one line on stderr naming cairn doctor, no stack trace, nothing on stdout. */
function expectOneLineAdvice(run: CliRun, path: string): void {
  expect(run.code).toBe(1)
  expect(run.stdout).toBe('')
  const lines = run.stderr.trimEnd().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(/^cairn: .* is damaged \(.+\)\. Run "cairn doctor" to see what is wrong, then "cairn doctor --repair"/)
  expect(lines[0]).toContain(path)
  expect(run.stderr).not.toMatch(/\n\s+at |Error:/)
}

function asideFiles(home: string, kind: 'corrupt' | 'empty'): string[] {
  return readdirSync(home).filter((name) => name.startsWith(`state.db.${kind}-`) && !/-(wal|shm)$/.test(name))
}

async function expectSearchFinds(home: string): Promise<void> {
  const search = await cairn(home, 'search', MARKER, '--json')
  expect(search.code).toBe(0)
  expect((JSON.parse(search.stdout) as { sessions: unknown[] }).sessions.length).toBeGreaterThan(0)
}

describe('cairn with a damaged state.db', () => {
  it('truncated: every command says so in one line naming cairn doctor; doctor reports it; --repair salvages it', async () => {
    const { home, stateDb, messages } = await seeded()
    // The schema takes the first ~50 pages of this small home: cut inside the data, not before it.
    truncateDb(stateDb, 0.75)
    const damaged = readFileSync(stateDb)

    expectOneLineAdvice(await cairn(home, 'tool', 'memory', '{"action":"read"}'), stateDb)
    expectOneLineAdvice(await cairn(home, 'sessions'), stateDb)
    expectOneLineAdvice(await cairn(home, 'serve', '--port', '0'), stateDb)

    const doctor = await cairn(home, 'doctor')
    expect(doctor.code).toBe(1)
    expect(doctor.stdout).toMatch(/PROBLEM\s+state\.db\s+damaged: it was cut short/)
    expect(doctor.stdout).toContain('cairn doctor --repair')
    const json = await cairn(home, 'doctor', '--json')
    expect(json.code).toBe(1)
    const report = JSON.parse(json.stdout) as { healthy: boolean; findings: Array<{ check: string; status: string }> }
    expect(report.healthy).toBe(false)
    expect(report.findings.find((f) => f.check === 'database')?.status).toBe('problem')
    expect(readFileSync(stateDb).equals(damaged)).toBe(true)

    const repair = await cairn(home, 'doctor', '--repair')
    expect(repair.code).toBe(0)
    expect(repair.stdout).toMatch(/done\s+state\.db\s+salvaged \d+ rows into a fresh state\.db/)
    const saved = Number(/messages: (\d+) rows? saved/.exec(repair.stdout)?.[1])
    expect(saved).toBeGreaterThan(0)
    expect(saved).toBeLessThan(messages)
    expect(repair.stdout).toContain('No problems found.')
    // Nothing lost: the damaged file is kept, byte for byte.
    const [aside] = asideFiles(home, 'corrupt')
    expect(readFileSync(join(home, aside)).equals(damaged)).toBe(true)

    await expectSearchFinds(home)
    const read = await cairn(home, 'tool', 'memory', '{"action":"read","target":"memory"}')
    expect(read.code).toBe(0)
    expect((await cairn(home, 'doctor')).code).toBe(0)
  }, 60_000)

  it('pages overwritten with garbage (page 3 on): the same one line, and --repair reads the rows back from the pages', async () => {
    const { home, stateDb, sessions } = await seeded()
    overwritePages(stateDb, 3, 20)
    expectOneLineAdvice(await cairn(home, 'tool', 'memory', '{"action":"read"}'), stateDb)
    const doctor = await cairn(home, 'doctor')
    expect(doctor.code).toBe(1)
    expect(doctor.stdout).toMatch(/PROBLEM\s+state\.db\s+damaged: SQLite says: database disk image is malformed/)

    const repair = await cairn(home, 'doctor', '--repair')
    expect(repair.code).toBe(0)
    expect(repair.stdout).toContain(`sessions: ${sessions} rows saved`)
    expect(repair.stdout).toMatch(/SQLite could not open it \(database disk image is malformed\)/)
    expect(asideFiles(home, 'corrupt')).toHaveLength(1)
    await expectSearchFinds(home)
    const list = await cairn(home, 'sessions', '--json')
    expect(list.code).toBe(0)
  }, 60_000)

  it('damage in the middle, past the check at open: the command that meets it prints the same one line', async () => {
    const { home, stateDb } = await seeded()
    const leaves = pagesOf(stateDb, 'messages', 'leaf')
    overwritePages(stateDb, leaves[Math.floor(leaves.length / 2)], 1)
    expect((await cairn(home, 'sessions')).code).toBe(0)
    expectOneLineAdvice(await cairn(home, 'search', MARKER, 'build', 'number'), stateDb)
    const doctor = await cairn(home, 'doctor')
    expect(doctor.code).toBe(1)
    expect(doctor.stdout).toMatch(/PROBLEM\s+state\.db\s+damaged: (SQLite says: database disk image is malformed|integrity_check found \d+ problems)/)
  }, 60_000)

  it('a 0-byte state.db is never silently replaced: refused in one line, left as it is, moved aside only by --repair', async () => {
    const { home, stateDb } = await seeded()
    writeFileSync(stateDb, '')
    for (const name of readdirSync(home)) if (/^state\.db-(wal|shm)$/.test(name)) rmSync(join(home, name))
    expectOneLineAdvice(await cairn(home, 'sessions'), stateDb)
    expect(statSync(stateDb).size).toBe(0)
    const doctor = await cairn(home, 'doctor')
    expect(doctor.code).toBe(1)
    expect(doctor.stdout).toMatch(/damaged: it is an empty file, 0 bytes/)
    expect(doctor.stdout).toContain('If you have a backup of state.db, put it back now')
    expect(statSync(stateDb).size).toBe(0)

    const repair = await cairn(home, 'doctor', '--repair')
    expect(repair.code).toBe(0)
    expect(repair.stdout).toContain('replaced the empty state.db with a fresh database')
    const [aside] = asideFiles(home, 'empty')
    expect(statSync(join(home, aside)).size).toBe(0)
    expect((await cairn(home, 'sessions')).code).toBe(0)
  }, 60_000)
})

describe('cairn doctor on a home without damage', () => {
  it('healthy: exit 0, every check ok', async () => {
    const { home } = await seeded()
    const doctor = await cairn(home, 'doctor')
    expect(doctor.code).toBe(0)
    expect(doctor.stdout).toMatch(/ok\s+state\.db\s+passed integrity_check/)
    expect(doctor.stdout).not.toMatch(/PROBLEM/)
    expect(doctor.stdout).toContain('No problems found.')
  }, 30_000)

  it('names the log files, saying which have nothing in them yet', async () => {
    const { home } = await seeded()
    mkdirSync(join(home, 'logs'), { recursive: true })
    writeFileSync(join(home, 'logs', 'main.log'), '2026-12-05T10:00:00.000Z INFO Cairn starting\n')
    const doctor = await cairn(home, 'doctor')
    expect(doctor.stdout).toContain(`the app      ${join(home, 'logs', 'main.log')}\n`)
    expect(doctor.stdout).toContain(`reviews      ${join(home, 'logs', 'review.log')} (nothing written yet)\n`)
    const report = JSON.parse((await cairn(home, 'doctor', '--json')).stdout)
    expect(report.logs).toEqual({
      main: { path: join(home, 'logs', 'main.log'), exists: true },
      review: { path: join(home, 'logs', 'review.log'), exists: false },
      mcp: { path: join(home, 'logs', 'mcp'), exists: false }
    })
  }, 30_000)

  it('a stale lock and an orphan temp file: reported with what to do, removed by --repair', async () => {
    const { home } = await seeded()
    const hourAgo = (Date.now() - 3_600_000) / 1000
    const lock = join(home, '.locks', 'skills', 'deploy.lock')
    mkdirSync(lock, { recursive: true })
    utimesSync(lock, hourAgo, hourAgo)
    const skill = join(home, 'skills', 'deploy')
    mkdirSync(skill, { recursive: true })
    writeFileSync(join(skill, 'SKILL.md'), '---\nname: deploy\ndescription: Deploy the site.\n---\n\nRun make deploy.\n')
    const temp = join(skill, 'SKILL.md.2166136261')
    writeFileSync(temp, '')
    utimesSync(temp, hourAgo, hourAgo)

    const doctor = await cairn(home, 'doctor')
    expect(doctor.code).toBe(1)
    expect(doctor.stdout).toMatch(/PROBLEM\s+locks\s+1 stale lock/)
    expect(doctor.stdout).toContain('.locks/skills/deploy.lock (untouched for 60 min)')
    expect(doctor.stdout).toMatch(/PROBLEM\s+temp files\s+1 orphan temp file/)
    expect(doctor.stdout).toContain('skills/deploy/SKILL.md.2166136261 (0 bytes')
    expect(doctor.stdout).toContain('2 problems found. "cairn doctor --repair" fixes them all.')

    const repair = await cairn(home, 'doctor', '--repair', '--json')
    expect(repair.code).toBe(0)
    const result = JSON.parse(repair.stdout) as { repairs: Array<{ check: string; summary: string }>; after: { healthy: boolean } }
    expect(result.repairs.map((r) => [r.check, r.summary])).toEqual([
      ['locks', 'removed 1 stale lock'],
      ['temp-files', 'removed 1 orphan temp file']
    ])
    expect(result.after.healthy).toBe(true)
    expect(existsSync(lock)).toBe(false)
    expect(existsSync(temp)).toBe(false)
    expect(existsSync(join(skill, 'SKILL.md'))).toBe(true)
  }, 30_000)
})

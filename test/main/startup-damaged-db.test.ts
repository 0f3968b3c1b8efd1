import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openStateDb } from '../../electron/core/db/state-db'
import { overwritePages, seedHome } from '../core/db/damaged-home'
import { buildShell, REPO_ROOT, type ShellBuild } from './build-shell'

interface BootReport {
  dialogs: Array<{ title: string; content: string; buttons?: string[] }>
  exits: number[]
  relaunches: number
  windows: number
}

let build: ShellBuild
const dirs: string[] = []

/** Boots the built main process under the electron stub in a child process (as startup.test.ts does). */
async function boot(home: string, stub: { messageBoxAnswer?: number } = {}): Promise<BootReport> {
  const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: home }
  for (const key of ['ELECTRON_RENDERER_URL', 'CAIRN_SQLITE_BINDING', 'CAIRN_BASE_URL', 'CAIRN_MODEL']) delete env[key]
  const userData = mkdtempSync(join(tmpdir(), 'cairn-userdata-'))
  dirs.push(userData)
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'fixtures', 'boot-shell.ts'), build.mainEntry, userData, REPO_ROOT, JSON.stringify(stub)],
    { cwd: REPO_ROOT, env, timeout: 60_000 }
  )
  return JSON.parse(stdout.split('\n').findLast((line) => line.startsWith('{'))!) as BootReport
}

beforeAll(async () => {
  build = await buildShell()
}, 120_000)

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('starting the app on a damaged state.db', () => {
  it('says in the "cannot start" dialog what is wrong, offers Repair, and on Quit leaves the file as it was', async () => {
    const { home, stateDb } = await seedHome(20, 'cairn-app-damaged-')
    dirs.push(home)
    overwritePages(stateDb, 3, 20)
    const damaged = readFileSync(stateDb)
    const report = await boot(home)
    expect(report.dialogs).toHaveLength(1)
    expect(report.dialogs[0].title).toBe('Cairn cannot start')
    expect(report.dialogs[0].content).toContain(`${stateDb} is damaged`)
    expect(report.dialogs[0].content).toContain('"cairn doctor --repair"')
    expect(report.dialogs[0].buttons).toEqual(['Repair', 'Quit'])
    expect(report.dialogs[0].content).not.toMatch(/\n\s+at /)
    expect(report.exits).toEqual([1])
    expect(report.relaunches).toBe(0)
    expect(report.windows).toBe(0)
    expect(readFileSync(stateDb).equals(damaged)).toBe(true)
  })

  it('speaks the language of the settings: a 0-byte state.db in Chinese', async () => {
    const { home, stateDb } = await seedHome(1, 'cairn-app-damaged-')
    dirs.push(home)
    writeFileSync(join(home, 'config.json'), JSON.stringify({ ui: { language: 'zh-CN' } }))
    writeFileSync(stateDb, '')
    const report = await boot(home)
    expect(report.dialogs[0]).toEqual({
      title: 'Cairn 无法启动',
      content: expect.stringContaining(`${stateDb} 已损坏（它是一个空文件，0 字节）`),
      buttons: ['修复', '退出']
    })
    expect(report.dialogs[0].content).toContain('cairn doctor --repair')
    expect(report.exits).toEqual([1])
    expect(readFileSync(stateDb).length).toBe(0)
  })

  it('repairs when the user chooses Repair: the damaged file is kept aside, what can be read is saved, and the app starts again', async () => {
    const { home, stateDb } = await seedHome(20, 'cairn-app-damaged-')
    dirs.push(home)
    overwritePages(stateDb, 3, 20)
    const damaged = readFileSync(stateDb)
    const report = await boot(home, { messageBoxAnswer: 0 })
    expect(report.dialogs.map((d) => d.title)).toEqual(['Cairn cannot start', 'Cairn repaired its database'])
    expect(report.exits).toEqual([0])
    expect(report.relaunches).toBe(1)
    const kept = readdirSync(home).filter((name) => name.startsWith('state.db.corrupt-') && !/-(wal|shm)$/.test(name))
    expect(kept).toHaveLength(1)
    expect(readFileSync(join(home, kept[0])).equals(damaged)).toBe(true)
    const db = openStateDb(stateDb)
    try {
      expect((db.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n).toBeGreaterThan(0)
    } finally {
      db.close()
    }
  })
})

import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openStateDb } from '../../../electron/core/db/state-db'
import { ensureHome } from '../../../electron/core/config/home'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { SkillStore } from '../../../electron/core/skills'

const repo = join(__dirname, '..', '..', '..')
const core = join(repo, 'electron', 'core')

/**
 * A separate Cairn process: opens the data home, waits at a barrier so all children act at once,
 * runs one skill action and prints its result as JSON.
 */
const childSource = `
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openStateDb } from ${JSON.stringify(join(core, 'db', 'state-db.ts'))}
import { homePaths } from ${JSON.stringify(join(core, 'config', 'home.ts'))}
import { Ledger } from ${JSON.stringify(join(core, 'ledger', 'ledger.ts'))}
import { SkillStore } from ${JSON.stringify(join(core, 'skills', 'index.ts'))}

const [home, id, action, payload] = process.argv.slice(2)
const paths = homePaths(home)
const db = openStateDb(paths.stateDb)
const store = new SkillStore({ dataHome: home, skillsDir: paths.skillsDir, extraDirs: [], locksDir: paths.locksDir, db, recorder: new Ledger(db) })
store.load()
writeFileSync(join(home, 'ready-' + id), '')
while (!existsSync(join(home, 'go'))) await new Promise((resolve) => setTimeout(resolve, 2))
const args = JSON.parse(payload)
const ctx = { source: 'agent', sessionId: 'child-' + id }
const result = action === 'create' ? await store.create(args, ctx) : await store.patch(args, ctx)
process.stdout.write(JSON.stringify(result))
db.close()
`

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
})

function runChild(home: string, script: string, id: number, action: string, args: object): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, home, String(id), action, JSON.stringify(args)], { cwd: repo })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.stderr.on('data', (chunk) => (err += chunk))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child ${id} exited ${code}: ${err}`))))
  })
}

/** Starts every child, waits until all have loaded, then releases them together. */
async function race(home: string, jobs: { action: string; args: object }[]): Promise<Record<string, any>[]> {
  const script = join(home, 'child.mts')
  writeFileSync(script, childSource)
  const running = jobs.map((job, id) => runChild(home, script, id, job.action, job.args))
  const deadline = Date.now() + 60_000
  while (!jobs.every((_, id) => existsSync(join(home, `ready-${id}`)))) {
    if (Date.now() > deadline) throw new Error('children did not start')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  writeFileSync(join(home, 'go'), '')
  return Promise.all(running)
}

function setup() {
  const home = mkdtempSync(join(tmpdir(), 'cairn-'))
  const paths = ensureHome(home)
  const db = openStateDb(paths.stateDb)
  const ledger = new Ledger(db)
  const store = new SkillStore({ dataHome: home, skillsDir: paths.skillsDir, extraDirs: [], locksDir: paths.locksDir, db, recorder: ledger })
  store.load()
  cleanups.push(() => {
    db.close()
    rmSync(home, { recursive: true, force: true })
  })
  return { home, paths, ledger, store }
}

const skillText = (name: string, body: string) => `---\nname: ${name}\ndescription: Shared skill\n---\n${body}`

describe('skill writes from several processes', () => {
  it('lets exactly one of two concurrent creates of the same name win', async () => {
    const { home, paths, ledger } = setup()
    const results = await race(home, [
      { action: 'create', args: { name: 'shared', category: 'one', content: skillText('shared', 'From child 0\n') } },
      { action: 'create', args: { name: 'shared', category: 'two', content: skillText('shared', 'From child 1\n') } }
    ])
    expect(results.map((result) => result.success).sort()).toEqual([false, true])
    expect(results.find((result) => !result.success)?.error).toMatch(/^A skill named 'shared' already exists/)
    const winners = ['one', 'two'].filter((category) => existsSync(join(paths.skillsDir, category, 'shared', 'SKILL.md')))
    expect(winners).toHaveLength(1)
    expect(ledger.list({ kinds: ['skill.create'] })).toHaveLength(1)
  }, 90_000)

  it('keeps every edit when several processes patch different parts of one skill at once', async () => {
    const { home, paths, store, ledger } = setup()
    const lines = ['Step A', 'Step B', 'Step C', 'Step D']
    await store.create({ name: 'shared', content: skillText('shared', lines.map((line) => `- ${line}\n`).join('')) }, { source: 'user' })
    const results = await race(
      home,
      lines.map((line) => ({ action: 'patch', args: { name: 'shared', old_string: `- ${line}\n`, new_string: `- ${line} (done)\n` } }))
    )
    expect(results.map((result) => result.success)).toEqual([true, true, true, true])
    const text = readFileSync(join(paths.skillsDir, 'shared', 'SKILL.md'), 'utf8')
    for (const line of lines) expect(text).toContain(`- ${line} (done)\n`)
    expect(ledger.list({ kinds: ['skill.patch'] })).toHaveLength(4)
  }, 90_000)
})

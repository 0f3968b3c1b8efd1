import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { runBuiltCairn } from '../helpers/run-cli'

const root = join(__dirname, '..', '..')
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> }

// Built fresh from the current source into out/<temp>: two levels below the checkout, as out/cli is,
// so the bundle finds node_modules (better-sqlite3) and the checkout the same way.
let outdir: string
let bundle: string
beforeAll(() => {
  outdir = mkdtempSync(join(root, 'out', 'cli-test-'))
  execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), outdir])
  bundle = join(outdir, 'cairn.js')
})
afterAll(() => rmSync(outdir, { recursive: true, force: true }))

let home: string
let folder: string
let server: ScriptedServer
let chat: ScriptedReply[]
let review: ScriptedReply[]
beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-cli-bundle-home-'))
  folder = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-cli-bundle-folder-')))
  chat = []
  review = []
  server = await startScriptedServer({ strict: true, respond: (req) => (isReviewRequest(req) ? review.shift() : chat.shift()) })
})
afterEach(async () => {
  await server.close()
})

const env = () => ({ CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-test' })

describe('the bundled cairn command', () => {
  it('is what the package installs as `cairn`', () => {
    expect(packageJson.bin).toEqual({ cairn: 'out/cli/cairn.js' })
  })

  it('prints its usage', async () => {
    const run = await runBuiltCairn(bundle, ['--help'], { cwd: folder })
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Cairn: a desktop assistant/)
  })

  it('loads a command\'s code only when that command runs, so --help starts at once', () => {
    // What `cairn --help` reads: the launcher, the entry and what the entry imports statically.
    const loaded = new Set<string>()
    const visit = (file: string) => {
      if (loaded.has(file)) return
      loaded.add(file)
      for (const match of readFileSync(join(outdir, file), 'utf8').matchAll(/(?:from|import)\s*"\.\/([^"]+)"/g)) visit(match[1])
    }
    visit('cli.mjs')
    const bytes = [...loaded].reduce((sum, file) => sum + statSync(join(outdir, file)).size, 0)
    // The whole CLI is megabytes (core, MCP SDK, isomorphic-git); its start needs a few KB of it.
    expect(bytes).toBeLessThan(64 * 1024)
    expect(readFileSync(join(outdir, 'cairn.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/)
  })

  it('works in the folder it is started in and learns through its own bundled review worker', async () => {
    chat.push({ text: 'Noted, green tea it is.' })
    review.push(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Prefers green tea.' } }] },
      { text: 'Saved that you prefer green tea.' }
    )
    const run = await runBuiltCairn(bundle, ['--home', home, 'chat', 'I prefer green tea over coffee.', '--wait'], { env: env(), cwd: folder })
    expect(run.stderr).toContain(`workspace: ${folder}\n`)
    expect(run.stdout).toBe('Noted, green tea it is.\n')
    expect(run.stderr).toMatch(/💾 User profile updated\n {3}Remembered: Prefers green tea\.\n/)
    expect(run.code).toBe(0)
    expect(readFileSync(join(home, 'memories', 'USER.md'), 'utf8')).toBe('Prefers green tea.')
    // The review worker keeps its own log under the data home (cairn doctor names it).
    const log = readFileSync(join(home, 'logs', 'review.log'), 'utf8')
    expect(log).toMatch(/ INFO \[review \S+ pid \d+\] started for session \S+/)
    expect(log).toMatch(/ INFO \[review \S+ pid \d+\] done: 1 change\(s\), 0 proposal\(s\), 1 tool call\(s\) in 2 model call\(s\)/)
  })
})

import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { CairnCore } from '../../electron/core/cairn'
import { runCairn } from '../helpers/run-cli'

let home: string
let longId: string
const cairn = (...args: string[]) => runCairn(['--home', home, ...args])

/** 45 short conversations and one of 2,000 messages, all stored directly. */
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-cli-pages-'))
  const core = await CairnCore.open({ home })
  try {
    for (let n = 1; n <= 45; n++) {
      const s = core.sessions.create({ title: `Chat ${n}`, startedAt: 1_000_000 + n * 1000 })
      core.sessions.append(s.id, { role: 'user', content: `hello ${n}`, createdAt: 1_000_000 + n * 1000 })
    }
    const long = core.sessions.create({ title: 'The long one', startedAt: 500_000 })
    core.sessions.appendMany(
      long.id,
      Array.from({ length: 2000 }, (_, n) => ({ role: n % 2 ? ('assistant' as const) : ('user' as const), content: `line ${n + 1}`, createdAt: 500_000 + n }))
    )
    longId = long.id
  } finally {
    await core.close()
  }
})

describe('cairn sessions, a page at a time', () => {
  it('lists 20 at a time and says how to see the next ones until the last', async () => {
    const seen: string[] = []
    let args = ['sessions']
    for (let page = 0; page < 5; page++) {
      const run = await cairn(...args)
      expect(run.code).toBe(0)
      const lines = run.stdout.trimEnd().split('\n')
      const more = lines.at(-1)?.match(/^More: cairn sessions (--before \S+)$/)
      seen.push(...lines.filter((line) => /msgs/.test(line)).map((line) => line.split(' ')[0]))
      if (!more) break
      args = ['sessions', ...more[1].split(' ')]
    }
    expect(seen).toHaveLength(46)
    expect(new Set(seen).size).toBe(46)
    expect(seen.at(-1)).toBe(longId)

    const json = await cairn('sessions', '--json', '--limit', '10')
    expect(JSON.parse(json.stdout)).toHaveLength(10)
    expect(json.stderr).toMatch(/^More: cairn sessions --json --limit 10 --before \S+\n$/)
    const bad = await cairn('sessions', '--before', 'not-a-cursor')
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('--before takes the cursor a previous page printed')
  })

  it('shows the last messages of a conversation and pages back by message id', async () => {
    const last = await cairn('sessions', 'show', longId)
    expect(last.code).toBe(0)
    const lines = last.stdout.split('\n').filter((line) => line.startsWith('#'))
    expect(lines).toHaveLength(20)
    expect(lines.at(-1)).toMatch(/Cairn: line 2000$/)
    const earlier = last.stdout.match(/Earlier: cairn sessions show \S+ --before (\d+)/)
    expect(earlier).not.toBeNull()

    const before = await cairn('sessions', 'show', longId, '--before', earlier![1], '--limit', '500')
    const older = before.stdout.split('\n').filter((line) => line.startsWith('#'))
    expect(older).toHaveLength(500)
    expect(older.at(-1)).toMatch(/Cairn: line 1980$/)
    expect(before.stdout).toMatch(/Earlier: cairn sessions show \S+ --limit 500 --before \d+/)

    expect((await cairn('sessions', 'show', longId, '--limit', '501')).stderr).toContain('--limit must be a whole number from 1 to 500')
    expect((await cairn('sessions', 'show', 'nope')).stderr).toContain('There is no conversation nope')
  })

  it('exports the long conversation whole, to stdout and to a file', async () => {
    const out = join(home, 'long.json')
    const run = await cairn('sessions', 'export', longId, '--format', 'json', '--out', out)
    expect(run.code).toBe(0)
    const parsed = JSON.parse(readFileSync(out, 'utf8')) as { messages: Array<{ content: string }> }
    expect(parsed.messages.map((m) => m.content)).toEqual(Array.from({ length: 2000 }, (_, n) => `line ${n + 1}`))
    const md = await cairn('sessions', 'export', longId)
    expect(md.stdout.match(/^## (You|Cairn)$/gm)).toHaveLength(2000)
    expect(md.stdout.endsWith('line 2000\n')).toBe(true)
  })
})

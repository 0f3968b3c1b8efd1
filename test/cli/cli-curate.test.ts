import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../scripted-provider'
import { runCairn } from '../helpers/run-cli'

let home: string
let server: ScriptedServer

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-cli-curate-'))
  server = await startScriptedServer({ strict: true })
  writeFileSync(join(home, 'config.json'), JSON.stringify({ skills: { extraDirs: [] } }))
})
afterEach(async () => {
  await server.close()
})

const cairn = (...args: string[]) =>
  runCairn(['--home', home, ...args], { env: { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-test' }, cwd: home })
const add = (content: string) => ({ action: 'add', target: 'user', content })

describe('cairn curate', () => {
  it('proposes merging repeated memory entries in the Inbox and changes nothing until approved', async () => {
    // Adds refuse a reworded entry now; repeats come from before that, or from a hand edit of the file.
    expect((await cairn('tool', 'memory', JSON.stringify(add('User lives in Lisbon.')))).code).toBe(0)
    writeFileSync(join(home, 'memories', 'USER.md'), ['User prefers pnpm over npm.', 'The user prefers pnpm instead of npm.', 'User lives in Lisbon.'].join('\n§\n'))
    const before = readFileSync(join(home, 'memories', 'USER.md'), 'utf8')
    server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'read', target: 'user' } }] },
      { toolCalls: [{ name: 'memory', arguments: { action: 'remove', target: 'user', old_text: 'The user prefers pnpm instead of npm.' } }] },
      { text: 'Proposed removing a repeated pnpm entry.' }
    )
    const run = await cairn('curate', '--wait', '--json')
    expect(run.code).toBe(0)
    const result = JSON.parse(run.stdout)
    expect(result).toMatchObject({ status: 'done', archived: [], proposals: [{ kind: 'memory.remove', before: 'The user prefers pnpm instead of npm.', origin: 'curation', cause: 'curation' }] })
    // The curator saw the overlap it was pointed at.
    const brief = server.chatRequests()[0].body.messages[1].content as string
    expect(brief).toMatch(/Memory entries that may repeat each other[\s\S]*pnpm[\s\S]*pnpm/)
    expect(readFileSync(join(home, 'memories', 'USER.md'), 'utf8')).toBe(before)

    expect((await cairn('inbox', 'approve', String(result.proposals[0].id))).code).toBe(0)
    expect(readFileSync(join(home, 'memories', 'USER.md'), 'utf8')).not.toContain('instead of npm')
  })
})

import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCairn } from '../helpers/run-cli'
import { tempDir } from '../core/import/hermes-home'

const FIXTURES = join(__dirname, '..', 'fixtures')
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('cairn import chatgpt|claude', () => {
  it('imports an export as a batch that search finds, list shows and undo takes back', async () => {
    const home = tempDir('cairn-cli-exports-')
    dirs.push(home)
    const cairn = (args: string[]) => runCairn(['--home', home, ...args], { cwd: home })

    const dry = await cairn(['import', 'claude', join(FIXTURES, 'claude-export'), '--dry-run'])
    expect(dry.code).toBe(0)
    expect(dry.stdout).toBe(`Dry run: nothing was changed. Importing ${join(FIXTURES, 'claude-export')} would bring in:\n  conversations: 2 added (4 messages), 0 imported before\n`)

    const run = await cairn(['import', 'chatgpt', join(FIXTURES, 'chatgpt-export', 'conversations.json'), '--json'])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ importId: 1, source: 'chatgpt', counts: { sessions: { added: 2, existing: 0, messages: 8 } }, problems: [] })
    expect((await cairn(['search', 'levain nail polish'])).stdout).toContain('Reviving a sourdough starter')
    expect((await cairn(['import', 'list'])).stdout).toMatch(/^#1 {2}.+ {2}chatgpt {2}.+conversations\.json {2}2 conversations\n$/)

    const missing = await cairn(['import', 'chatgpt'])
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toContain('Give the export to import, e.g. cairn import chatgpt')

    const undo = await cairn(['import', 'undo', '1'])
    expect(undo.stdout).toContain('Undid import #1: 0 changes reverted, 2 conversations deleted')
    expect((await cairn(['search', 'levain nail polish'])).stdout).not.toContain('Reviving a sourdough starter')
  })

  it('shows progress on stderr while streaming a large export whose total is not known ahead', async () => {
    const home = tempDir('cairn-cli-exports-large-')
    dirs.push(home)
    const file = join(home, 'conversations.json')
    const conversation = (i: number) => ({
      uuid: `conv-${i}`,
      name: `Question ${i}`,
      created_at: '2025-01-01T10:00:00Z',
      chat_messages: [
        { sender: 'human', text: `What is ${i} squared?`, created_at: '2025-01-01T10:00:01Z' },
        { sender: 'assistant', text: `${i * i}.`, created_at: '2025-01-01T10:00:02Z' }
      ]
    })
    writeFileSync(file, JSON.stringify(Array.from({ length: 2000 }, (_, i) => conversation(i))))
    const run = await runCairn(['--home', home, 'import', 'claude', file], { cwd: home })
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('importing conversations: 1000 so far\nimporting conversations: 2000 so far\nimporting conversations: 2000/2000\n')
    expect(run.stdout).toContain('conversations: 2000 added (4000 messages), 0 imported before')
  })
})

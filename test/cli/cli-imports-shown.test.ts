import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../../electron/cli/main'
import { commands, usageText } from '../../electron/cli/commands'
import { IMPORT_SOURCE_NAMES } from '../../electron/cli/commands/import-sources'
import type { CliIO } from '../../electron/cli/io'
import { hermesHome, tempDir } from '../core/import/hermes-home'

const FIXTURES = join(__dirname, '..', 'fixtures')
const CHATGPT = join(FIXTURES, 'chatgpt-export', 'conversations.json')

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** Runs `cairn` in this process (the same entry the command runs), capturing what it prints. */
async function cairn(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: CliIO = { out: (text) => void (stdout += text), err: (text) => void (stderr += text), isTTY: false }
  const code = await runCli(args, io, { PATH: process.env.PATH })
  return { code, stdout, stderr }
}

describe('cairn --help lists every command and every importer', () => {
  it('has a line for each registered command and each source `cairn import` takes', async () => {
    const help = await cairn(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toBe(usageText)
    for (const name of Object.keys(commands)) expect(help.stdout, name).toMatch(new RegExp(`^  ${name}\\b`, 'm'))
    for (const source of IMPORT_SOURCE_NAMES) expect(help.stdout, source).toMatch(new RegExp(`^  import ${source} `, 'm'))
    // And each importer named there is one the command accepts (a dry run of a missing path is its own refusal, not "cannot import from").
    const home = tempDir('cairn-help-')
    dirs.push(home)
    for (const source of IMPORT_SOURCE_NAMES) {
      const run = await cairn(['--home', home, 'import', source, join(home, 'nothing-here'), '--dry-run'])
      expect(run.stderr, source).not.toContain('cannot import from')
    }
  })
})

describe('imported conversations in the CLI', () => {
  it('sessions show labels each speaker by where it came from, and a re-import says nothing new and keeps no batch', async () => {
    const home = tempDir('cairn-imported-cli-')
    dirs.push(home)
    const first = await cairn(['--home', home, 'import', 'chatgpt', CHATGPT])
    expect(first.code).toBe(0)
    expect(first.stdout).toContain('conversations: 2 added (8 messages), 0 imported before')

    const again = await cairn(['--home', home, 'import', 'chatgpt', CHATGPT])
    expect(again.code).toBe(0)
    expect(again.stdout).toBe(`Nothing new in ${CHATGPT}: everything there was imported before, so no import was recorded (nothing to undo).\n`)
    const listed = await cairn(['--home', home, 'import', 'list'])
    expect(listed.stdout.trim().split('\n')).toHaveLength(1)
    expect(listed.stdout).toMatch(/^#1 {2}.+ {2}chatgpt {2}.+ {2}2 conversations\n$/)

    const sessions = JSON.parse((await cairn(['--home', home, 'sessions', '--json'])).stdout) as Array<{ id: string; title: string; model: string | null }>
    const sourdough = sessions.find((session) => session.title === 'Reviving a sourdough starter')!
    expect(sourdough.model).toBeNull()
    const shown = (await cairn(['--home', home, 'sessions', 'show', sourdough.id])).stdout
    expect(shown).toMatch(/ {2}You: My levain smells like nail polish/)
    expect(shown).toMatch(/ {2}ChatGPT \(gpt-4o\): Not dead: the acetone smell/)
    expect(shown).toMatch(/ {2}ChatGPT \(gpt-4o-mini\): Feed 1:5:5 by weight/)
    expect(shown).not.toContain('Cairn:')

    // The export heads the imported answers the same way (a document: its own headings stay as they were).
    const exported = (await cairn(['--home', home, 'sessions', 'export', sourdough.id])).stdout
    expect(exported).toContain('## You\n\nMy levain smells like nail polish')
    expect(exported).toMatch(/## ChatGPT \(gpt-4o\)\n\nNot dead: the acetone smell/)
    expect(exported).toMatch(/## ChatGPT \(gpt-4o-mini\)\n\nFeed 1:5:5 by weight/)
    expect(exported).not.toContain('## Cairn')
  })

  it('counts are said in the singular when there is one', async () => {
    const home = tempDir('cairn-imported-plural-')
    dirs.push(home)
    const hermes = hermesHome()
    dirs.push(join(hermes, '..'))
    const run = await cairn(['--home', home, 'import', 'hermes', hermes])
    expect(run.code).toBe(0)
    expect(run.stdout).not.toMatch(/\b1 (files|problems|conversations|skills|messages|duplicates)\b/)
    const again = await cairn(['--home', home, 'import', 'hermes', hermes])
    expect(again.stdout).toMatch(/^Nothing new in /)
    expect(again.stdout).not.toMatch(/\b1 problems\b/)
    const listed = await cairn(['--home', home, 'import', 'list'])
    expect(listed.stdout.trim().split('\n')).toHaveLength(1)
    expect(listed.stdout).not.toMatch(/\b1 (problems|skills|conversations)\b/)
  })
})

import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCairn } from '../helpers/run-cli'
import { claudeCodeHome, openClawWorkspace } from '../core/import/agent-homes'
import { cairnHome } from '../core/import/hermes-home'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const cairn = (home: string, args: string[], env: NodeJS.ProcessEnv = {}) => runCairn(['--home', home, 'import', ...args], { cwd: home, env })

describe('cairn import openclaw|claude-code', () => {
  it('imports an OpenClaw workspace ($OPENCLAW_WORKSPACE_DIR by default), daily logs as notes, and undoes it', async () => {
    const home = await cairnHome()
    const workspace = openClawWorkspace()
    dirs.push(home, join(workspace, '..', '..'))
    const dry = await cairn(home, ['openclaw', '--dry-run'], { OPENCLAW_WORKSPACE_DIR: workspace })
    expect(dry.stderr).toBe('')
    expect(dry.code).toBe(0)
    expect(dry.stdout).toContain(`Dry run: nothing was changed. Importing ${workspace} would bring in:\n`)
    expect(dry.stdout).toContain('  memory: 10 added, 2 duplicates dropped, 0 archived (no room in the memory file), 1 refused\n')
    expect(dry.stdout).toContain('  daily notes: 3 added, 0 imported before\n')
    expect(dry.stdout).toContain('  MEMORY.md:22: entry not imported: ')
    expect(dry.stdout).toContain("  SOUL.md: not imported: it is OpenClaw's persona, instructions rather than memory.\n")

    const run = await cairn(home, ['openclaw', workspace])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`Imported ${workspace} as import #1:\n`)
    expect(run.stdout).toContain('Undo it all with: cairn import undo 1\n')
    const listed = await cairn(home, ['list'])
    expect(listed.stdout).toMatch(/ {2}openclaw {2}.+ {2}10 memory entries, 4 skills, 3 daily notes, \d+ problems\n$/)
    const undone = await cairn(home, ['undo', '1'])
    expect(undone.code).toBe(0)
    expect(undone.stdout).toContain('3 conversations deleted')
  })

  it('imports Claude Code ($CLAUDE_CONFIG_DIR by default): memories wait in the Inbox, skills are created', async () => {
    const home = await cairnHome()
    const claude = claudeCodeHome()
    dirs.push(home, join(claude, '..'))
    const run = await cairn(home, ['claude-code', '--json'], { CLAUDE_CONFIG_DIR: claude })
    expect(run.stderr).toBe('')
    const report = JSON.parse(run.stdout) as { source: string; counts: { memory: { added: number; proposed: number }; skills: { created: number } } }
    expect(report).toMatchObject({ source: 'claude-code', counts: { memory: { added: 0, proposed: 7 }, skills: { created: 2 } } })

    const again = await cairn(home, ['claude-code', claude])
    expect(again.code).toBe(0)
    // Issue 29: a re-import that brings nothing says so and records no (empty) batch to undo.
    expect(again.stdout).toContain(`Nothing new in ${claude}: everything there was imported before, so no import was recorded (nothing to undo).`)
    expect(again.stdout).toContain('1 problem (the rest was imported before):')
    expect(again.stdout).not.toContain('conversations:')
    const imports = await runCairn(['--home', home, 'import', 'list', '--json'], { cwd: home })
    expect((JSON.parse(imports.stdout) as unknown[]).length).toBe(1)
    const inbox = await runCairn(['--home', home, 'inbox', '--json'], { cwd: home })
    expect((JSON.parse(inbox.stdout) as unknown[]).length).toBe(7)
  })

  it('says clearly when the folder is not one', async () => {
    const home = await cairnHome()
    dirs.push(home)
    const missing = await cairn(home, ['claude-code', join(home, 'nope')])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain(`There is no Claude Code folder at ${join(home, 'nope')}.`)
    const notOpenClaw = await cairn(home, ['openclaw', join(home, 'skills')])
    expect(notOpenClaw.code).toBe(1)
    expect(notOpenClaw.stderr).toContain('does not look like an OpenClaw workspace')
  })
})

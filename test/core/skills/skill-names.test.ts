import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { newSkillFolderProblem, validateCategory, validateNewSkillName } from '../../../electron/core/skills/skill-paths'
import { put, skillEnv, skillText, type Json } from '../../helpers/skill-env'

/** The name an error suggests (`… e.g. 'venv-skill'.`). */
function suggestion(error: string): string {
  const match = /e\.g\. '([^']+)'/.exec(error)
  if (!match) throw new Error(`no suggestion in: ${error}`)
  return match[1]
}

const created = (env: ReturnType<typeof skillEnv>): string[] => readdirSync(env.paths.skillsDir).filter((name) => name !== '.archive')

describe('names the skill scanner skips', () => {
  it.each(['venv', 'node_modules', 'site-packages'])('refuses to create %s, saying why and suggesting a name', async (name) => {
    const env = skillEnv()
    const result = await env.manage({ action: 'create', name, content: skillText(name) })
    expect(result.success).toBe(false)
    expect(result.error).toMatch(new RegExp(`^Invalid skill name '${name}': Cairn's skill scanner skips folders named '${name}'`))
    expect(result.error).toContain('it would be saved but never listed or viewable')
    expect(created(env)).toEqual([])
    expect(env.ledger.list({ limit: 10 })).toHaveLength(0)
    const better = suggestion(result.error)
    expect(validateNewSkillName(better)).toBeNull()
    expect((await env.manage({ action: 'create', name: better, content: skillText(better) })).success).toBe(true)
    expect(env.store.list().map((skill) => skill.name)).toEqual([better])
  })

  it('never lets a second create overwrite the first (the reported attack)', async () => {
    const env = skillEnv()
    const first = await env.manage({ action: 'create', name: 'venv', content: skillText('venv', 'First version') })
    const second = await env.manage({ action: 'create', name: 'venv', content: skillText('venv', 'Second version') })
    expect([first.success, second.success]).toEqual([false, false])
    expect(existsSync(join(env.paths.skillsDir, 'venv'))).toBe(false)
  })

  it.each(['node_modules', 'venv', '__pycache__'])('refuses category %s', async (category) => {
    const env = skillEnv()
    const result = await env.manage({ action: 'create', name: 'notes', category, content: skillText('notes') })
    expect(result.success).toBe(false)
    expect(result.error).toMatch(/^Invalid category '.*'/)
    expect(created(env)).toEqual([])
  })
})

describe('Windows-reserved names', () => {
  const reserved = ['con', 'prn', 'aux', 'nul', 'com0', 'com1', 'com9', 'lpt0', 'lpt1', 'lpt9', 'con.md', 'nul.tar.gz', 'aux.v2', 'lpt3.x']

  it.each(reserved)('refuses to create %s, saying why and suggesting a name', async (name) => {
    const env = skillEnv()
    const result = await env.manage({ action: 'create', name, content: skillText(name) })
    expect(result.success).toBe(false)
    expect(result.error).toMatch(new RegExp(`^Invalid skill name '${name.replace(/\./g, '\\.')}': Windows reserves '${name.split('.')[0]}' for a device \\(CON, PRN`))
    expect(created(env)).toEqual([])
    const better = suggestion(result.error)
    expect(validateNewSkillName(better)).toBeNull()
  })

  it.each(['con', 'nul.md', 'com7'])('refuses category %s', (category) => {
    expect(validateCategory(category)).toMatch(/^Invalid category '.*': Windows reserves '.*' for a device/)
  })

  it.each(['console', 'con-tools', 'auxiliary', 'nullable', 'com10', 'lpt', 'my.con', 'prn2pdf'])('allows %s', (name) => {
    expect(validateNewSkillName(name)).toBeNull()
    expect(validateCategory(name)).toBeNull()
  })
})

describe('trailing dots and spaces', () => {
  it.each([['notes.', 'notes'], ['notes..', 'notes'], ['notes ', 'notes'], ['v1.2.', 'v1.2']])('refuses %j and suggests %s', async (name, better) => {
    const env = skillEnv()
    const result = await env.manage({ action: 'create', name, content: skillText(name) })
    expect(result.success).toBe(false)
    expect(result.error).toContain('ends in a dot or a space, which Windows drops from folder names')
    expect(suggestion(result.error)).toBe(better)
    expect(created(env)).toEqual([])
  })

  it('refuses a category ending in a dot; spaces around a category are trimmed as before', async () => {
    expect(validateCategory('devops.')).toMatch(/^Invalid category 'devops\.': .*ends in a dot/)
    const env = skillEnv()
    expect((await env.manage({ action: 'create', name: 'notes', category: 'devops ', content: skillText('notes') })).path).toBe('devops/notes')
  })
})

describe('create never overwrites a SKILL.md the index cannot see', () => {
  it('refuses a category that is itself a skill folder, leaving the hidden skill inside it untouched', async () => {
    const env = skillEnv()
    put(env.paths.skillsDir, 'devops/SKILL.md', skillText('devops'))
    const hidden = put(env.paths.skillsDir, 'devops/deploy/SKILL.md', skillText('deploy', 'Hand-written'))
    env.load()
    expect(env.store.get('deploy')).toBeNull()
    const result: Json = await env.manage({ action: 'create', name: 'deploy', category: 'devops', content: skillText('deploy', 'Overwrite') })
    expect(result.success).toBe(false)
    expect(result.error).toContain("Category 'devops' is itself a skill (devops/SKILL.md)")
    expect(readFileSync(hidden, 'utf8')).toBe(skillText('deploy', 'Hand-written'))
  })

  it('finds an existing SKILL.md at the exact target (a case-insensitive disk, a folder the scan skipped)', () => {
    const env = skillEnv()
    put(env.paths.skillsDir, 'devops/deploy/SKILL.md', skillText('deploy'))
    expect(newSkillFolderProblem(env.paths.skillsDir, ['devops', 'deploy'])).toBe(
      "A SKILL.md already exists at devops/deploy/SKILL.md, although skills_list does not show it. Nothing was written. Choose another name, or move that folder away first."
    )
    expect(newSkillFolderProblem(env.paths.skillsDir, ['devops', 'other'])).toBeNull()
    expect(newSkillFolderProblem(env.paths.skillsDir, ['fresh'])).toBeNull()
  })

  it('keeps edits and deletes working for a skill with such a name written elsewhere', async () => {
    const env = skillEnv()
    put(env.paths.skillsDir, 'con/SKILL.md', skillText('con'))
    env.load()
    expect((await env.manage({ action: 'delete', name: 'con' })).success).toBe(true)
  })
})

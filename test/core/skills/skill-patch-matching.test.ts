import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { skillEnv as setup, withDeploy } from '../../helpers/skill-env'

const body = '# Settings\n- max  =  10\n- timeout: 50\n\n# Steps\n- Run tests\n- Deploy\n'

async function patchedSkill() {
  const env = setup()
  const dir = await withDeploy(env, body)
  const skillMd = join(dir, 'SKILL.md')
  const before = readFileSync(skillMd, 'utf8')
  const patches = () => env.ledger.list({ kinds: ['skill.patch'] })
  return { env, skillMd, before, patches }
}

describe('skill_manage patch matches whole tokens only (issue 9 §4)', () => {
  it('refuses "x = 1" inside "max  =  10" instead of writing "may = 20"', async () => {
    const { env, skillMd, before, patches } = await patchedSkill()
    for (const replace_all of [false, true]) {
      const result = await env.manage({ action: 'patch', name: 'deploy', old_string: 'x = 1', new_string: 'y = 2', replace_all })
      expect(result).toMatchObject({ success: false, code: 'not_found' })
      expect(result.error).toContain('only inside longer words or numbers')
      expect(result.candidates.join('\n')).toContain('max  =  10')
    }
    expect(readFileSync(skillMd, 'utf8')).toBe(before)
    expect(patches()).toEqual([])
  })

  it('refuses an exact "timeout: 5" inside "timeout: 50"', async () => {
    const { env, skillMd, before, patches } = await patchedSkill()
    const result = await env.manage({ action: 'patch', name: 'deploy', old_string: 'timeout: 5', new_string: 'timeout: 9' })
    expect(result).toMatchObject({ success: false, code: 'not_found' })
    expect(readFileSync(skillMd, 'utf8')).toBe(before)
    expect(patches()).toEqual([])
    const whole = await env.manage({ action: 'patch', name: 'deploy', old_string: 'timeout: 50', new_string: 'timeout: 90' })
    expect(whole.success).toBe(true)
    expect(readFileSync(skillMd, 'utf8')).toBe(before.replace('timeout: 50', 'timeout: 90'))
  })

  it('fails, not "nothing changed", when old_string is absent and new_string happens to be there', async () => {
    const { env, skillMd, before, patches } = await patchedSkill()
    const result = await env.manage({ action: 'patch', name: 'deploy', old_string: '- Run lint', new_string: '- Run tests' })
    expect(result).toMatchObject({ success: false, code: 'not_found' })
    expect(result.error).toContain('new_string is already in the skill at line 10')
    expect(result.message).toBeUndefined()
    expect(readFileSync(skillMd, 'utf8')).toBe(before)
    expect(patches()).toEqual([])
  })

  it('reports a real no-op (old_string found, same text in the file\'s quote style) as nothing changed', async () => {
    const env = setup()
    const dir = await withDeploy(env, '# Steps\n- Say \u201chi\u201d.\n')
    const result = await env.manage({ action: 'patch', name: 'deploy', old_string: 'Say "hi".', new_string: 'Say \u201chi\u201d.' })
    expect(result.success).toBe(true)
    expect(result.message).toMatch(/^old_string was found in SKILL\.md of skill 'deploy', but new_string is the same text .*nothing changed\.$/)
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toContain('- Say \u201chi\u201d.\n')
    expect(env.ledger.list({ kinds: ['skill.patch'] })).toEqual([])
  })
})

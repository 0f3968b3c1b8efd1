import { chmodSync, cpSync, existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import matter from 'gray-matter'
import { describe, expect, it } from 'vitest'
import { specIssues } from '../../../electron/core/skills'
import { haveSharedData, skillCorpusDir } from '../../helpers/shared-data'
import { put, skillEnv, skillText } from '../../helpers/skill-env'

/** Every SKILL.md Cairn writes is a valid Agent Skill (agentskills.io), whatever front matter the model sends. */

const BODY = '\n# Deploy\n\n1. Build the image.\n2. Apply the manifest.\n\n---\n`version: 2` in the body stays.\n'
const hermesSkill = (name: string, body = BODY) => [
  '---',
  `name: ${name}`,
  'description: "Deploy the app: build, push, apply."',
  'version: 1.0.0',
  'author: Hermes Agent',
  'license: MIT',
  'tags: [k8s, deploy]',
  'platforms: [linux, macos]',
  'prerequisites:',
  '  commands: [kubectl]',
  'allowed-tools: [Bash, Read]',
  'metadata:',
  '  hermes:',
  '    related_skills: [docker]',
  '---',
  body
].join('\n')

const frontmatterOf = (text: string): Record<string, unknown> => matter(text, {}).data
const bodyOf = (text: string): string => text.slice(text.indexOf('\n---', 3))
const yamlOf = (text: string): string => text.slice(4, text.indexOf('\n---', 3))
const MOVED = ['version', 'author', 'tags', 'platforms', 'prerequisites']

/** The checks every Hermes-style write must pass: valid, values moved as strings, block style, body untouched. */
function expectValidHermesRewrite(text: string, name: string, body: string): void {
  expect(specIssues(text, name)).toEqual([])
  const data = frontmatterOf(text)
  expect(data).toEqual({
    name,
    description: 'Deploy the app: build, push, apply.',
    license: 'MIT',
    'allowed-tools': 'Bash Read',
    metadata: {
      hermes: '{"related_skills":["docker"]}',
      version: '1.0.0',
      author: 'Hermes Agent',
      tags: 'k8s, deploy',
      platforms: 'linux, macos',
      prerequisites: '{"commands":["kubectl"]}'
    }
  })
  expect(yamlOf(text)).not.toMatch(/[{[]\s*$|: [{[]/m) // no flow collections
  expect(yamlOf(text)).toMatch(/^metadata:\n {2}hermes: /m)
  expect(bodyOf(text)).toBe(`\n---\n${body}`)
}

function skillMdOf(env: ReturnType<typeof skillEnv>, name: string): string {
  return readFileSync(env.store.get(name)!.path, 'utf8')
}

describe('create', () => {
  it('moves Hermes-style fields under metadata, says so, and records what is on disk', async () => {
    const env = skillEnv()
    const result = await env.manage({ action: 'create', name: 'deploy', category: 'devops', content: hermesSkill('deploy') })
    expect(result).toMatchObject({ success: true, moved_to_metadata: MOVED })
    expect(result.message).toBe(
      "Skill 'deploy' created. Moved 'version', 'author', 'tags', 'platforms', 'prerequisites' under metadata; " +
        'wrote metadata values as strings; wrote allowed-tools as a space-separated string to keep the skill a valid Agent Skill.'
    )
    const text = skillMdOf(env, 'deploy')
    expectValidHermesRewrite(text, 'deploy', BODY)
    expect(env.ledger.list({ limit: 5 })[0]).toMatchObject({ kind: 'skill.create', after: text })
    expect(env.store.get('deploy')?.description).toBe('Deploy the app: build, push, apply.')
  })

  it('writes front matter that already passes exactly as sent, with no note', async () => {
    const env = skillEnv()
    const content = '---\n# mine\nname: deploy\ndescription: Deploy.\nmetadata:\n  author: me\n---\n# Steps\n'
    const result = await env.manage({ action: 'create', name: 'deploy', content })
    expect(result).toMatchObject({ success: true, message: "Skill 'deploy' created." })
    expect(result.moved_to_metadata).toBeUndefined()
    expect(skillMdOf(env, 'deploy')).toBe(content)
  })

  it.each([
    ['my_skill', 'must be lowercase letters, digits and single hyphens', 'my-skill'],
    ['deploy.v2', 'must be lowercase letters, digits and single hyphens', 'deploy-v2'],
    ['deploy--k8s', "must not contain '--'", 'deploy-k8s'],
    ['-deploy', 'must not start or end with a hyphen', 'deploy'],
    ['Deploy', 'must be lowercase letters, digits and single hyphens', 'deploy']
  ])('refuses the name %j, saying why, and writes nothing', async (name, rule, suggestion) => {
    const env = skillEnv()
    const result = await env.manage({ action: 'create', name, content: skillText(name) })
    expect(result.success).toBe(false)
    expect(result.error).toBe(
      `Invalid skill name '${name}': an Agent Skills name ${rule} (it is also the folder name). Choose another name, e.g. '${suggestion}'.`
    )
    expect(readdirSync(env.paths.skillsDir)).toEqual([])
    expect(env.ledger.list({ limit: 5 })).toEqual([])
  })

  it('refuses what normalizing cannot fix (compatibility over 500 characters), writing nothing', async () => {
    const env = skillEnv()
    const content = `---\nname: deploy\ndescription: Deploy.\ncompatibility: ${'c'.repeat(501)}\n---\n# Steps\n`
    const result = await env.manage({ action: 'create', name: 'deploy', content })
    expect(result).toMatchObject({ success: false, spec_issues: ['compatibility is longer than 500 characters'] })
    expect(result.error).toBe(
      'SKILL.md would not be a valid Agent Skill: compatibility is longer than 500 characters. Nothing was written; fix it and send the call again.'
    )
    expect(readdirSync(env.paths.skillsDir)).toEqual([])
  })

  it('still refuses a front matter name that differs from the folder', async () => {
    const env = skillEnv()
    const result = await env.manage({ action: 'create', name: 'deploy', content: hermesSkill('deploy-app') })
    expect(result.error).toMatch(/^Frontmatter name 'deploy-app' must equal the skill's name 'deploy'/)
    expect(readdirSync(env.paths.skillsDir)).toEqual([])
  })
})

describe('edit', () => {
  it('normalizes a full rewrite the same way, and a resend of the same content changes nothing', async () => {
    const env = skillEnv()
    expect((await env.manage({ action: 'create', name: 'deploy', content: skillText('deploy') })).success).toBe(true)
    const body = BODY.replace('Build', 'Build and scan')
    const result = await env.manage({ action: 'edit', name: 'deploy', content: hermesSkill('deploy', body) })
    expect(result).toMatchObject({ success: true, moved_to_metadata: MOVED })
    expect(result.message).toMatch(/^Skill 'deploy' updated \(full rewrite\)\. Moved 'version', 'author'/)
    const text = skillMdOf(env, 'deploy')
    expectValidHermesRewrite(text, 'deploy', body)
    expect(env.ledger.list({ limit: 5 })[0]).toMatchObject({ kind: 'skill.edit', after: text })
    const again = await env.manage({ action: 'edit', name: 'deploy', content: hermesSkill('deploy', body) })
    expect(again.message).toMatch(/^Skill 'deploy' unchanged: the content is identical\./)
    expect(env.ledger.list({ limit: 5 })).toHaveLength(2)
  })

  it('keeps editing a skill whose folder name came from elsewhere (the content cannot fix it)', async () => {
    const env = skillEnv()
    put(env.paths.skillsDir, 'my_notes/SKILL.md', skillText('my_notes'))
    env.load()
    const result = await env.manage({ action: 'edit', name: 'my_notes', content: hermesSkill('my_notes') })
    expect(result.success).toBe(true)
    const text = readFileSync(join(env.paths.skillsDir, 'my_notes', 'SKILL.md'), 'utf8')
    expect(specIssues(text, 'my_notes')).toEqual(["name 'my_notes' must be lowercase letters, digits and single hyphens"])
  })
})

describe('patch', () => {
  it('re-normalizes the front matter when a patch adds a Hermes-style field', async () => {
    const env = skillEnv()
    expect((await env.manage({ action: 'create', name: 'deploy', content: skillText('deploy', 'Deploy.', BODY) })).success).toBe(true)
    const result = await env.manage({ action: 'patch', name: 'deploy', old_string: 'description: Deploy.', new_string: 'description: Deploy.\nversion: 2.0\ntags: [k8s]' })
    expect(result).toMatchObject({ success: true, moved_to_metadata: ['version', 'tags'] })
    expect(result.message).toBe("Patched SKILL.md in skill 'deploy' (1 replacement). Moved 'version', 'tags' under metadata to keep the skill a valid Agent Skill.")
    const text = readFileSync(env.store.get('deploy')!.path, 'utf8')
    expect(specIssues(text, 'deploy')).toEqual([])
    expect(frontmatterOf(text)).toEqual({ name: 'deploy', description: 'Deploy.', metadata: { version: '2.0', tags: 'k8s' } })
    expect(bodyOf(text)).toBe(`\n---\n${BODY}`)
    expect(env.ledger.list({ limit: 5 })[0]).toMatchObject({ kind: 'skill.patch', after: text })
  })

  it('normalizes a hand-written Hermes skill when its body is patched', async () => {
    const env = skillEnv()
    const path = put(env.paths.skillsDir, 'devops/deploy/SKILL.md', hermesSkill('deploy'))
    env.load()
    const result = await env.manage({ action: 'patch', name: 'deploy', old_string: '2. Apply the manifest.', new_string: '2. Apply the manifest.\n3. Watch the rollout.' })
    expect(result).toMatchObject({ success: true, moved_to_metadata: MOVED })
    expectValidHermesRewrite(readFileSync(path, 'utf8'), 'deploy', BODY.replace('manifest.', 'manifest.\n3. Watch the rollout.'))
  })

  it('refuses a patch that breaks the spec in a way only the author can fix, and changes nothing', async () => {
    const env = skillEnv()
    expect((await env.manage({ action: 'create', name: 'deploy', content: skillText('deploy', 'Deploy.') })).success).toBe(true)
    const path = env.store.get('deploy')!.path
    const before = readFileSync(path, 'utf8')
    const result = await env.manage({ action: 'patch', name: 'deploy', old_string: 'description: Deploy.', new_string: `description: Deploy.\ncompatibility: ${'c'.repeat(600)}` })
    expect(result).toMatchObject({ success: false, spec_issues: ['compatibility is longer than 500 characters'] })
    expect(readFileSync(path, 'utf8')).toBe(before)
  })
})

const corpusSkill = join(skillCorpusDir, 'skills', 'productivity', 'airtable')

describe.skipIf(!haveSharedData(corpusSkill, 'the Hermes skill corpus'))('a corpus skill', () => {
  it('comes out of a body patch valid, its Hermes fields under metadata and its body patched', async () => {
    const env = skillEnv()
    const dir = join(env.paths.skillsDir, 'productivity', 'airtable')
    cpSync(corpusSkill, dir, { recursive: true })
    chmodSync(join(dir, 'SKILL.md'), 0o644) // the corpus is read-only on disk
    env.load()
    const before = readFileSync(join(dir, 'SKILL.md'), 'utf8')
    expect(specIssues(before, 'airtable')).toContain("top-level field 'platforms' is not allowed (move it under metadata)")
    const heading = before.split('\n').find((line) => line.startsWith('# '))!
    const result = await env.manage({ action: 'patch', name: 'airtable', old_string: heading, new_string: `${heading} (patched)` })
    expect(result).toMatchObject({ success: true, moved_to_metadata: ['version', 'author', 'platforms', 'prerequisites'] })
    const after = readFileSync(join(dir, 'SKILL.md'), 'utf8')
    expect(specIssues(after, 'airtable')).toEqual([])
    expect(bodyOf(after)).toBe(bodyOf(before).replace(heading, `${heading} (patched)`))
    const data = frontmatterOf(after)
    expect(data).toMatchObject({ name: 'airtable', license: 'MIT', metadata: { version: '1.1.0', platforms: 'linux, macos, windows' } })
    expect(Object.values(data.metadata as object).every((value) => typeof value === 'string')).toBe(true)
    expect(existsSync(join(dir, 'SKILL.md'))).toBe(true)
  })
})

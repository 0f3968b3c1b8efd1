import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSkillTools, skillManageSchema } from '../../../electron/core/skills'
import { put, skillEnv as setup, skillText, withDeploy, type Json } from '../../helpers/skill-env'

describe('skill_manage dispatcher', () => {
  it('answers unknown actions and missing arguments with the Hermes messages', async () => {
    const { manage } = setup()
    expect(await manage({ action: 'rename', name: 'x' })).toEqual({
      success: false,
      error: "Unknown action 'rename'. Use: create, edit, patch, delete, write_file, remove_file"
    })
    const parsed = skillManageSchema.safeParse({ action: 'rename', name: 'x' })
    expect(parsed.success).toBe(false)
    if (!parsed.success) expect(parsed.error.issues[0].message).toBe("Unknown action 'rename'. Use: create, edit, patch, delete, write_file, remove_file")
    expect((await manage({ action: 'create', name: 'x' })).error).toBe(
      "content is required for 'create'. Provide the full SKILL.md text (frontmatter + body)."
    )
    expect((await manage({ action: 'edit', name: 'x' })).error).toMatch(/^content is required for 'edit'/)
    expect((await manage({ action: 'patch', name: 'x', new_string: 'y' })).error).toMatch(/^old_string is required for 'patch'\. Provide the text to find/)
    expect((await manage({ action: 'patch', name: 'x', old_text: 'a', new_text: 'b' })).error).toContain("You sent 'old_text'; the field is called old_string.")
    expect((await manage({ action: 'patch', name: 'x', old_string: 'y' })).error).toMatch(/^new_string is required for 'patch'/)
    expect((await manage({ action: 'write_file', name: 'x', file_content: 'y' })).error).toBe(
      "file_path is required for 'write_file'. Example: 'references/api-guide.md'"
    )
    expect((await manage({ action: 'write_file', name: 'x', file_path: 'references/a.md' })).error).toMatch(/^file_content is required/)
    expect((await manage({ action: 'remove_file', name: 'x' })).error).toMatch(/^file_path is required for 'remove_file'/)
    expect((await manage({ action: 'create', name: '', content: skillText('x') })).error).toBe('Skill name is required.')
  })

  it('refuses create when skill creation is turned off, pointing at patch', async () => {
    const env = setup({ allowCreate: false })
    const result = await env.manage({ action: 'create', name: 'x', content: skillText('x') })
    expect(result.success).toBe(false)
    expect(result.error).toMatch(/only patching existing skills is allowed/)
    expect(readdirSync(env.paths.skillsDir)).toEqual([])
  })
})

describe('description by audience', () => {
  const description = (audience: 'chat' | 'review') => {
    const { store } = setup()
    return createSkillTools(store, { allowCreate: true, viewCountsAsUse: audience === 'chat', audience }).find((tool) => tool.name === 'skill_manage')!.description
  }

  it('urges the chat to create skills and confirm with the user; the review gets neither; both are told to say when to use a skill', () => {
    const chat = description('chat')
    const review = description('review')
    expect(chat).toMatch(/^Create one after a hard task/m)
    expect(chat).toMatch(/confirm with the user before creating or deleting/)
    expect(review).not.toMatch(/confirm with the user|Create one after/i)
    expect(review).toMatch(/Always skill_view a skill before patching it/)
    expect(review).toMatch(/^Actions: create \(name, content, optional category\)/m)
    for (const text of [chat, review]) expect(text).toContain('"Use when <situation>. <what it does>"')
  })
})

describe('create and edit', () => {
  it('creates a skill in its category, visible in the index at once', async () => {
    const env = setup()
    const result = await env.manage({ action: 'create', name: 'deploy-k8s', category: 'devops', content: skillText('deploy-k8s') })
    expect(result).toMatchObject({
      success: true,
      message: "Skill 'deploy-k8s' created.",
      path: 'devops/deploy-k8s',
      category: 'devops',
      skill_md: join(env.paths.skillsDir, 'devops/deploy-k8s/SKILL.md')
    })
    expect(result.hint).toMatch(/write_file/)
    expect(readFileSync(join(env.paths.skillsDir, 'devops/deploy-k8s/SKILL.md'), 'utf8')).toBe(skillText('deploy-k8s'))
    expect(env.store.get('deploy-k8s')).toMatchObject({ category: 'devops', readOnly: false, description: 'How to deploy-k8s' })
    const plain = await env.manage({ action: 'create', name: 'notes', content: skillText('notes') })
    expect(plain.path).toBe('notes')
    expect(plain.category).toBeUndefined()
  })

  it('refuses a duplicate name anywhere in the data home, and over a read-only skill', async () => {
    const env = setup()
    await withDeploy(env)
    expect((await env.manage({ action: 'create', name: 'deploy', content: skillText('deploy') })).error).toMatch(/^A skill named 'deploy' already exists at .*devops\/deploy\./)
    expect((await env.manage({ action: 'create', name: 'deploy', category: 'other', content: skillText('deploy') })).error).toMatch(/already exists/)
    put(env.extra, 'vendor/SKILL.md', skillText('vendor'))
    env.load()
    expect((await env.manage({ action: 'create', name: 'vendor', content: skillText('vendor') })).error).toMatch(/already exists .*read-only folder/)
  })

  it.each(['../escape', '/tmp/escape'])('refuses category %s and creates nothing', async (category) => {
    const env = setup()
    const result = await env.manage({ action: 'create', name: 'x', category, content: skillText('x') })
    expect(result.error).toMatch(/^Invalid category/)
    expect(readdirSync(env.paths.skillsDir)).toEqual([])
    expect(existsSync(join(env.root, 'escape'))).toBe(false)
  })

  it('refuses a front matter name that differs from the folder (the Hermes "Fancy Name" fault)', async () => {
    const env = setup()
    const result = await env.manage({ action: 'create', name: 'a', content: skillText('Fancy Name') })
    expect(result.error).toMatch(/^Frontmatter name 'Fancy Name' must equal the skill's name 'a'/)
    expect(readdirSync(env.paths.skillsDir)).toEqual([])
  })

  it('edits a skill, and a bad edit or a missing skill leaves everything as it was', async () => {
    const env = setup()
    const dir = await withDeploy(env)
    expect((await env.manage({ action: 'edit', name: 'nope', content: skillText('nope') })).error).toMatch(/^Skill 'nope' not found/)
    const bad = await env.manage({ action: 'edit', name: 'deploy', content: 'no front matter' })
    expect(bad.error).toBe('SKILL.md must start with YAML frontmatter (---). See existing skills for format.')
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toBe(skillText('deploy'))
    const edited = await env.manage({ action: 'edit', name: 'deploy', content: skillText('deploy', 'Ship it safely') })
    expect(edited).toMatchObject({ success: true, message: "Skill 'deploy' updated (full rewrite)." })
    expect(env.store.get('deploy')?.description).toBe('Ship it safely')
  })
})

describe('patch', () => {
  it('replaces a unique match, refuses a missing or ambiguous one, and replaces all on request', async () => {
    const env = setup()
    const dir = await withDeploy(env, '# Steps\n1. Run kubectl apply.\n2. Run kubectl rollout status.\n')
    const ok = await env.manage({ action: 'patch', name: 'deploy', old_string: 'kubectl apply', new_string: 'kubectl apply -f k8s/' })
    expect(ok).toMatchObject({ success: true, message: "Patched SKILL.md in skill 'deploy' (1 replacement)." })
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toContain('1. Run kubectl apply -f k8s/.')

    const before = readFileSync(join(dir, 'SKILL.md'), 'utf8')
    const missing = await env.manage({ action: 'patch', name: 'deploy', old_string: 'helm upgrade --install', new_string: 'x' })
    expect(missing.success).toBe(false)
    expect(missing.hint).toMatch(/skill_view\(name='deploy'\)/)
    expect(missing.file_preview).toBe(before)
    const ambiguous = await env.manage({ action: 'patch', name: 'deploy', old_string: 'Run kubectl', new_string: 'Use kubectl' })
    expect(ambiguous).toMatchObject({ success: false, code: 'ambiguous' })
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toBe(before)

    const all = await env.manage({ action: 'patch', name: 'deploy', old_string: 'Run kubectl', new_string: 'Use kubectl', replace_all: true })
    expect(all.message).toBe("Patched SKILL.md in skill 'deploy' (2 replacements).")
  })

  it('patches a supporting file', async () => {
    const env = setup()
    const dir = await withDeploy(env)
    await env.manage({ action: 'write_file', name: 'deploy', file_path: 'references/api.md', file_content: '# API\nGET /v1/health\n' })
    const result = await env.manage({ action: 'patch', name: 'deploy', file_path: 'references/api.md', old_string: '/v1/health', new_string: '/v2/health' })
    expect(result.message).toBe("Patched references/api.md in skill 'deploy' (1 replacement).")
    expect(readFileSync(join(dir, 'references/api.md'), 'utf8')).toBe('# API\nGET /v2/health\n')
    const missingFile = await env.manage({ action: 'patch', name: 'deploy', file_path: 'references/none.md', old_string: 'a', new_string: 'b' })
    expect(missingFile.error).toBe('File not found: devops/deploy/references/none.md')
  })

  it('refuses a patch that would break SKILL.md or rename the skill', async () => {
    const env = setup()
    const dir = await withDeploy(env)
    const broken = await env.manage({ action: 'patch', name: 'deploy', old_string: '---\n# Steps', new_string: '# Steps' })
    expect(broken.error).toBe("Patch would break SKILL.md structure: SKILL.md frontmatter is not closed. Ensure you have a closing '---' line.")
    const renamed = await env.manage({ action: 'patch', name: 'deploy', old_string: 'name: deploy', new_string: 'name: Deploy Tool' })
    expect(renamed.error).toMatch(/^Patch would break SKILL.md structure: Frontmatter name 'Deploy Tool' must equal/)
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toBe(skillText('deploy'))
  })

  it('refuses a patch that pushes SKILL.md over 100,000 characters but allows one that shrinks an oversized skill', async () => {
    const env = setup()
    await withDeploy(env, 'x'.repeat(99_900) + '\nEND\n')
    const over = await env.manage({ action: 'patch', name: 'deploy', old_string: 'END', new_string: 'END'.repeat(100) })
    expect(over.error).toMatch(/^SKILL\.md content is 100,\d{3} characters \(limit: 100,000\)/)
    put(env.paths.skillsDir, 'big/SKILL.md', skillText('big', 'Big', 'y'.repeat(120_000) + '\nTAIL\n'))
    env.load()
    expect((await env.manage({ action: 'patch', name: 'big', old_string: 'TAIL', new_string: 'T' })).success).toBe(true)
  })

  it('tolerates a name mismatch the skill already had (written elsewhere) when patching its body', async () => {
    const env = setup()
    put(env.paths.skillsDir, 'tools/fancy/SKILL.md', skillText('Fancy Name', 'Fancy', 'Step one.\n'))
    env.load()
    expect((await env.manage({ action: 'patch', name: 'fancy', old_string: 'Step one.', new_string: 'Step 1.' })).success).toBe(true)
  })

  it('never patches through a symlink, leaving the outside file unchanged', async () => {
    const env = setup()
    const dir = await withDeploy(env)
    mkdirSync(join(dir, 'references'))
    symlinkSync(join(env.outside, 'target.md'), join(dir, 'references/evil.md'))
    const result = await env.manage({ action: 'patch', name: 'deploy', file_path: 'references/evil.md', old_string: 'ORIGINAL', new_string: 'PWNED' })
    expect(result.error).toMatch(/escapes/)
    expect(readFileSync(join(env.outside, 'target.md'), 'utf8')).toBe('OUTSIDE ORIGINAL\n')
  })
})

describe('write_file and remove_file', () => {
  it('writes and removes supporting files, removing the emptied folder', async () => {
    const env = setup()
    const dir = await withDeploy(env)
    expect(await env.manage({ action: 'write_file', name: 'deploy', file_path: 'templates/job.yaml', file_content: 'kind: Job\n' })).toMatchObject({
      success: true,
      message: "File 'templates/job.yaml' written to skill 'deploy'."
    })
    expect(readFileSync(join(dir, 'templates/job.yaml'), 'utf8')).toBe('kind: Job\n')
    const missing = await env.manage({ action: 'remove_file', name: 'deploy', file_path: 'templates/nope.yaml' })
    expect(missing).toMatchObject({ success: false, error: "File 'templates/nope.yaml' not found in skill 'deploy'.", available_files: { templates: ['templates/job.yaml'] } })
    expect((await env.manage({ action: 'remove_file', name: 'deploy', file_path: 'templates/job.yaml' })).message).toBe(
      "File 'templates/job.yaml' removed from skill 'deploy'."
    )
    expect(existsSync(join(dir, 'templates'))).toBe(false)
    expect((await env.manage({ action: 'write_file', name: 'ghost', file_path: 'references/a.md', file_content: 'x' })).error).toMatch(/Create it first with action='create'/)
  })

  it('can never create a nested SKILL.md (the Hermes evil/SKILL.md fault)', async () => {
    const env = setup()
    const dir = await withDeploy(env)
    for (const file_path of ['evil/SKILL.md', 'references/SKILL.md', 'SKILL.md']) {
      const result = await env.manage({ action: 'write_file', name: 'deploy', file_path, file_content: 'no frontmatter at all' })
      expect(result.success, file_path).toBe(false)
    }
    expect(existsSync(join(dir, 'evil'))).toBe(false)
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toBe(skillText('deploy'))
    env.load()
    expect(env.store.list().map((skill) => skill.name)).toEqual(['deploy'])
    expect((await env.manage({ action: 'create', name: 'evil', content: skillText('evil') })).success).toBe(true)
  })

  it('refuses to write or remove through a symlinked folder', async () => {
    const env = setup()
    const dir = await withDeploy(env)
    symlinkSync(env.outside, join(dir, 'references'))
    const written = await env.manage({ action: 'write_file', name: 'deploy', file_path: 'references/target.md', file_content: 'PWNED' })
    expect(written.error).toMatch(/escapes/)
    const removed = await env.manage({ action: 'remove_file', name: 'deploy', file_path: 'references/target.md' })
    expect(removed.error).toMatch(/escapes/)
    expect(readFileSync(join(env.outside, 'target.md'), 'utf8')).toBe('OUTSIDE ORIGINAL\n')
  })

  it('limits supporting files to 100,000 characters, naming the file', async () => {
    const env = setup()
    await withDeploy(env)
    const result = await env.manage({ action: 'write_file', name: 'deploy', file_path: 'references/big.md', file_content: 'x'.repeat(100_001) })
    expect(result.error).toMatch(/^references\/big\.md content is 100,001 characters \(limit: 100,000\)/)
    expect((await env.manage({ action: 'write_file', name: 'deploy', file_path: 'references/ok.md', file_content: 'x'.repeat(100_000) })).success).toBe(true)
  })
})

describe('delete', () => {
  it('archives the skill folder and removes the emptied category', async () => {
    const env = setup()
    await withDeploy(env)
    const result = await env.manage({ action: 'delete', name: 'deploy' })
    expect(result.message).toMatch(/^Skill 'deploy' deleted \(archived to skills\/\.archive\/deploy-/)
    expect(existsSync(join(env.paths.skillsDir, 'devops'))).toBe(false)
    const archived = readdirSync(join(env.paths.skillsDir, '.archive'))
    expect(archived).toHaveLength(1)
    expect(readFileSync(join(env.paths.skillsDir, '.archive', archived[0], 'SKILL.md'), 'utf8')).toBe(skillText('deploy'))
    expect(env.store.get('deploy')).toBeNull()
    env.load()
    expect(env.store.list()).toEqual([])
  })

  it('checks absorbed_into', async () => {
    const env = setup()
    await withDeploy(env)
    expect((await env.manage({ action: 'delete', name: 'deploy', absorbed_into: 'deploy' })).error).toBe(
      "absorbed_into='deploy' cannot equal the skill being deleted."
    )
    expect((await env.manage({ action: 'delete', name: 'deploy', absorbed_into: 'umbrella' })).error).toBe(
      "absorbed_into='umbrella' does not exist. Create or patch the umbrella skill first, then retry the delete."
    )
    expect(env.store.get('deploy')).not.toBeNull()
    await env.manage({ action: 'create', name: 'umbrella', content: skillText('umbrella') })
    expect((await env.manage({ action: 'delete', name: 'deploy', absorbed_into: 'umbrella' })).message).toMatch(/ Content absorbed into 'umbrella'\.$/)
  })

  it('refuses to delete a symlinked skill folder', async () => {
    const env = setup()
    put(env.outside, 'linked/SKILL.md', skillText('linked'))
    symlinkSync(join(env.outside, 'linked'), join(env.paths.skillsDir, 'linked'))
    env.load()
    expect(env.store.get('linked')).not.toBeNull()
    expect((await env.manage({ action: 'delete', name: 'linked' })).error).toMatch(/escapes/)
    expect(existsSync(join(env.outside, 'linked/SKILL.md'))).toBe(true)
  })
})

describe('read-only extra roots', () => {
  it('refuses every write action on an extra-root skill', async () => {
    const env = setup()
    const path = put(env.extra, 'vendor/SKILL.md', skillText('vendor'))
    env.load()
    const attempts: Json[] = [
      { action: 'edit', name: 'vendor', content: skillText('vendor', 'changed') },
      { action: 'patch', name: 'vendor', old_string: 'Check', new_string: 'Verify' },
      { action: 'delete', name: 'vendor' },
      { action: 'write_file', name: 'vendor', file_path: 'references/a.md', file_content: 'x' },
      { action: 'remove_file', name: 'vendor', file_path: 'references/a.md' }
    ]
    for (const args of attempts) {
      const result = await env.manage(args)
      expect(result.error, args.action).toMatch(/read-only folder/)
    }
    expect(readFileSync(path, 'utf8')).toBe(skillText('vendor'))
    expect(readdirSync(join(env.extra, 'vendor'))).toEqual(['SKILL.md'])
  })
})

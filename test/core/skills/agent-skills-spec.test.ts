import matter from 'gray-matter'
import { describe, expect, it } from 'vitest'
import {
  normalizeFrontmatter,
  normalizeSkillMarkdown,
  specIssues,
  specNameError,
  specNameRule
} from '../../../electron/core/skills/agent-skills-spec'

const skill = (frontmatter: string, body = '# Steps\n1. Do it.\n') => `---\n${frontmatter}\n---\n${body}`
const frontmatterOf = (text: string): Record<string, unknown> => matter(text, {}).data
const yamlOf = (text: string): string => text.slice(4, text.indexOf('\n---', 3))

describe('specIssues: what a strict Agent Skills validator rejects', () => {
  it('passes the minimal skill and one with every optional field', () => {
    expect(specIssues(skill('name: pdf-tools\ndescription: Fill PDF forms.'), 'pdf-tools')).toEqual([])
    const full = skill([
      'name: pdf-tools',
      'description: Fill PDF forms.',
      'license: Apache-2.0',
      'compatibility: Needs poppler-utils and network access',
      'allowed-tools: Bash(pdftotext:*) Read',
      'metadata:',
      '  author: example-org',
      "  version: '1.0'"
    ].join('\n'))
    expect(specIssues(full, 'pdf-tools')).toEqual([])
  })

  it('names every Hermes-style top-level field and every non-string metadata value', () => {
    const hermes = skill([
      'name: deploy',
      'description: Deploy the app.',
      'version: 1.0.0',
      'tags: [k8s, deploy]',
      'platforms: [linux]',
      'metadata:',
      '  hermes:',
      '    tags: [a]',
      '  priority: 2'
    ].join('\n'))
    expect(specIssues(hermes, 'deploy')).toEqual([
      "top-level field 'version' is not allowed (move it under metadata)",
      "top-level field 'tags' is not allowed (move it under metadata)",
      "top-level field 'platforms' is not allowed (move it under metadata)",
      'metadata.hermes must be a string',
      'metadata.priority must be a string'
    ])
  })

  it.each([
    ['Foo_Bar', "name 'Foo_Bar' must be lowercase letters, digits and single hyphens"],
    ['my.skill', "name 'my.skill' must be lowercase letters, digits and single hyphens"],
    ['-deploy', "name '-deploy' must not start or end with a hyphen"],
    ['deploy-', "name 'deploy-' must not start or end with a hyphen"],
    ['deploy--k8s', "name 'deploy--k8s' must not contain '--'"],
    ['a'.repeat(65), `name '${'a'.repeat(65)}' is longer than 64 characters`]
  ])('refuses the name %j', (name, message) => {
    expect(specIssues(skill(`name: ${name}\ndescription: x`), name)).toEqual([message])
  })

  it('refuses a name that differs from its folder, and missing or mistyped fields', () => {
    expect(specIssues(skill('name: x\ndescription: d'), 'y')).toEqual(["name 'x' differs from its folder 'y'"])
    expect(specIssues(skill('description: d'), 'y')).toEqual(['name is required'])
    expect(specIssues(skill('name: 42\ndescription: d'), '42')).toEqual(['name must be a string'])
    expect(specIssues(skill('name: y'), 'y')).toEqual(['description is required'])
    expect(specIssues(skill("name: y\ndescription: '  '"), 'y')).toEqual(['description is empty'])
    expect(specIssues(skill('name: y\ndescription: [a, b]'), 'y')).toEqual(['description must be a string'])
    expect(specIssues(skill('name: y\ndescription: d\nlicense: [MIT]'), 'y')).toEqual(['license must be a string'])
    expect(specIssues(skill('name: y\ndescription: d\nallowed-tools: [Bash, Read]'), 'y')).toEqual(['allowed-tools must be a space-separated string'])
    expect(specIssues(skill('name: y\ndescription: d\nmetadata: [a]'), 'y')).toEqual(['metadata must be a map of string keys to string values'])
  })

  it('limits the description to 1024 characters and compatibility to 500', () => {
    expect(specIssues(skill(`name: y\ndescription: ${'d'.repeat(1024)}`), 'y')).toEqual([])
    expect(specIssues(skill(`name: y\ndescription: ${'d'.repeat(1025)}`), 'y')).toEqual(['description is longer than 1024 characters'])
    expect(specIssues(skill(`name: y\ndescription: d\ncompatibility: ${'c'.repeat(500)}`), 'y')).toEqual([])
    expect(specIssues(skill(`name: y\ndescription: d\ncompatibility: ${'c'.repeat(501)}`), 'y')).toEqual(['compatibility is longer than 500 characters'])
  })

  it('reports a file it cannot read as one structural problem', () => {
    expect(specIssues('# Just markdown\n', 'y')).toEqual(['SKILL.md does not start with YAML front matter (---)'])
    expect(specIssues('---\nname: y\n', 'y')).toEqual(['front matter is not closed by a --- line'])
    expect(specIssues(skill('name: y\ndescription: [unclosed'), 'y')[0]).toMatch(/^front matter is not valid YAML: /)
  })
})

describe('the name rule', () => {
  it.each(['a', 'pdf-tools', 'k8s-deploy-v2', 'a'.repeat(64)])('accepts %s', (name) => {
    expect(specNameRule(name)).toBeNull()
    expect(specNameError(name)).toBeNull()
  })

  it('explains a refused name and suggests one that passes', () => {
    expect(specNameError('My_Skill.v2')).toBe(
      "Invalid skill name 'My_Skill.v2': an Agent Skills name must be lowercase letters, digits and single hyphens (it is also the folder name). " +
        "Choose another name, e.g. 'my-skill-v2'."
    )
    expect(specNameRule('my-skill-v2')).toBeNull()
  })
})

describe('normalizeFrontmatter', () => {
  it('moves extra fields under metadata as strings, keeping the spec fields in place', () => {
    const data = normalizeFrontmatter({
      name: 'deploy',
      description: 'Deploy.',
      version: '1.0.0',
      tags: ['k8s', 'deploy'],
      prerequisites: { env_vars: ['TOKEN'], commands: ['kubectl'] },
      priority: 3,
      experimental: false,
      notes: null,
      license: 'MIT'
    })
    expect(data).toEqual({
      name: 'deploy',
      description: 'Deploy.',
      license: 'MIT',
      metadata: {
        version: '1.0.0',
        tags: 'k8s, deploy',
        prerequisites: '{"env_vars":["TOKEN"],"commands":["kubectl"]}',
        priority: '3',
        experimental: 'false',
        notes: ''
      }
    })
    expect(Object.keys(data)).toEqual(['name', 'description', 'license', 'metadata'])
  })

  it('keeps an existing metadata map where it is, stringifies its values, and lets it win a clash', () => {
    const data = normalizeFrontmatter({
      name: 'deploy',
      metadata: { author: 'me', hermes: { tags: ['a', 'b'] }, version: '2.0' },
      description: 'Deploy.',
      version: '1.0'
    })
    expect(data).toEqual({
      name: 'deploy',
      metadata: { author: 'me', hermes: '{"tags":["a","b"]}', version: '2.0' },
      description: 'Deploy.'
    })
    expect(Object.keys(data)).toEqual(['name', 'metadata', 'description'])
  })

  it('writes a list of allowed tools as the space-separated string and drops empty optional fields', () => {
    expect(normalizeFrontmatter({ name: 'x', description: 'd', 'allowed-tools': ['Bash(git:*)', 'Read'], license: null, compatibility: '' })).toEqual({
      name: 'x',
      description: 'd',
      'allowed-tools': 'Bash(git:*) Read'
    })
  })

  it('keeps numbers and dates as written when it has the YAML text', () => {
    const yaml = 'name: x\ndescription: d\nversion: 1.10\nreleased: 2025-01-31  # first\nmetadata:\n  build: 007\n'
    const data = normalizeFrontmatter(frontmatterOf(`---\n${yaml}---\n`), yaml)
    expect(data.metadata).toEqual({ build: '007', version: '1.10', released: '2025-01-31' })
  })
})

describe('normalizeSkillMarkdown', () => {
  const hermes = skill(
    'name: deploy\ndescription: "Deploy: the app"\nversion: 1.0.0\nplatforms: [linux, macos]\nmetadata:\n  hermes:\n    tags: [k8s]',
    '\n# Deploy\n\n---\nA rule above, `version: 2` in the body.\n'
  )

  it('rewrites the front matter in block style and keeps the body byte for byte', () => {
    const normalized = normalizeSkillMarkdown(hermes)
    expect(normalized.moved).toEqual(['version', 'platforms'])
    expect(specIssues(normalized.content, 'deploy')).toEqual([])
    expect(yamlOf(normalized.content)).toBe([
      'name: deploy',
      "description: 'Deploy: the app'",
      'metadata:',
      "  hermes: '{\"tags\":[\"k8s\"]}'",
      '  version: 1.0.0',
      "  platforms: 'linux, macos'"
    ].join('\n'))
    const tail = (text: string) => text.slice(text.indexOf('\n---', 3))
    expect(tail(normalized.content)).toBe(tail(hermes))
    expect(normalizeSkillMarkdown(normalized.content).content).toBe(normalized.content)
  })

  it('leaves valid front matter exactly as written, comments and flow style included', () => {
    const valid = skill('# written by hand\nname: deploy\ndescription: Deploy.\nmetadata: {author: me}')
    expect(normalizeSkillMarkdown(valid)).toEqual({ content: valid, moved: [], notes: [] })
  })

  it('keeps Windows line endings', () => {
    const crlf = hermes.replace(/\n/g, '\r\n')
    const normalized = normalizeSkillMarkdown(crlf).content
    expect(normalized.replace(/\r\n/g, '')).not.toContain('\n')
    expect(specIssues(normalized, 'deploy')).toEqual([])
    expect(normalized.slice(normalized.indexOf('\r\n---', 3))).toBe(crlf.slice(crlf.indexOf('\r\n---', 3)))
  })
})

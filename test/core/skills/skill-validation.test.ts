import { describe, expect, it } from 'vitest'
import {
  contentSizeError,
  quoteUnquotedColons,
  readSkillLenient,
  skillIssues,
  truncateDescription,
  validateSkillContent
} from '../../../electron/core/skills/skill-file'
import { checkSupportPath, validateCategory, validateSkillName } from '../../../electron/core/skills/skill-paths'

const valid = (name = 'my-skill', description = 'Does a thing when asked') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# Steps\n1. Do it.\n`

describe('skill names (Hermes _validate_name)', () => {
  it.each(['my-skill', 'skill123', 'my_skill.v2', 'a'])('accepts %s', (name) => {
    expect(validateSkillName(name)).toBeNull()
  })

  it('requires a name and limits it to 64 characters', () => {
    expect(validateSkillName('')).toBe('Skill name is required.')
    expect(validateSkillName('a'.repeat(64))).toBeNull()
    expect(validateSkillName('a'.repeat(65))).toBe('Skill name exceeds 64 characters.')
  })

  it.each(['MySkill', '-invalid', 'skill/name', 'skill name', 'skill@name', '../x'])('refuses %s with the Hermes message', (name) => {
    expect(validateSkillName(name)).toBe(
      `Invalid skill name '${name}'. Use lowercase letters, numbers, hyphens, dots, and underscores. Must start with a letter or digit.`
    )
  })
})

describe('categories', () => {
  it.each([undefined, null, '', '   ', 'devops', 'mlops-v2'])('accepts %s', (category) => {
    expect(validateCategory(category)).toBeNull()
  })

  it.each(['../escape', '/tmp/escape', 'a/b', 'a\\b', 'Dev Ops', 'x'.repeat(65)])('refuses %s', (category) => {
    expect(validateCategory(category)).toMatch(/^Invalid category '.*'\. Use a single folder name/)
  })
})

describe('SKILL.md front matter when Cairn writes', () => {
  it('accepts a well-formed skill', () => {
    expect(validateSkillContent(valid(), 'my-skill')).toBeNull()
  })

  it.each([
    ['', 'Content cannot be empty.'],
    ['   \n', 'Content cannot be empty.'],
    ['# Just markdown\n', 'SKILL.md must start with YAML frontmatter (---). See existing skills for format.'],
    ['---js\nname: x\n---\nbody\n', 'SKILL.md must start with YAML frontmatter (---). See existing skills for format.'],
    ['---\nname: my-skill\ndescription: x\nbody without a close\n', "SKILL.md frontmatter is not closed. Ensure you have a closing '---' line."],
    ['---\n- a\n- b\n---\nbody\n', 'Frontmatter must be a YAML mapping (key: value pairs).'],
    ['---\n---\nbody\n', 'Frontmatter must be a YAML mapping (key: value pairs).'],
    ['---\ndescription: x\n---\nbody\n', "Frontmatter must include 'name' field."],
    ['---\nname: my-skill\n---\nbody\n', "Frontmatter must include 'description' field."],
    [`---\nname: my-skill\ndescription: ${'d'.repeat(1025)}\n---\nbody\n`, 'Description exceeds 1024 characters.'],
    ['---\nname: my-skill\ndescription: x\n---\n\n   \n', 'SKILL.md must have content after the frontmatter (instructions, procedures, etc.).']
  ])('%j → %s', (content, message) => {
    expect(validateSkillContent(content, 'my-skill')).toBe(message)
  })

  it('reports YAML errors with the Hermes prefix', () => {
    expect(validateSkillContent('---\nname: my-skill\ndescription: [unclosed\n---\nbody\n', 'my-skill')).toMatch(
      /^YAML frontmatter parse error: /
    )
  })

  it('refuses a front matter name that differs from the folder name (Hermes lets them diverge)', () => {
    expect(validateSkillContent(valid('Fancy Name'), 'my-skill')).toBe(
      "Frontmatter name 'Fancy Name' must equal the skill's name 'my-skill' (its folder name). Set 'name: my-skill' in the frontmatter."
    )
  })

  it('refuses an empty description, which the reader would skip', () => {
    expect(validateSkillContent("---\nname: my-skill\ndescription: ''\n---\nbody\n", 'my-skill')).toMatch(/must be non-empty text/)
  })

  it('accepts a description of exactly 1024 characters', () => {
    expect(validateSkillContent(valid('my-skill', 'd'.repeat(1024)), 'my-skill')).toBeNull()
  })

  it('lists several field issues at once', () => {
    const codes = skillIssues(`---\nname: other\ndescription: ${'d'.repeat(1100)}\n---\n`, 'my-skill').map((issue) => issue.code)
    expect(codes).toEqual(['name_mismatch', 'description_too_long', 'empty_body'])
  })

  it('limits content to 100,000 characters, naming the file', () => {
    expect(contentSizeError('SKILL.md', 'x'.repeat(100_000))).toBeNull()
    const error = contentSizeError('references/big.md', 'x'.repeat(100_001))
    expect(error).toContain('references/big.md content is 100,001 characters (limit: 100,000)')
  })
})

describe('supporting file paths when Cairn writes', () => {
  it.each(['references/api.md', 'templates/config.yaml', 'scripts/train.py', 'assets/image.png', 'references/deep/nested.md'])(
    'accepts %s',
    (path) => {
      expect(checkSupportPath(path)).toMatchObject({ ok: true, path })
    }
  )

  it.each([
    ['references/../../../etc/passwd', "Path traversal ('..') is not allowed."],
    ['../SKILL.md', "Path traversal ('..') is not allowed."],
    ['secret/hidden.txt', "File must be under one of: assets, references, scripts, templates. Got: 'secret/hidden.txt'"],
    ['malicious.py', "File must be under one of: assets, references, scripts, templates. Got: 'malicious.py'"],
    ['references', "Provide a file path, not just a directory. Example: 'references/myfile.md'"]
  ])('%s → %s', (path, error) => {
    expect(checkSupportPath(path)).toEqual({ ok: false, error })
  })

  it.each(['SKILL.md', 'evil/SKILL.md', 'references/SKILL.md', 'references/sub/skill.md'])(
    'never accepts a SKILL.md as a supporting file: %s',
    (path) => {
      const result = checkSupportPath(path)
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.error).toMatch(/cannot be named SKILL\.md.*action='create'/)
    }
  )

  it('refuses absolute paths', () => {
    expect(checkSupportPath('/etc/passwd')).toMatchObject({ ok: false, error: expect.stringMatching(/^Absolute paths are not allowed/) })
    expect(checkSupportPath('C:\\x\\y.md')).toMatchObject({ ok: false })
  })
})

describe('reading skills written elsewhere (lenient)', () => {
  it('loads a valid skill without warnings', () => {
    expect(readSkillLenient(valid(), 'my-skill')).toMatchObject({ ok: true, description: 'Does a thing when asked', warnings: [] })
  })

  it('loads a skill whose name differs from its folder, with a warning', () => {
    const read = readSkillLenient(valid('Fancy Name'), 'my-skill')
    expect(read.ok).toBe(true)
    if (read.ok) {
      expect(read.frontmatterName).toBe('Fancy Name')
      expect(read.warnings.join('\n')).toContain("front matter name 'Fancy Name' differs from the folder name 'my-skill'")
    }
  })

  it('loads oversized skills and long descriptions with warnings', () => {
    const read = readSkillLenient(`---\nname: big\ndescription: ${'d'.repeat(1100)}\n---\n${'x'.repeat(100_500)}\n`, 'big')
    expect(read.ok).toBe(true)
    if (read.ok) {
      expect(read.warnings).toEqual([
        'description is 1,100 characters (limit 1,024)',
        expect.stringMatching(/^SKILL\.md is 101,6\d\d characters \(limit 100,000\)$/)
      ])
    }
  })

  it('retries YAML after quoting values with unquoted colons', () => {
    const text = '---\nname: deploy\ndescription: Use when: deploying to prod\n---\nbody\n'
    expect(validateSkillContent(text, 'deploy')).toMatch(/^YAML frontmatter parse error/)
    const read = readSkillLenient(text, 'deploy')
    expect(read).toMatchObject({ ok: true, description: 'Use when: deploying to prod' })
    if (read.ok) expect(read.warnings[0]).toMatch(/unquoted colons/)
    expect(quoteUnquotedColons('description: a: b\nname: "x: y"')).toBe('description: "a: b"\nname: "x: y"')
  })

  it('skips, with a reason, YAML that cannot be parsed and a missing or empty description', () => {
    expect(readSkillLenient('---\nname: x\ndescription: [oops\n---\nbody\n', 'x')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^YAML frontmatter parse error/)
    })
    expect(readSkillLenient('---\nname: x\n---\nbody\n', 'x')).toMatchObject({ ok: false, reason: expect.stringMatching(/no 'description'/) })
    expect(readSkillLenient("---\nname: x\ndescription: ''\n---\nbody\n", 'x')).toMatchObject({ ok: false })
    expect(readSkillLenient('no front matter\n', 'x')).toMatchObject({ ok: false, reason: expect.stringMatching(/must start with YAML/) })
  })

  it('accepts CRLF line endings, a BOM and a folded multi-line description', () => {
    const read = readSkillLenient('\uFEFF---\r\nname: x\r\ndescription: >\r\n  two\r\n  lines\r\n---\r\nbody\r\n', 'x')
    expect(read).toMatchObject({ ok: true, description: 'two lines', warnings: [] })
  })

  it('truncates index descriptions to 60 characters like Hermes', () => {
    expect(truncateDescription('short')).toBe('short')
    expect(truncateDescription('x'.repeat(60))).toBe('x'.repeat(60))
    expect(truncateDescription('x'.repeat(61))).toBe('x'.repeat(57) + '...')
  })
})

import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import matter from 'gray-matter'
import { beforeAll, describe, expect, it } from 'vitest'
import { similarEntryPairs, similarSkillPairs, type SkillText } from '../../../../electron/core/learning/worker/curation-candidates'
import { haveSharedData, skillCorpusDir } from '../../../helpers/shared-data'

function corpusSkills(dir: string): SkillText[] {
  const out: SkillText[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...corpusSkills(path))
    else if (name === 'SKILL.md') {
      const parsed = matter(readFileSync(path, 'utf8'))
      out.push({ name: String(parsed.data.name ?? dir.split('/').pop()), description: String(parsed.data.description ?? ''), body: parsed.content })
    }
  }
  return out
}

describe.runIf(haveSharedData(skillCorpusDir, 'curation candidates over the skill corpus'))('curation leads over the real corpus', () => {
  // Read when the tests run: a skipped suite's body still runs when the tests are collected.
  let skills: SkillText[] = []
  beforeAll(() => {
    skills = corpusSkills(skillCorpusDir)
  })

  it('puts skills for the same job side by side and leaves unrelated ones out', () => {
    const pairs = similarSkillPairs(skills, 20)
    const has = (a: string, b: string) => pairs.some((pair) => (pair.a === a && pair.b === b) || (pair.a === b && pair.b === a))
    expect(has('claude-code', 'codex')).toBe(true) // two coding-agent CLIs driven the same way
    expect(has('kanban-orchestrator', 'kanban-worker')).toBe(true)
    expect(has('obsidian', 'manim-video')).toBe(false)
    expect(pairs.length).toBeLessThanOrEqual(20)
    for (let i = 1; i < pairs.length; i++) expect(pairs[i - 1].score).toBeGreaterThanOrEqual(pairs[i].score)
  })
})

describe('memory entries that repeat each other', () => {
  it('finds exact and near duplicates, not entries that merely share a word', () => {
    const entries = [
      'User prefers pnpm over npm for Node projects',
      'The user prefers pnpm instead of npm in Node projects',
      'User lives in Berlin',
      'User prefers dark themes in editors',
      'User lives in Berlin'
    ]
    const pairs = similarEntryPairs('user', entries)
    expect(pairs[0]).toMatchObject({ a: 'User lives in Berlin', b: 'User lives in Berlin', score: 1 })
    expect(pairs.some((pair) => pair.a.includes('pnpm') && pair.b.includes('pnpm'))).toBe(true)
    expect(pairs.some((pair) => pair.a.includes('dark') || pair.b.includes('dark'))).toBe(false)
  })
})

import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { skillChangeDangers } from '../../../electron/core/security/skill-dangers'
import { scanForThreats, threatPatternIds } from '../../../electron/core/security/threats'
import { haveSharedData, skillCorpusDir } from '../../helpers/shared-data'

function skillFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return skillFiles(path)
    return name === 'SKILL.md' ? [path] : []
  })
}

/** Hermes's 36 rules come first and are unchanged; Cairn's own follow. */
const hermesIds = new Set(threatPatternIds.slice(0, 36))

describe.skipIf(!haveSharedData(skillCorpusDir, 'the Hermes skill corpus'))("Cairn's rules on the Hermes skill corpus", () => {
  // Read when the tests run: a skipped suite's body still runs when the tests are collected.
  let texts: Array<{ path: string; text: string }> = []
  beforeAll(() => {
    const files = ['skills', 'optional-skills'].flatMap((tree) => skillFiles(join(skillCorpusDir, tree)))
    texts = files.map((path) => ({ path: path.slice(skillCorpusDir.length + 1), text: readFileSync(path, 'utf8') }))
  })

  it('flag no real skill at the scope skills are scanned with: the findings are the Hermes rules\' alone', () => {
    expect(texts.length).toBeGreaterThan(100)
    const added = texts.flatMap(({ path, text }) =>
      scanForThreats(text, 'context')
        .filter((finding) => !hermesIds.has(finding.id) && !finding.id.startsWith('invisible_unicode_'))
        .map((finding) => `${path}: ${finding.id}`)
    )
    expect(added).toEqual([])
  })

  it('find nothing added when a skill is rewritten as itself', () => {
    for (const { text } of texts) expect(skillChangeDangers(text, text)).toEqual([])
  })
})

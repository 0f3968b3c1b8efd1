/**
 * Loads the real Hermes skill corpus with Cairn's lenient reader and checks every skill against Cairn's
 * strict write validation. Prints a JSON report.
 *   npx tsx test/bench/corpus.ts [corpus-dir]   (default: ../shared/corpus/hermes-skills beside the repo)
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { scanForThreats } from '../../electron/core/security/threats'
import { contentSizeError, skillIssues } from '../../electron/core/skills/skill-file'
import { SkillIndex } from '../../electron/core/skills/skill-index'
import { validateSkillName } from '../../electron/core/skills/skill-paths'
import { skillCorpusDir } from '../helpers/shared-data'

// shared/ sits beside the repository (in CI too).
const corpus = process.argv[2] ?? skillCorpusDir
const trees = ['skills', 'optional-skills'].map((tree) => join(corpus, tree))

function findSkillFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return findSkillFiles(path)
    return name === 'SKILL.md' ? [path] : []
  })
}

/** Folds the specifics (quoted names, numbers) out of a message so equal reasons group together. */
function reasonKey(reason: string): string {
  return reason
    .replace(/'[^']*'/g, "'…'")
    .replace(/\b\d[\d,]*\b/g, 'N')
    .replace(/ at line N, column N:?.*$/, '')
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1
  return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1]))
}

const ISSUE_LABELS: Record<string, string> = {
  name_mismatch: "name_mismatch: front matter 'name' differs from the folder name",
  description_too_long: 'description_too_long: description over 1,024 characters',
  empty_description: 'empty_description: description is empty',
  empty_body: 'empty_body: no instructions after the front matter'
}

const BLOCKING = new Set(['injection', 'role_hijack', 'c2', 'invisible'])

/** Every reason Cairn would refuse to write this SKILL.md as it is. */
function strictFailures(text: string, name: string): string[] {
  const reasons: string[] = []
  const nameError = validateSkillName(name)
  if (nameError) reasons.push(`name: ${reasonKey(nameError)}`)
  for (const issue of skillIssues(text, name)) reasons.push(ISSUE_LABELS[issue.code] ?? `${issue.code}: ${reasonKey(issue.message)}`)
  const size = contentSizeError('SKILL.md', text)
  if (size) reasons.push('size: SKILL.md over 100,000 characters')
  const blocking = scanForThreats(text, 'context').filter((finding) => BLOCKING.has(finding.category))
  for (const id of new Set(blocking.map((finding) => `${finding.category}/${finding.id}`))) reasons.push(`scan block: ${id}`)
  return reasons
}

const files = trees.flatMap(findSkillFiles)
const started = performance.now()
const index = new SkillIndex(trees.map((path) => ({ path, readOnly: true })))
index.loadAll()
const loadMs = performance.now() - started

const skills = index.list()
const diagnostics = index.diagnostics()
const skipped = diagnostics.filter((d) => d.severity === 'skipped')
const warned = new Set(skills.filter((skill) => skill.warnings.length > 0).map((skill) => skill.path))

const strict = files.map((path) => ({ path, reasons: strictFailures(readFileSync(path, 'utf8'), basename(dirname(path))) }))
const failing = strict.filter((entry) => entry.reasons.length > 0)

const report = {
  corpus,
  skillFiles: files.length,
  loaded: skills.length,
  loadedWithWarnings: warned.size,
  loadedClean: skills.length - warned.size,
  skipped: skipped.length,
  loadMs: Math.round(loadMs),
  skippedReasons: countBy(skipped.map((d) => reasonKey(d.reason))),
  warningReasons: countBy(diagnostics.filter((d) => d.severity === 'warning').map((d) => reasonKey(d.reason))),
  strict: {
    pass: strict.length - failing.length,
    fail: failing.length,
    reasons: countBy(failing.flatMap((entry) => entry.reasons)),
    failingSkills: failing.map((entry) => ({
      skill: entry.path.slice(corpus.length + 1, -'/SKILL.md'.length),
      reasons: entry.reasons
    }))
  }
}
console.log(JSON.stringify(report, null, 2))

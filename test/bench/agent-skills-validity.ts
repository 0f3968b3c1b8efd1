/**
 * How many SKILL.md files of the real Hermes corpus are valid Agent Skills (agentskills.io) as they are,
 * and after Cairn rewrites each one through its own write path: `edit` with the file's own content, in
 * a copy of the corpus inside a temporary data home. An edit Cairn refuses because the front matter name
 * differs from the folder is sent again the way the refusal says (name set to the folder), as a model
 * would; the one over Cairn's 100,000-character SKILL.md limit (no full rewrite is accepted there) gets a
 * patch that does not grow it (its first heading loses its last character). Prints a JSON report.
 *   npx tsx test/bench/agent-skills-validity.ts [corpus-dir]   (npm run bench:skills-spec)
 */
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { ensureHome } from '../../electron/core/config/home'
import { openStateDb } from '../../electron/core/db/state-db'
import { Ledger } from '../../electron/core/ledger/ledger'
import { SPEC_FIELDS, SkillStore, readSkillLenient, specIssues } from '../../electron/core/skills'
import { skillCorpusDir } from '../helpers/shared-data'

const corpus = process.argv[2] ?? skillCorpusDir
const trees = ['skills', 'optional-skills']

function findSkillFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return findSkillFiles(path)
    return name === 'SKILL.md' ? [path] : []
  })
}

/** Folds names and numbers out of a reason (field names stay: which fields break the spec is the point). */
function reasonKey(reason: string): string {
  return reason
    .replace(/^(name|Frontmatter name) '[^']*'/, "$1 '…'")
    .replace(/(folder|skill's name) '[^']*'/g, "$1 '…'")
    .replace(/Set 'name: [^']*'/, "Set 'name: …'")
    .replace(/\b\d[\d,]*\b/g, 'N')
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1
  return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])))
}

/** Everything from the line that closes the front matter on: what a front matter rewrite must not touch. */
const bodyOf = (text: string): string => text.slice(text.indexOf('\n---', 3))

interface Outcome {
  skill: string
  /** Why the first edit (the file's own content) was refused, folded; null when it was accepted. */
  firstRefusal: string | null
  /** The write that left it valid: the edit, the edit resent with the name fixed, or a non-growing patch. */
  via: 'edit' | 'edit, name set to the folder' | 'patch (over the size limit)' | null
  issues: string[]
  /** The body is byte for byte what it was (apart from the patch's own change). */
  bodyKept: boolean
  /** The description reads the same, and every top-level field the spec does not allow is now a metadata key. */
  fieldsKept: boolean
}

function fieldsKept(original: string, after: string): boolean {
  const before = readSkillLenient(original, 'x')
  const now = readSkillLenient(after, 'x')
  if (!before.ok || !now.ok || before.description !== now.description) return false
  const metadata = (now.frontmatter.metadata ?? {}) as Record<string, unknown>
  return Object.keys(before.frontmatter).every((key) => SPEC_FIELDS.includes(key) ? key in now.frontmatter : key in metadata)
}

/** Rewrites one SKILL.md through the store the way a model would, and checks what is left on disk. */
async function rewrite(store: SkillStore, path: string, skillsDir: string): Promise<Outcome> {
  const name = basename(dirname(path))
  const original = readFileSync(path, 'utf8')
  const first = await store.edit({ name, content: original }, { source: 'user' })
  const firstRefusal = first.success ? null : reasonKey(String(first.error).split('. ')[0])
  let via: Outcome['via'] = first.success ? 'edit' : null
  let expectedBody = bodyOf(original)
  if (!first.success && /^Frontmatter name '.*' must equal the skill's name/.test(first.error)) {
    // The refusal says "Set 'name: <folder>' in the frontmatter": resend with that.
    const resent = await store.edit({ name, content: original.replace(/^name:.*$/m, `name: ${name}`) }, { source: 'user' })
    if (resent.success) via = 'edit, name set to the folder'
  } else if (!first.success && /^SKILL\.md content is .* characters \(limit/.test(first.error)) {
    // Over Cairn's own size limit no full rewrite is accepted; a patch that does not grow the file is.
    const heading = original.split('\n').find((line) => line.startsWith('# ') && original.split(line).length === 2)
    const patched = heading ? await store.patch({ name, old_string: heading, new_string: heading.slice(0, -1) }, { source: 'user' }) : null
    if (patched?.success) {
      via = 'patch (over the size limit)'
      expectedBody = expectedBody.replace(heading!, heading!.slice(0, -1))
    }
  }
  const after = readFileSync(path, 'utf8')
  return {
    skill: path.slice(skillsDir.length + 1, -'/SKILL.md'.length),
    firstRefusal,
    via,
    issues: specIssues(after, name),
    bodyKept: bodyOf(after) === expectedBody,
    fieldsKept: fieldsKept(original, after)
  }
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'cairn-skills-spec-'))
  try {
    const paths = ensureHome(root)
    for (const tree of trees) cpSync(join(corpus, tree), join(paths.skillsDir, tree), { recursive: true })
    execFileSync('chmod', ['-R', 'u+w', root]) // the corpus is read-only on disk
    const db = openStateDb(paths.stateDb)
    const store = new SkillStore({ dataHome: root, skillsDir: paths.skillsDir, extraDirs: [], locksDir: paths.locksDir, db, recorder: new Ledger(db) })
    store.load()

    const files = findSkillFiles(paths.skillsDir)
    const asIs = files.map((path) => ({ path, issues: specIssues(readFileSync(path, 'utf8'), basename(dirname(path))) }))

    const started = performance.now()
    const outcomes: Outcome[] = []
    for (const path of files) outcomes.push(await rewrite(store, path, paths.skillsDir))
    const rewriteMs = performance.now() - started
    db.close()

    const valid = (outcome: Outcome): boolean => outcome.issues.length === 0
    const report = {
      corpus,
      skillFiles: files.length,
      asIs: {
        valid: asIs.filter((entry) => entry.issues.length === 0).length,
        invalid: asIs.filter((entry) => entry.issues.length > 0).length,
        reasons: countBy(asIs.flatMap((entry) => [...new Set(entry.issues.map(reasonKey))]))
      },
      afterCairnRewrite: {
        valid: outcomes.filter(valid).length,
        invalid: outcomes.filter((outcome) => !valid(outcome)).length,
        validBy: countBy(outcomes.filter(valid).map((outcome) => outcome.via!)),
        firstEditRefused: countBy(outcomes.flatMap((outcome) => (outcome.firstRefusal ? [outcome.firstRefusal] : []))),
        remainingIssues: countBy(outcomes.flatMap((outcome) => [...new Set(outcome.issues.map(reasonKey))])),
        bodiesKept: outcomes.filter((outcome) => outcome.bodyKept).length,
        fieldsKept: outcomes.filter((outcome) => outcome.fieldsKept).length,
        rewriteMs: Math.round(rewriteMs),
        stillInvalid: outcomes.filter((outcome) => !valid(outcome)).map(({ skill, issues }) => ({ skill, issues }))
      }
    }
    console.log(JSON.stringify(report, null, 2))
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})

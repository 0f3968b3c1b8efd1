import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { ensureHome } from '../../../electron/core/config/home'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { SkillStore, specIssues } from '../../../electron/core/skills'
import { newTurnState } from '../../../electron/core/tools/types'
import { haveSharedData, skillCorpusDir } from '../../helpers/shared-data'

/** The real Hermes skills (see NOTICE.md there): a copy of upstream's skills/ and optional-skills/ trees. */
const corpus = skillCorpusDir
const trees = ['skills', 'optional-skills']
/** Everything from the line that closes the front matter on. */
const bodyOf = (text: string): string => text.slice(text.indexOf('\n---', 3))

function countSkillFiles(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sum + countSkillFiles(path)
    return sum + (name === 'SKILL.md' ? 1 : 0)
  }, 0)
}

describe.skipIf(!haveSharedData(corpus, 'the Hermes skill corpus'))('the Hermes skill corpus', () => {
  let root: string
  let db: StateDb
  let total: number

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'cairn-'))
    const paths = ensureHome(root)
    for (const tree of trees) {
      cpSync(join(corpus, tree), join(root, 'copy', tree), { recursive: true })
      // The same skills again as the data home's own (writable) skills. The trees stay apart: merged,
      // optional-skills/dogfood/adversarial-ux-test would land inside the skill skills/dogfood.
      cpSync(join(corpus, tree), join(paths.skillsDir, tree), { recursive: true })
    }
    execFileSync('chmod', ['-R', 'u+w', root]) // the corpus is read-only on disk
    db = openStateDb(paths.stateDb)
    total = trees.reduce((sum, tree) => sum + countSkillFiles(join(root, 'copy', tree)), 0)
  })

  afterAll(() => {
    db?.close()
    if (root) rmSync(root, { recursive: true, force: true })
  })

  function store(asExtraRoots: boolean): SkillStore {
    const paths = ensureHome(asExtraRoots ? join(root, 'empty-home') : root)
    const skills = new SkillStore({
      dataHome: paths.root,
      skillsDir: paths.skillsDir,
      extraDirs: asExtraRoots ? trees.map((tree) => join(root, 'copy', tree)) : [],
      locksDir: paths.locksDir,
      db,
      recorder: new Ledger(db)
    })
    skills.load()
    return skills
  }

  it('loads every skill as read-only extra roots, leniently, with the warnings recorded', () => {
    const skills = store(true)
    const listed = skills.list()
    const diagnostics = skills.diagnostics()
    const skipped = diagnostics.filter((d) => d.severity === 'skipped')
    // Observed on this corpus: 155 SKILL.md files, all load; none is skipped.
    expect(total).toBe(155)
    expect(listed.length + skipped.length).toBe(total)
    expect(listed.length).toBe(155)
    expect(skipped).toEqual([])
    expect(listed.every((skill) => skill.readOnly)).toBe(true)
    // 19 front matter names differ from their folders, e.g. vllm → serving-llms-vllm.
    const mismatched = diagnostics.filter((d) => /differs from the folder name/.test(d.reason))
    expect(mismatched).toHaveLength(19)
    expect(skills.get('vllm')).toMatchObject({ frontmatterName: 'serving-llms-vllm', category: 'mlops/inference' })
    expect(skills.find('serving-llms-vllm')?.name).toBe('vllm')
    expect(skills.get('dogfood')?.category).toBeNull()
    expect(listed.filter((skill) => skill.warnings.length > 0)).toHaveLength(31)
    expect(skills.get('pytorch-fsdp')?.warnings).toContainEqual(expect.stringMatching(/^SKILL\.md is 159,\d{3} characters/))
    // Supporting markdown (references/, templates/) never shows up as a skill.
    expect(listed.some((skill) => /\/(references|templates|scripts|assets)\//.test(skill.path))).toBe(false)
  })

  it('loads the same skills as the writable data home and can view and patch them', async () => {
    const skills = store(false)
    expect(skills.list()).toHaveLength(155)
    expect(skills.list().every((skill) => !skill.readOnly)).toBe(true)
    expect(skills.diagnostics().filter((d) => d.severity === 'skipped')).toEqual([])
    expect(skills.get('vllm')?.category).toBe('skills/mlops/inference')
    const turn = newTurnState()
    const viewed = skills.view('vllm', null, turn)
    expect(viewed).toMatchObject({ success: true, name: 'vllm' })
    expect(Object.keys(viewed.linked_files as object)).toContain('references')
    // A patch to a skill written elsewhere keeps its pre-existing front matter name (not the patch's doing);
    // its Hermes-style fields move under metadata, and the body changes only where patched.
    const path = skills.get('vllm')!.path
    const before = readFileSync(path, 'utf8')
    const line = before.split('\n').find((text) => text.startsWith('# ') && before.split(text).length === 2)!
    const result = await skills.patch({ name: 'vllm', old_string: line, new_string: `${line} (patched)` }, { source: 'user' })
    expect(result).toMatchObject({ success: true, moved_to_metadata: ['version', 'author', 'dependencies', 'platforms'] })
    const after = readFileSync(path, 'utf8')
    expect(bodyOf(after)).toBe(bodyOf(before).replace(line, `${line} (patched)`))
    expect(specIssues(after, 'vllm')).toEqual(["name 'serving-llms-vllm' differs from its folder 'vllm'"])
    expect(skills.get('vllm')?.description).toBe(skills.find('serving-llms-vllm')?.description)
  })
})

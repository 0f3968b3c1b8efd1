import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, expect } from 'vitest'
import { openStateDb, type StateDb } from '../../electron/core/db/state-db'
import { ensureHome } from '../../electron/core/config/home'
import { Ledger, type ChangeRecorder } from '../../electron/core/ledger/ledger'
import { SkillStore, createSkillTools } from '../../electron/core/skills'
import { newTurnState, type ToolContext } from '../../electron/core/tools/types'

/** A SKILL.md with the given name, description and body. */
export const skillText = (name: string, description = `How to ${name}`, body = '# Steps\n1. Check the cluster.\n2. Apply the manifest.\n') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}`

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>

/** Writes `text` at `rel` (forward slashes) under `root`, creating folders. */
export function put(root: string, rel: string, text: string): string {
  const path = join(root, ...rel.split('/'))
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
  return path
}

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
})

/**
 * A real data home with a skill store, its tools and a real ledger, plus an empty read-only extra
 * root and an `outside` folder (with target.md) for escape tests. Cleaned up after each test.
 */
export interface SkillEnv {
  root: string
  paths: ReturnType<typeof ensureHome>
  extra: string
  outside: string
  db: StateDb
  ledger: Ledger
  store: SkillStore
  manage(args: Json, context?: ToolContext): Promise<Json>
  view(args: Json, context?: ToolContext): Promise<Json>
  ctx: ToolContext
  load(): void
}

export function skillEnv(options: { allowCreate?: boolean; recorder?: (ledger: Ledger) => ChangeRecorder } = {}): SkillEnv {
  const root = mkdtempSync(join(tmpdir(), 'cairn-'))
  const paths = ensureHome(root)
  const extra = join(root, 'extra-skills')
  const outside = join(root, 'outside')
  mkdirSync(outside)
  writeFileSync(join(outside, 'target.md'), 'OUTSIDE ORIGINAL\n')
  const db = openStateDb(paths.stateDb)
  const ledger = new Ledger(db)
  const store = new SkillStore({
    dataHome: root,
    skillsDir: paths.skillsDir,
    extraDirs: [extra],
    locksDir: paths.locksDir,
    db,
    recorder: options.recorder ? options.recorder(ledger) : ledger
  })
  cleanups.push(() => {
    db.close()
    rmSync(root, { recursive: true, force: true })
  })
  const byName = Object.fromEntries(createSkillTools(store, { allowCreate: options.allowCreate ?? true, viewCountsAsUse: true }).map((tool) => [tool.name, tool]))
  const ctx: ToolContext = { write: { source: 'agent', sessionId: 's1' }, turn: newTurnState() }
  const manage = async (args: Json, context: ToolContext = ctx) => (await byName.skill_manage.run(args, context)) as Json
  const view = async (args: Json, context: ToolContext = ctx) => (await byName.skill_view.run(args, context)) as Json
  const load = () => store.load()
  load()
  return { root, paths, extra, outside, db, ledger, store, manage, view, ctx, load }
}

/** Creates the `devops/deploy` skill through the tool and returns its folder. */
export async function withDeploy(env: SkillEnv, body?: string): Promise<string> {
  const result = await env.manage({ action: 'create', name: 'deploy', category: 'devops', content: skillText('deploy', undefined, body) })
  expect(result.success).toBe(true)
  return join(env.paths.skillsDir, 'devops', 'deploy')
}

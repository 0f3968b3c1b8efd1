import { existsSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import type { ImportHome } from './import-home'
import { ImportSourceError } from './hermes-import'
import { importMemoryPlan, importSkills, runImportBatch, type ImportRun } from './import-run'
import { splitMarkdownEntries } from './markdown-entries'
import { planEntries, readSourceText } from './memory-merge'
import { importOpenClawNotes } from './openclaw-notes'
import { findSourceSkills, type SourceSkill } from './skill-import'
import type { ImportProgress, ImportReport } from './types'

/**
 * OpenClaw's workspace: `$OPENCLAW_WORKSPACE_DIR`, else `<$OPENCLAW_STATE_DIR>/workspace`, else
 * `~/.openclaw/workspace` (OpenClaw's docs, concepts/agent-workspace).
 */
export function defaultOpenClawWorkspace(env: NodeJS.ProcessEnv): string {
  if (env.OPENCLAW_WORKSPACE_DIR) return env.OPENCLAW_WORKSPACE_DIR
  if (env.OPENCLAW_STATE_DIR) return join(env.OPENCLAW_STATE_DIR, 'workspace')
  return join(env.HOME || homedir(), '.openclaw', 'workspace')
}

/** The workspace files that are OpenClaw's instructions to itself, not memory: reported, never imported. */
const INSTRUCTION_FILES: Record<string, string> = {
  'AGENTS.md': "OpenClaw's operating instructions",
  'SOUL.md': "OpenClaw's persona",
  'IDENTITY.md': "OpenClaw's name and identity",
  'TOOLS.md': "OpenClaw's notes on its tools",
  'HEARTBEAT.md': "OpenClaw's heartbeat checklist",
  'BOOTSTRAP.md': "OpenClaw's first-run ritual"
}

export interface OpenClawImportOptions {
  /** The workspace folder. */
  path: string
  /**
   * OpenClaw's own skills folder (`~/.openclaw/skills`), or null for none. By default the `skills/`
   * beside the workspace when the workspace sits in OpenClaw's state folder (`.openclaw`, or one
   * holding `openclaw.json`).
   */
  managedSkillsDir?: string | null
  /** Report what would come in; write nothing (not even the batch row). */
  dryRun?: boolean
  onProgress?: (progress: ImportProgress) => void
}

function managedSkillsOf(workspace: string): string | null {
  const state = dirname(workspace)
  const isState = basename(state) === '.openclaw' || existsSync(join(state, 'openclaw.json'))
  return isState ? join(state, 'skills') : null
}

/**
 * Brings an OpenClaw workspace into Cairn as one batch: `MEMORY.md` and `USER.md` merged into Cairn's
 * (split into entries by {@link splitMarkdownEntries}; duplicates dropped, what does not fit proposed,
 * never cut), the daily logs as searchable notes ({@link importOpenClawNotes}), and the skills of
 * `skills/`, `.agents/skills/` and OpenClaw's own skills folder as Agent Skills (where a name is in
 * several, the one OpenClaw uses: the workspace's first). Its instruction files are reported, not imported.
 */
export async function importOpenClaw(core: ImportHome, options: OpenClawImportOptions): Promise<ImportReport> {
  const workspace = resolve(options.path)
  if (!existsSync(workspace) || !statSync(workspace).isDirectory()) throw new ImportSourceError('import.no_openclaw_workspace', { path: workspace })
  const looked = ['MEMORY.md', 'USER.md', 'memory', 'skills', join('.agents', 'skills')]
  if (!looked.some((part) => existsSync(join(workspace, part)))) {
    throw new ImportSourceError('import.not_openclaw_workspace', { path: workspace })
  }
  const managed = options.managedSkillsDir === undefined ? managedSkillsOf(workspace) : options.managedSkillsDir
  return runImportBatch(core, { source: 'openclaw', path: workspace, dryRun: options.dryRun, onProgress: options.onProgress }, async (run) => {
    for (const [file, target] of [['MEMORY.md', 'memory'], ['USER.md', 'user']] as const) {
      const path = join(workspace, file)
      if (!existsSync(path)) continue
      const read = readSourceText(path, file)
      if ('problem' in read) run.problems.push(read.problem)
      else await importMemoryPlan(run, planEntries(core, { target, file, entries: splitMarkdownEntries(read.text) }))
    }
    for (const [file, what] of Object.entries(INSTRUCTION_FILES)) {
      if (existsSync(join(workspace, file))) run.problems.push({ file, message: `not imported: it is ${what}, instructions rather than memory.` })
    }
    await importSkills(run, openClawSkills(run, workspace, managed))
    importOpenClawNotes(run, workspace)
  })
}

/** The skills OpenClaw would load, in its precedence; a skill shadowed by one of the same name is reported. */
function openClawSkills(run: ImportRun, workspace: string, managed: string | null): SourceSkill[] {
  const roots = [
    { home: workspace, dir: join(workspace, 'skills') },
    { home: workspace, dir: join(workspace, '.agents', 'skills') },
    // Named from above the state folder (`.openclaw/skills/<name>`), apart from the workspace's own `skills/`.
    ...(managed ? [{ home: dirname(dirname(managed)), dir: managed }] : [])
  ]
  const chosen = new Map<string, SourceSkill>()
  for (const root of roots) {
    for (const skill of findSourceSkills(root.home, root.dir)) {
      const winner = chosen.get(skill.name)
      if (winner) run.problems.push({ file: skill.folder, message: `not imported: OpenClaw uses ${winner.folder} of the same name instead.` })
      else chosen.set(skill.name, skill)
    }
  }
  return [...chosen.values()]
}

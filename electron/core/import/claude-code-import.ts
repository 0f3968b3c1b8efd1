import { existsSync, statSync } from 'node:fs'
import { storedRationale } from '../../../shared/proposal-rationale'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { ImportHome } from './import-home'
import { readClaudeCodeEntries } from './claude-code-memories'
import { ImportSourceError } from './hermes-import'
import { importMemoryPlan, importSkills, runImportBatch, storeOffProblem } from './import-run'
import { planEntries, type SourceEntry } from './memory-merge'
import { findSourceSkills } from './skill-import'
import { prepareProjectFolder, projectScopeFor } from '../memory/project-scope'
import type { ImportProgress, ImportReport } from './types'

/** Claude Code's folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function defaultClaudeCodeHome(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude')
}

export interface ClaudeCodeImportOptions {
  /** Claude Code's folder (`~/.claude`). */
  path: string
  /** Report what would come in; write nothing (not even the batch row). */
  dryRun?: boolean
  onProgress?: (progress: ImportProgress) => void
}

/** Why a candidate waits: Claude Code kept it (every face words the code, with the file). */
function rationale(entry: SourceEntry): string {
  return storedRationale({ code: 'claude_code_memory', file: entry.file ?? null })
}

/**
 * Brings Claude Code's folder into Cairn as one batch. Its memories and CLAUDE.md files are candidate
 * memory ({@link readClaudeCodeEntries}): each one that Cairn does not know yet waits in the Inbox as a
 * proposal (a project's, for the workspace it names when that folder exists here), nothing is written
 * to memory without the user. Its `skills/` are copied into Cairn's own
 * skills as Agent Skills (Cairn may then learn and patch them; `skills.extraDirs` only reads them).
 */
export async function importClaudeCode(core: ImportHome, options: ClaudeCodeImportOptions): Promise<ImportReport> {
  const home = resolve(options.path)
  if (!existsSync(home) || !statSync(home).isDirectory()) throw new ImportSourceError('import.no_folder', { app: 'Claude Code', path: home })
  if (!['CLAUDE.md', 'projects', 'skills'].some((part) => existsSync(join(home, part)))) {
    throw new ImportSourceError('import.not_claude_code', { path: home })
  }
  return runImportBatch(core, { source: 'claude-code', path: home, dryRun: options.dryRun, onProgress: options.onProgress }, async (run) => {
    const entries = readClaudeCodeEntries(home, run.problems)
    for (const target of ['memory', 'user'] as const) {
      if (!entries[target].length) continue
      const files = [...new Set(entries[target].map((entry) => entry.file ?? ''))]
      const off = storeOffProblem(core, target)
      if (off) run.problems.push(...files.map((file) => ({ file, message: off })))
      // One plan per store, so the same fact in two files is proposed once.
      else await importMemoryPlan(run, planEntries(core, { target, file: files.join(', '), entries: entries[target], candidates: { rationale } }))
    }
    for (const [workspace, projectEntries] of entries.projects) {
      const file = [...new Set(projectEntries.map((entry) => entry.file ?? ''))].join(', ')
      const scope = projectScopeFor(workspace)
      // The note naming the workspace, so its proposals and the Memory screen say whose memory it is.
      if (run.importId !== null) prepareProjectFolder(join(core.paths.root, 'memories'), scope)
      await importMemoryPlan(run, planEntries(core, { target: 'project', store: core.memory.forWorkspace(workspace), file, entries: projectEntries, candidates: { rationale } }))
    }
    await importSkills(run, findSourceSkills(home, join(home, 'skills')))
  })
}

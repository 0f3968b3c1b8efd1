import { existsSync, readdirSync, statSync, type Dirent } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { WriteContext } from '../../../shared/ledger'
import { withLock } from '../fs/lock'
import type { ChangeRecorder } from '../ledger/recorder'
import { scanForThreats, threatMessage, type ThreatFinding } from '../security/threats'
import type { ToolContext, TurnState } from '../tools/types'
import { normalizationNote, normalizeSkillMarkdown, specProblems, type SpecIssue } from './agent-skills-spec'
import type { SkillChangeType, SkillIndex, SkillSummary } from './skill-index'
import { EXCLUDED_DIRS, MAX_SCAN_DEPTH, SKILL_FILE, toPosixRelative } from './skill-paths'
import { BLOCKING } from './skill-screening'
import type { SkillUsageStore } from './skill-usage'

/** Hermes-shaped result of a skill action: JSON-serialisable, failures say what to send next. */
export type SkillSuccess = { success: true; message: string } & Record<string, unknown>
export type SkillFailure = { success: false; error: string } & Record<string, unknown>
export type SkillResult = SkillSuccess | SkillFailure

/** The tool context (attribution + turn state), or just an attribution for callers outside a turn. */
export type SkillCallContext = ToolContext | WriteContext

export interface SkillChangeEvent {
  name: string | null
  path: string
  type: SkillChangeType
}

/** What the write actions need from the store. */
export interface SkillWriteDeps {
  dataHome: string
  skillsDir: string
  locksDir: string
  recorder: ChangeRecorder
  usage: SkillUsageStore
  index: SkillIndex
  notify(event: SkillChangeEvent): void
}

export function splitContext(ctx: SkillCallContext): { write: WriteContext; turn: TurnState | null } {
  return 'write' in ctx ? { write: ctx.write, turn: ctx.turn } : { write: ctx, turn: null }
}

export function fail(error: string, extra: Record<string, unknown> = {}): SkillFailure {
  return { success: false, error, ...extra }
}

/** Cross-process lock per skill name: create's collision check and every read-modify-write are atomic. */
export function withSkillLock<T>(deps: Pick<SkillWriteDeps, 'locksDir'>, name: string, fn: () => Promise<T> | T, timeoutMs?: number): Promise<T> {
  const target = join(deps.locksDir, 'skills', name)
  return withLock(target, fn, { lockfilePath: `${target}.lock`, timeoutMs })
}

/**
 * Folders named `name` holding a SKILL.md anywhere in the data home's skills folder, read from disk
 * (another process may have written since this one loaded its index).
 */
export function findSkillDirsOnDisk(skillsDir: string, name: string): string[] {
  const found: string[] = []
  const visit = (dir: string, depth: number): void => {
    if (depth > MAX_SCAN_DEPTH) return
    let entries: Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    const isSkill = depth > 0 && entries.some((entry) => entry.name === SKILL_FILE)
    if (isSkill) {
      if (basename(dir) === name) found.push(dir)
      return
    }
    for (const entry of entries) {
      if (!EXCLUDED_DIRS.has(entry.name) && (entry.isDirectory() || entry.isSymbolicLink())) visit(join(dir, entry.name), depth + 1)
    }
  }
  visit(skillsDir, 0)
  return found.sort()
}

export type Located = { ok: true; dir: string; skillMd: string; relParts: string[]; category: string | null } | { ok: false; result: SkillFailure }

function notFound(name: string): SkillFailure {
  return fail(`Skill '${name}' not found. Call skills_list to see the available skills, or use action='create' to make it.`)
}

/** Finds the writable copy of skill `name`, checking the disk (call it while holding the skill's lock). */
export function locateWritable(deps: SkillWriteDeps, name: string): Located {
  const known = deps.index.inRoot(0, name)[0]
  let dir = known && existsSync(known.path) ? dirname(known.path) : null
  if (!dir) dir = findSkillDirsOnDisk(deps.skillsDir, name)[0] ?? null
  if (!dir) {
    const elsewhere = deps.index.get(name)
    if (elsewhere?.readOnly) return { ok: false, result: readOnlyError(elsewhere) }
    return { ok: false, result: notFound(name) }
  }
  const relParts = toPosixRelative(deps.skillsDir, dir).split('/')
  return {
    ok: true,
    dir,
    skillMd: join(dir, SKILL_FILE),
    relParts,
    category: relParts.length > 1 ? relParts.slice(0, -1).join('/') : null
  }
}

export function readOnlyError(skill: SkillSummary): SkillFailure {
  return fail(
    `Skill '${skill.name}' lives in a read-only folder (${skill.root}); Cairn never changes skills there. ` +
      'To adapt it, create your own skill under a different name with action=\'create\' (copy what you need from skill_view).'
  )
}

/**
 * Scans what a write would leave on disk. Only findings the write adds count: text that was already
 * there (in a skill written elsewhere) does not block an unrelated patch.
 */
export function scanSkillWrite(after: string, before: string | null): { blocked: SkillFailure | null; warnings: string[] } {
  const remaining = new Map<string, number>()
  for (const finding of before ? scanForThreats(before, 'context') : []) {
    remaining.set(finding.id, (remaining.get(finding.id) ?? 0) + 1)
  }
  const added: ThreatFinding[] = []
  for (const finding of scanForThreats(after, 'context')) {
    const left = remaining.get(finding.id) ?? 0
    if (left > 0) remaining.set(finding.id, left - 1)
    else added.push(finding)
  }
  const blocking = added.filter((finding) => BLOCKING.has(finding.category))
  const warningFindings = added.filter((finding) => !BLOCKING.has(finding.category))
  // threatMessage words its text as a block, so warnings get their own wording.
  const warnings = warningFindings.length
    ? [`Saved, but the scan flagged: ${describeFindings(warningFindings)}. Make sure the skill only references secrets by variable name and sends them nowhere unexpected.`]
    : []
  if (!blocking.length) return { blocked: null, warnings }
  const categories = [...new Set(blocking.map((finding) => finding.category))].join(', ')
  return {
    blocked: fail(
      `Security scan blocked this skill (${categories}): ${threatMessage(blocking) ?? describeFindings(blocking)}\n` +
        'Nothing was written. Remove or rephrase that text and send the call again.',
      { findings: blocking.map((finding) => finding.id) }
    ),
    warnings
  }
}

function describeFindings(findings: ThreatFinding[]): string {
  return `matched ${[...new Set(findings.map((finding) => `${finding.id} (${finding.category})`))].join(', ')}`
}

/** Folders on the way to `path` (below `base`) that do not exist yet: what a rollback must remove. */
export function missingDirs(base: string, parts: string[]): string[] {
  const missing: string[] = []
  let current = base
  for (const part of parts) {
    current = join(current, part)
    if (!existsSync(current)) missing.push(current)
  }
  return missing
}

export function ledgerTarget(deps: SkillWriteDeps, path: string): string {
  return toPosixRelative(deps.dataHome, path)
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

export function withWarnings(result: SkillResult, warnings: string[]): SkillResult {
  return warnings.length ? { ...result, warnings } : result
}

export type PreparedSkillMd =
  | { ok: true; content: string; moved: string[]; note: string }
  | { ok: false; result: SkillFailure }

/**
 * The SKILL.md a write puts on disk: `content` with its front matter made a valid Agent Skill (extra
 * fields under `metadata`, values as strings). What normalizing cannot fix and the author can (an
 * over-long compatibility, a YAML type) refuses the write, except the problems `tolerated` accepts.
 */
export function prepareSkillMd(content: string, name: string, tolerated: (problem: SpecIssue) => boolean = () => false): PreparedSkillMd {
  const normalized = normalizeSkillMarkdown(content)
  const problems = specProblems(normalized.content, name).filter((problem) => !tolerated(problem))
  if (problems.length) {
    return {
      ok: false,
      result: fail(
        `SKILL.md would not be a valid Agent Skill: ${problems.map((problem) => problem.message).join('; ')}. ` +
          `Nothing was written; fix ${problems.length === 1 ? 'it' : 'them'} and send the call again.`,
        { spec_issues: problems.map((problem) => problem.message) }
      )
    }
  }
  return { ok: true, content: normalized.content, moved: normalized.moved, note: normalizationNote(normalized) }
}

/** The result fields that tell the model which front matter fields were moved under metadata. */
export function movedFields(prepared: { moved: string[] }): Record<string, unknown> {
  return prepared.moved.length ? { moved_to_metadata: prepared.moved } : {}
}

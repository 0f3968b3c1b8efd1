import { mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { WriteContext } from '../../../shared/ledger'
import type { SyncHome } from './sync-home'
import { writeFileAtomicText } from '../fs/atomic'
import { readSkillFile } from '../skills/skill-dir-files'
import { MAX_FILE_BYTES, SKILL_FILE } from '../skills/skill-paths'
import { symlinkBelow } from '../fs/symlinks'
import type { SkillResult } from '../skills/skill-write-support'
import { skillChangeDangers } from '../security/skill-dangers'
import { mergeText } from './merge-text'
import { fileSyncProposal } from './sync-proposals'
import { skillPathOf } from './synced-paths'
import type { SyncConflict } from './types'

/** One synced file under skills/ the other side changed: its bytes at the merge base and on the other side (null: absent). */
export interface SkillFileChange {
  path: string
  base: Buffer | null
  theirs: Buffer | null
}

export interface SkillsBringIn {
  received: number
  conflicts: SyncConflict[]
  /** Writes the store refused (validation, the threat scan), by file, with its reason. */
  refused: { file: string; reason: string }[]
}

const decoder = new TextDecoder('utf-8', { fatal: true })

/** The bytes as text, or null when they are not UTF-8 (a binary supporting file). */
function asText(bytes: Buffer | null): string | null {
  if (bytes === null) return null
  try {
    return decoder.decode(bytes)
  } catch {
    return null
  }
}

/**
 * Brings the other side's skill changes in through the skill store (validated, locked, one ledger row
 * each with source `sync`): SKILL.md files first, so a new skill exists before its supporting files
 * arrive. Three-way merges what both sides changed without overlap; what overlaps stays as this
 * device has it and the other version waits in the Inbox.
 */
export async function bringInSkills(core: SyncHome, changes: readonly SkillFileChange[], write: WriteContext): Promise<SkillsBringIn> {
  const outcome: SkillsBringIn = { received: 0, conflicts: [], refused: [] }
  const ordered = [...changes].sort((a, b) => Number(isSkillMd(b.path)) - Number(isSkillMd(a.path)))
  const deleted = new Set<string>()
  for (const change of ordered) {
    const skill = skillPathOf(change.path)
    if (skill && deleted.has(skill.dir)) continue
    const result = skill ? await bringInSkillFile(core, change, write, outcome) : await writeLooseFile(core, change, outcome)
    if (result === 'deleted' && skill) deleted.add(skill.dir)
  }
  return outcome
}

function isSkillMd(path: string): boolean {
  return path.endsWith(`/${SKILL_FILE}`)
}

type FileResult = 'written' | 'deleted' | 'unchanged' | 'conflict' | 'refused'

async function bringInSkillFile(core: SyncHome, change: SkillFileChange, write: WriteContext, outcome: SkillsBringIn): Promise<FileResult> {
  const skill = skillPathOf(change.path)!
  const local = readSkillFile(join(core.paths.root, change.path))
  const ours = local.kind === 'text' ? local.text : local.kind === 'binary' ? local.buffer.toString('base64') : null
  const base = asText(change.base) ?? change.base?.toString('base64') ?? null
  const theirsText = asText(change.theirs)
  const theirs = theirsText ?? change.theirs?.toString('base64') ?? null
  const binary = change.theirs !== null && theirsText === null
  const isMd = skill.file === SKILL_FILE

  if (ours === theirs) return 'unchanged'
  const conflict = (resolution: SyncConflict['resolution'], proposalId?: number | null): FileResult => {
    outcome.conflicts.push({ file: change.path, resolution, ...(proposalId == null ? {} : { proposalId }) })
    return 'conflict'
  }
  const apply = async (run: () => Promise<SkillResult>): Promise<FileResult> => {
    const result = await run()
    if (result.success) {
      outcome.received++
      return theirs === null ? 'deleted' : 'written'
    }
    outcome.refused.push({ file: change.path, reason: result.error })
    return 'refused'
  }
  const propose = (kind: 'skill.edit' | 'skill.create' | 'skill.file_write', after: string): FileResult =>
    conflict('proposal', fileSyncProposal(core.db, write, { kind, target: change.path, before: ours, after, meta: { skill: skill.name, category: skill.category }, cause: 'sync_conflict' }))
  // What could hurt if followed waits in the Inbox, whoever wrote it (ledger/learning-policy.ts): the other device may be compromised too.
  const guarded = (kind: 'skill.edit' | 'skill.create' | 'skill.file_write', after: string, run: () => Promise<SkillResult>): Promise<FileResult> | FileResult => {
    const dangers = skillChangeDangers(ours, after)
    if (dangers.length === 0) return apply(run)
    const meta = { skill: skill.name, category: skill.category, dangers }
    return conflict('held_back', fileSyncProposal(core.db, write, { kind, target: change.path, before: ours, after, meta, cause: 'dangerous_content' }))
  }

  // Removed on the other side.
  if (theirs === null) {
    if (ours === null) return 'unchanged'
    if (ours !== base) return conflict('kept_local') // changed here since: this device's version stays
    return apply(() => (isMd ? core.skills.delete({ name: skill.name }, write) : core.skills.removeFile({ name: skill.name, file_path: skill.file }, write)))
  }
  // Absent here: new on the other side, or removed here while the other side changed it.
  if (ours === null) {
    if (base !== null) return theirs === base ? 'unchanged' : isMd ? propose('skill.create', theirs) : conflict('kept_local')
    if (binary) return writeBinary(core, change.path, change.theirs!, null, skill, write, outcome)
    return guarded(isMd ? 'skill.create' : 'skill.file_write', theirs, () =>
      isMd
        ? core.skills.create({ name: skill.name, category: skill.category, content: theirs }, write)
        : core.skills.writeFile({ name: skill.name, file_path: skill.file, file_content: theirs }, write)
    )
  }
  // Changed on both sides, or only on theirs.
  let next = theirs
  if (ours !== base) {
    if (binary || local.kind === 'binary') return conflict('kept_local')
    const merged = mergeText(base, ours, theirs)
    if (!merged.clean) return propose(isMd ? 'skill.edit' : 'skill.file_write', theirs)
    next = merged.text
    if (next === ours) return 'unchanged'
  }
  if (binary || local.kind === 'binary') return writeBinary(core, change.path, change.theirs!, local.kind === 'binary' ? local.buffer : null, skill, write, outcome)
  return guarded(isMd ? 'skill.edit' : 'skill.file_write', next, () =>
    isMd ? core.skills.edit({ name: skill.name, content: next }, write) : core.skills.writeFile({ name: skill.name, file_path: skill.file, file_content: next }, write)
  )
}

/** Why a file the store does not write (a binary, a loose file) is not written here: a link on its path, or its size. */
function directWriteProblem(core: SyncHome, path: string, bytes: Buffer | null): string | null {
  const link = symlinkBelow(core.paths.root, join(core.paths.root, path))
  if (link) return `not written: ${link} is a symbolic link, and Cairn never writes through one.`
  if (bytes && bytes.length > MAX_FILE_BYTES) return `not written: it is ${bytes.length} bytes, and a skill's file may be at most ${MAX_FILE_BYTES}.`
  return null
}

/**
 * A binary supporting file (an image, an archive): the store writes text only, so the bytes are written
 * here and recorded as the store records binaries (base64, so a revert can put them back).
 */
async function writeBinary(
  core: SyncHome,
  path: string,
  bytes: Buffer,
  before: Buffer | null,
  skill: { name: string; category: string | null },
  write: WriteContext,
  outcome: SkillsBringIn
): Promise<FileResult> {
  const refused = directWriteProblem(core, path, bytes)
  if (refused) {
    outcome.refused.push({ file: path, reason: refused })
    return 'refused'
  }
  const absolute = join(core.paths.root, path)
  mkdirSync(dirname(absolute), { recursive: true })
  await writeFileAtomicText(absolute, bytes)
  core.ledger.record(
    { kind: 'skill.file_write', target: path, before: before?.toString('base64') ?? null, after: bytes.toString('base64'), meta: { skill: skill.name, category: skill.category, encoding: 'base64' } },
    write
  )
  core.skills.refreshPaths([path])
  outcome.received++
  return 'written'
}

/** A file under skills/ that belongs to no skill (a README at the top): kept as the other side has it, so the next commit does not drop it. */
async function writeLooseFile(core: SyncHome, change: SkillFileChange, outcome: SkillsBringIn): Promise<FileResult> {
  const absolute = join(core.paths.root, change.path)
  const refused = directWriteProblem(core, change.path, change.theirs)
  if (refused) {
    outcome.refused.push({ file: change.path, reason: refused })
    return 'refused'
  }
  if (change.theirs === null) rmSync(absolute, { force: true })
  else {
    mkdirSync(dirname(absolute), { recursive: true })
    await writeFileAtomicText(absolute, change.theirs)
  }
  return change.theirs === null ? 'deleted' : 'written'
}

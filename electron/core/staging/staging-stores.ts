import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { contextMeta, kindWithMeta, type LearnedChange, type LedgerEntry, type WriteContext } from '../../../shared/ledger'
import { openStateDb, type StateDb } from '../db/state-db'
import type { BatchChangeRecorder } from '../ledger/recorder'
import { MemoryStore } from '../memory'
import type { HiddenEntrySource } from '../memory/memory-hidden'
import type { EntryDating } from '../memory/entry-dating'
import type { MemoryLimits, MemoryTarget } from '../memory/types'
import type { ProjectScope } from '../memory/project-scope'
import { SkillStore, type SkillSummary } from '../skills'

/** Folder under the data home that holds each review's scratch copy while it runs. */
export const STAGING_DIR = 'tmp'
const SCRATCH_PREFIX = 'review-'
/** A chat's scratch copy (one proposal being prepared): never a review's, so a review starting elsewhere leaves it alone. */
export const CHAT_SCRATCH_PREFIX = 'chat-'
/** A chat's scratch copy lives for one tool call; one older than this was left by a killed process. */
const CHAT_SCRATCH_STALE_MS = 60 * 60 * 1000

/**
 * Collects the rows the staging stores would have written to the ledger, in memory: LedgerEntry-shaped,
 * with negative ids so they can never be mistaken for real rows. They become proposals at the end.
 */
export class CollectingRecorder implements BatchChangeRecorder {
  private readonly collected: LedgerEntry[] = []

  record(change: LearnedChange, ctx: WriteContext): LedgerEntry {
    return this.recordAll([change], ctx)[0]
  }

  recordAll(changes: readonly LearnedChange[], ctx: WriteContext): LedgerEntry[] {
    const rows = changes.map((change) => {
      const row: LedgerEntry = {
        id: -(this.collected.length + 1),
        at: new Date().toISOString(),
        target: change.target,
        source: ctx.source,
        sessionId: ctx.sessionId ?? null,
        reviewId: ctx.reviewId ?? null,
        before: change.before,
        after: change.after,
        revertedBy: null,
        ...kindWithMeta(change.kind, change.target, { ...change.meta, ...contextMeta(ctx) })
      }
      this.collected.push(row)
      return row
    })
    return rows
  }

  /** Every staged row so far, in the order written. */
  rows(): LedgerEntry[] {
    return [...this.collected]
  }
}

export interface StagingStoresOptions {
  /** The real data home: scratch copies keep their paths relative to it, so staged rows name real targets. */
  dataHome: string
  reviewId: string
  memoryLimits: () => MemoryLimits
  nativeBinding?: string
  /** The scratch folder's prefix under `tmp/` (default `review-`; a chat uses {@link CHAT_SCRATCH_PREFIX}). */
  scratchPrefix?: string
  /** The real memory store's entry dates (see MemoryStore's `dating`). */
  memoryDating?: EntryDating
  /** The real memory store's hidden entries: a staged write must not bring them up either. */
  memoryHidden?: HiddenEntrySource
  /** The real memory store's workspace: its PROJECT.md is staged at the same path below the scratch copy. */
  project?: ProjectScope | null
}

/**
 * A review's scratch copy of the learning stores: a MemoryStore and a SkillStore over a folder laid
 * out like the data home (`<home>/tmp/review-<id>/memories`, `…/skills`), recording into a
 * {@link CollectingRecorder}. Files are copied in lazily, when a target is first staged. Skill usage
 * goes to a throwaway in-memory database, so staged work never counts as use of the real skill.
 */
export class StagingStores {
  readonly root: string
  readonly recorder = new CollectingRecorder()
  readonly memory: MemoryStore
  readonly skills: SkillStore
  private readonly db: StateDb

  constructor(private readonly options: StagingStoresOptions) {
    this.root = join(options.dataHome, STAGING_DIR, `${options.scratchPrefix ?? SCRATCH_PREFIX}${safeId(options.reviewId)}`)
    rmSync(this.root, { recursive: true, force: true })
    mkdirSync(join(this.root, 'memories'), { recursive: true })
    mkdirSync(join(this.root, '.locks'), { recursive: true })
    this.db = openStateDb(':memory:', { nativeBinding: options.nativeBinding })
    // The real entries' dates, and repeats confirming them: a confirmation changes no file, so it is not staged.
    this.memory = new MemoryStore({
      dataHome: this.root,
      dir: join(this.root, 'memories'),
      limits: options.memoryLimits,
      recorder: this.recorder,
      dating: options.memoryDating,
      hidden: options.memoryHidden,
      project: options.project
    })
    this.skills = new SkillStore({
      dataHome: this.root,
      skillsDir: join(this.root, 'skills'),
      extraDirs: [],
      locksDir: join(this.root, '.locks'),
      db: this.db,
      recorder: this.recorder
    })
    this.skills.load()
  }

  /** Copies the real memory file in (as it reads now), so staged changes start from it. */
  copyMemory(target: MemoryTarget): void {
    const to = this.memory.pathOf(target)
    const from = join(this.options.dataHome, relative(this.root, to))
    if (!existsSync(from)) return
    mkdirSync(dirname(to), { recursive: true })
    cpSync(from, to)
  }

  /** Copies a real skill's whole folder in, at the same path below `skills/`. */
  copySkill(skill: SkillSummary, realSkillsDir: string): void {
    const dir = dirname(skill.path)
    const rel = relative(realSkillsDir, dir)
    if (rel === '' || rel.startsWith('..')) throw new Error(`Skill '${skill.name}' is not in the data home's skills folder.`)
    const copy = join(this.root, 'skills', rel)
    cpSync(dir, copy, { recursive: true, verbatimSymlinks: true })
    this.skills.refreshPaths([join(copy, 'SKILL.md')])
  }

  /** `text` with every path inside the scratch copy named as the real data home would name it (for what the model is shown). */
  realPaths(text: string): string {
    return text.split(this.root + sep).join(this.options.dataHome + sep)
  }

  /** Removes the scratch copy. Never throws: a leftover is removed when the next review starts. */
  close(): void {
    try {
      this.db.close()
    } catch {
      // Already closed.
    }
    try {
      rmSync(this.root, { recursive: true, force: true })
    } catch {
      // Removed at the next review's start (removeStagingLeftovers).
    }
  }
}

/**
 * Removes scratch copies that reviews killed mid-run left behind. Call it holding the review lock:
 * only one review of a data home runs at a time, so every scratch copy found then is a leftover.
 */
export function removeStagingLeftovers(dataHome: string): string[] {
  const dir = join(dataHome, STAGING_DIR)
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  const removed: string[] = []
  const leftover = (name: string) => name.startsWith(SCRATCH_PREFIX) || (name.startsWith(CHAT_SCRATCH_PREFIX) && olderThan(join(dir, name), CHAT_SCRATCH_STALE_MS))
  for (const name of names.filter(leftover)) {
    try {
      rmSync(join(dir, name), { recursive: true, force: true })
      removed.push(join(dir, name))
    } catch {
      // Tried again at the next review.
    }
  }
  return removed
}

function olderThan(path: string, ms: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > ms
  } catch {
    return false
  }
}

/** A review id as a folder name (ids are UUIDs; anything else is made safe). */
function safeId(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) || 'review'
}

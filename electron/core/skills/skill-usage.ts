import type { Statement } from 'better-sqlite3'
import type { StateDb } from '../db/state-db'

/** How a skill has been used, from the `skill_usage` table of state.db (SKILL.md is never rewritten for this). */
export interface SkillUsage {
  name: string
  viewCount: number
  lastViewedAt: number | null
  useCount: number
  lastUsedAt: number | null
  successCount: number
  failureCount: number
  patchCount: number
  createdAt: number | null
  createdBy: string | null
}

export type SkillOutcome = 'success' | 'failure'

/** Usage figures another agent kept for a skill (times in epoch milliseconds). */
export interface ImportedSkillUsage {
  viewCount: number
  useCount: number
  patchCount: number
  lastViewedAt: number | null
  lastUsedAt: number | null
}

interface UsageRow {
  name: string
  view_count: number
  last_viewed_at: number | null
  use_count: number
  last_used_at: number | null
  success_count: number
  failure_count: number
  patch_count: number
  created_at: number | null
  created_by: string | null
}

/** Usage counters per skill name. Every method is one statement, so concurrent processes never lose a bump. */
export class SkillUsageStore {
  private readonly view: Statement
  private readonly use: Statement
  private readonly patch: Statement
  private readonly create: Statement
  private readonly copy: Statement
  private readonly seed: Statement
  private readonly byName: Statement

  constructor(db: StateDb) {
    this.view = db.prepare(
      `INSERT INTO skill_usage (name, view_count, last_viewed_at) VALUES (@name, 1, @at)
       ON CONFLICT(name) DO UPDATE SET view_count = view_count + 1, last_viewed_at = @at`
    )
    this.use = db.prepare(
      `INSERT INTO skill_usage (name, use_count, last_used_at, success_count, failure_count)
       VALUES (@name, 1, @at, @success, @failure)
       ON CONFLICT(name) DO UPDATE SET use_count = use_count + 1, last_used_at = @at,
         success_count = success_count + @success, failure_count = failure_count + @failure`
    )
    this.patch = db.prepare(
      `INSERT INTO skill_usage (name, patch_count) VALUES (@name, 1)
       ON CONFLICT(name) DO UPDATE SET patch_count = patch_count + 1`
    )
    // A new skill under an old name starts from zero: the counters of a deleted skill say nothing about it.
    this.create = db.prepare(
      `INSERT INTO skill_usage (name, created_at, created_by) VALUES (@name, @at, @by)
       ON CONFLICT(name) DO UPDATE SET view_count = 0, last_viewed_at = NULL, use_count = 0, last_used_at = NULL,
         success_count = 0, failure_count = 0, patch_count = 0, created_at = @at, created_by = @by`
    )
    this.copy = db.prepare(
      `INSERT INTO skill_usage (name, created_at, created_by) VALUES (@name, @at, @by)
       ON CONFLICT(name) DO UPDATE SET created_at = @at, created_by = @by`
    )
    this.seed = db.prepare(
      `UPDATE skill_usage SET view_count = @viewCount, use_count = @useCount, patch_count = @patchCount,
         last_viewed_at = @lastViewedAt, last_used_at = @lastUsedAt WHERE name = @name`
    )
    this.byName = db.prepare('SELECT * FROM skill_usage WHERE name = ?')
  }

  recordView(name: string, at = Date.now()): void {
    this.view.run({ name, at })
  }

  recordUse(name: string, outcome?: SkillOutcome, at = Date.now()): void {
    this.use.run({ name, at, success: outcome === 'success' ? 1 : 0, failure: outcome === 'failure' ? 1 : 0 })
  }

  recordPatch(name: string): void {
    this.patch.run({ name })
  }

  recordCreate(name: string, createdBy: string, at = Date.now()): void {
    this.create.run({ name, at, by: createdBy })
  }

  /** The data home's copy of a skill Cairn read from a read-only root: created now, keeping the figures it has. */
  recordCopy(name: string, createdBy: string, at = Date.now()): void {
    this.copy.run({ name, at, by: createdBy })
  }

  /**
   * Sets the figures another agent counted for a skill just created here (an import), so ranking and
   * curation see a skill used a hundred times as such. Outcomes stay as they are: agents count no verdicts.
   */
  seedImported(name: string, figures: ImportedSkillUsage): void {
    this.seed.run({ name, ...figures })
  }

  get(name: string): SkillUsage | null {
    const row = this.byName.get(name) as UsageRow | undefined
    if (!row) return null
    return {
      name: row.name,
      viewCount: row.view_count,
      lastViewedAt: row.last_viewed_at,
      useCount: row.use_count,
      lastUsedAt: row.last_used_at,
      successCount: row.success_count,
      failureCount: row.failure_count,
      patchCount: row.patch_count,
      createdAt: row.created_at,
      createdBy: row.created_by
    }
  }
}

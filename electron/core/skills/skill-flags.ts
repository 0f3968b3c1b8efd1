import type { StateDb } from '../db/state-db'

/** What the user decided about a skill: pinned (learning only proposes changes to it), disabled (out of the index, files kept). */
export interface SkillFlagValues {
  pinned: boolean
  disabled: boolean
}

interface FlagRow {
  name: string
  pinned: number
  disabled: number
}

/**
 * The `skill_flags` table: one row per skill the user pinned or disabled, by name. A skill without a
 * row is neither. Kept in state.db rather than SKILL.md so flagging never rewrites the user's file.
 */
export class SkillFlags {
  constructor(private readonly db: StateDb) {}

  get(name: string): SkillFlagValues {
    const row = this.db.prepare('SELECT name, pinned, disabled FROM skill_flags WHERE name = ?').get(name) as FlagRow | undefined
    return { pinned: row?.pinned === 1, disabled: row?.disabled === 1 }
  }

  /** Every flagged skill, by name. */
  all(): Map<string, SkillFlagValues> {
    const rows = this.db.prepare('SELECT name, pinned, disabled FROM skill_flags').all() as FlagRow[]
    return new Map(rows.map((row) => [row.name, { pinned: row.pinned === 1, disabled: row.disabled === 1 }]))
  }

  /** Names of the disabled skills. */
  disabled(): Set<string> {
    return new Set((this.db.prepare('SELECT name FROM skill_flags WHERE disabled = 1').pluck().all() as string[]) ?? [])
  }

  /** Changes the flags given, keeps the others; a skill left with neither flag loses its row. */
  set(name: string, change: Partial<SkillFlagValues>): SkillFlagValues {
    const next = { ...this.get(name), ...change }
    if (!next.pinned && !next.disabled) {
      this.db.prepare('DELETE FROM skill_flags WHERE name = ?').run(name)
    } else {
      this.db
        .prepare(
          `INSERT INTO skill_flags (name, pinned, disabled, updated_at) VALUES (@name, @pinned, @disabled, @at)
           ON CONFLICT(name) DO UPDATE SET pinned = @pinned, disabled = @disabled, updated_at = @at`
        )
        .run({ name, pinned: next.pinned ? 1 : 0, disabled: next.disabled ? 1 : 0, at: Date.now() })
    }
    return next
  }

  /** A skill renamed (or merged into another) keeps its flags under the new name. */
  rename(from: string, to: string): void {
    if (from === to) return
    this.db.transaction(() => {
      const flags = this.get(from)
      if (!flags.pinned && !flags.disabled) return
      this.db.prepare('DELETE FROM skill_flags WHERE name = ?').run(from)
      this.set(to, flags)
    })()
  }
}

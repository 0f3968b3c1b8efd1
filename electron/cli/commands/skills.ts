import { skillItems, type SkillListItem } from '../../core/skills/skill-items'
import { parseCommandArgs } from '../args'
import { formatTime, oneLine, printJson, UsageError } from '../io'
import { isSkillAction, runSkillAction } from './skill-actions'
import type { CliCommand } from './types'

const MADE_BY: Record<SkillListItem['madeBy'], string | null> = {
  cairn: 'made by Cairn',
  user: 'yours',
  import: 'imported',
  // Read-only says it already.
  external: null
}

export const skillsCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] skills [--json]
       cairn [--home DIR] skills pin|unpin|disable|enable <name>
       cairn [--home DIR] skills history <name> [--json]
       cairn [--home DIR] skills restore <name> <id> [--json]
       cairn [--home DIR] skills diff <name> <idA> <idB>

Lists every skill Cairn can use, by category, with read-only roots marked, who made it, usage figures
(use count, last used, success rate), pinned and disabled marks, stale marks (unused for
skills.staleAfterDays; never deleted for it), how many skills a strict Agent Skills client would
reject, and the skills it skipped or loaded with warnings (and why).

  pin / unpin        a pinned skill is never changed by learning without asking (only proposals)
  disable / enable   a disabled skill leaves the skills index and the hints; its files and history stay
  history            every recorded change to the skill, newest first, with timeline ids
  restore            makes the skill's file read as it did after timeline entry <id> (a new change you
                     can revert); for a deletion or archive, brings the archived copy back
  diff               a unified diff between the skill's file after <idA> and after <idB>
`,
  async run(ctx, args) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } })
    const [action, name, ...rest] = positionals
    if (action !== undefined) {
      if (!isSkillAction(action)) throw new UsageError(`Unknown skills action "${action}". Use pin, unpin, disable, enable, history, restore or diff.`)
      return runSkillAction(ctx, action, name, rest, values.json ?? false)
    }
    const core = await ctx.core()
    const skills = skillItems(core)
    const diagnostics = core.skills.diagnostics()
    if (values.json) {
      printJson(ctx.io, { skills, diagnostics })
      return 0
    }
    if (skills.length === 0) ctx.io.out(`No skills yet in ${core.paths.skillsDir}.\n`)
    let category: string | null | undefined
    for (const skill of skills) {
      if (skill.category !== category) {
        category = skill.category
        ctx.io.out(`${category ?? '(no category)'}\n`)
      }
      const stats = skill.stats
      const facts = [
        skill.disabled ? 'disabled' : null,
        skill.pinned ? 'pinned' : null,
        skill.readOnly ? 'read-only' : null,
        MADE_BY[skill.madeBy],
        stats.stale ? 'stale' : null,
        stats.useCount ? `used ${stats.useCount}×` : null,
        stats.viewCount ? `viewed ${stats.viewCount}×` : null,
        stats.successRate !== null ? `${Math.round(stats.successRate * 100)}% worked` : null,
        stats.lastUsedAt ? `last ${formatTime(stats.lastUsedAt)}` : null
      ].filter(Boolean)
      ctx.io.out(`  ${skill.name.padEnd(28)} ${oneLine(skill.description, 70)}${facts.length ? `  (${facts.join(', ')})` : ''}\n`)
    }
    const rejected = skills.filter((skill) => skill.specIssues.length > 0).length
    if (rejected) {
      ctx.io.out(
        `\n${rejected} skill${rejected === 1 ? '' : 's'} would be rejected by a strict Agent Skills client ` +
          '(agentskills.io); cairn skills --json lists why (specIssues).\n'
      )
    }
    if (diagnostics.length) {
      ctx.io.out(`\n${diagnostics.length} note${diagnostics.length === 1 ? '' : 's'}:\n`)
      for (const d of diagnostics) ctx.io.out(`  ${d.severity === 'skipped' ? 'skipped' : 'warning'}  ${d.path}: ${d.reason}\n`)
    }
    return 0
  }
}

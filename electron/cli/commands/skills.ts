import { skillsWithStats } from '../../core/skills/skill-stats'
import { parseCommandArgs } from '../args'
import { formatTime, oneLine, printJson } from '../io'
import type { CliCommand } from './types'

export const skillsCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] skills [--json]

Lists every skill Cairn can use, by category, with read-only roots marked, usage figures (use count,
last used, success rate), stale marks (unused for skills.staleAfterDays; never deleted for it), and the
skills it skipped or loaded with warnings (and why).
`,
  async run(ctx, args) {
    const { values } = parseCommandArgs(args, { json: { type: 'boolean' } })
    const core = await ctx.core()
    const skills = skillsWithStats(core)
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
        skill.readOnly ? 'read-only' : null,
        stats.stale ? 'stale' : null,
        stats.useCount ? `used ${stats.useCount}×` : null,
        stats.viewCount ? `viewed ${stats.viewCount}×` : null,
        stats.successRate !== null ? `${Math.round(stats.successRate * 100)}% worked` : null,
        stats.lastUsedAt ? `last ${formatTime(stats.lastUsedAt)}` : null
      ].filter(Boolean)
      ctx.io.out(`  ${skill.name.padEnd(28)} ${oneLine(skill.description, 70)}${facts.length ? `  (${facts.join(', ')})` : ''}\n`)
    }
    if (diagnostics.length) {
      ctx.io.out(`\n${diagnostics.length} note${diagnostics.length === 1 ? '' : 's'}:\n`)
      for (const d of diagnostics) ctx.io.out(`  ${d.severity === 'skipped' ? 'skipped' : 'warning'}  ${d.path}: ${d.reason}\n`)
    }
    return 0
  }
}

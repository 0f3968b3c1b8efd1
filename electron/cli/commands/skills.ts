import { parseCommandArgs } from '../args'
import { formatTime, oneLine, printJson } from '../io'
import type { CliCommand } from './types'

export const skillsCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] skills [--json]

Lists every skill Cairn can use, by category, with read-only roots marked, usage figures, and the
skills it skipped or loaded with warnings (and why).
`,
  async run(ctx, args) {
    const { values } = parseCommandArgs(args, { json: { type: 'boolean' } })
    const core = await ctx.core()
    const skills = core.skills.list().map((skill) => ({ ...skill, usage: core.skills.getUsage(skill.name) }))
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
      const usage = skill.usage
      const facts = [
        skill.readOnly ? 'read-only' : null,
        usage?.viewCount ? `viewed ${usage.viewCount}×` : null,
        usage?.lastViewedAt ? `last ${formatTime(usage.lastViewedAt)}` : null
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

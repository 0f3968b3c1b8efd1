import { createTwoFilesPatch } from 'diff'
import type { CairnCore } from '../../core/cairn'
import { restoreSkillVersion, skillRow, versionAfter } from '../../core/skills/skill-history'
import { closestNames } from '../../core/skills/skill-view'
import { describeChange } from '../format-change'
import { CliFailure, formatTime, printJson, UsageError } from '../io'
import { refusalWords, wordedFailure } from '../worded-failure'
import type { CliContext } from './types'

/** What `cairn skills <action>` can do besides listing. */
export const SKILL_ACTIONS = ['pin', 'unpin', 'disable', 'enable', 'history', 'restore', 'diff'] as const
export type SkillCliAction = (typeof SKILL_ACTIONS)[number]

export function isSkillAction(word: string | undefined): word is SkillCliAction {
  return (SKILL_ACTIONS as readonly string[]).includes(word ?? '')
}

const FLAG_CHANGES = {
  pin: { pinned: true },
  unpin: { pinned: false },
  disable: { disabled: true },
  enable: { disabled: false }
} as const

const FLAG_DONE = {
  pin: 'pinned: reviews only ever propose changes to it',
  unpin: 'unpinned',
  disable: 'disabled: it is left out of the skills index and the hints; its files and history are kept',
  enable: 'enabled: it is back in the skills index'
} as const

function unknownSkill(core: CairnCore, name: string): CliFailure {
  const closest = closestNames(core.skills.list().map((skill) => skill.name), name, 5)
  return new CliFailure(`There is no skill named "${name}".${closest.length ? ` Closest: ${closest.join(', ')}.` : ''} See: cairn skills`)
}

function ledgerId(text: string | undefined, what: string): number {
  const id = Number(text)
  if (text === undefined || !Number.isInteger(id) || id < 1) throw new UsageError(`Give ${what} as a timeline id (a whole number, e.g. 12).`)
  return id
}

/** Runs one action on skill `name` (`rest`: the positionals after the name). */
export async function runSkillAction(ctx: CliContext, action: SkillCliAction, name: string | undefined, rest: string[], json: boolean): Promise<number> {
  if (!name) throw new UsageError(`Name the skill: cairn skills ${action} <name>${action === 'restore' ? ' <id>' : action === 'diff' ? ' <idA> <idB>' : ''}.`)
  const expected = action === 'restore' ? 1 : action === 'diff' ? 2 : 0
  if (rest.length !== expected) throw new UsageError(`cairn skills ${action} takes ${expected ? `the skill name and ${expected === 1 ? 'one timeline id' : 'two timeline ids'}` : 'only the skill name'}.`)
  const core = await ctx.core()
  switch (action) {
    case 'pin':
    case 'unpin':
    case 'disable':
    case 'enable': {
      if (!core.skills.get(name)) throw unknownSkill(core, name)
      const flags = core.skillFlags.set(name, FLAG_CHANGES[action])
      if (json) printJson(ctx.io, { name, ...flags })
      else ctx.io.out(`Skill '${name}' ${FLAG_DONE[action]}.\n`)
      return 0
    }
    case 'history':
      return history(ctx, core, name, json)
    case 'restore':
      return restore(ctx, core, name, ledgerId(rest[0], 'the version to restore'), json)
    case 'diff':
      return diff(ctx, core, name, ledgerId(rest[0], 'the first version'), ledgerId(rest[1], 'the second version'))
  }
}

function history(ctx: CliContext, core: CairnCore, name: string, json: boolean): number {
  const rows = core.ledger.forSkill(name)
  if (rows.length === 0 && !core.skills.get(name)) throw unknownSkill(core, name)
  if (json) {
    printJson(ctx.io, rows)
    return 0
  }
  if (rows.length === 0) {
    ctx.io.out(`Skill '${name}' has no recorded changes (it was written outside Cairn).\n`)
    return 0
  }
  for (const row of rows) {
    const who = [row.source, row.sessionId ? `session ${row.sessionId}` : null, row.revertedBy ? `reverted by #${row.revertedBy}` : null]
      .filter(Boolean)
      .join(', ')
    ctx.io.out(`#${row.id}  ${formatTime(row.at)}  ${row.kind.padEnd(17)} ${row.target}  (${who})\n`)
    for (const line of describeChange(row)) ctx.io.out(`      ${line}\n`)
  }
  ctx.io.out(`\nRestore a version: cairn skills restore ${name} <id>   Compare two: cairn skills diff ${name} <idA> <idB>\n`)
  return 0
}

async function restore(ctx: CliContext, core: CairnCore, name: string, id: number, json: boolean): Promise<number> {
  const result = await restoreSkillVersion(core, name, id)
  if (json) {
    printJson(ctx.io, result)
    return result.ok ? 0 : 1
  }
  if (!result.ok) {
    ctx.io.err(`cairn: could not restore #${id} of skill '${name}': ${refusalWords(core.config.get().ui.language, result)}\n`)
    return 1
  }
  const row = result.revertEntry
  ctx.io.out(`Restored ${row.target} as it was after #${id} (new timeline entry #${row.id}).\n`)
  for (const line of describeChange(row)) ctx.io.out(`      ${line}\n`)
  return 0
}

function diff(ctx: CliContext, core: CairnCore, name: string, idA: number, idB: number): number {
  const [a, b] = [skillRow(core.ledger, name, idA), skillRow(core.ledger, name, idB)]
  for (const found of [a, b]) if (!found.ok) throw wordedFailure(found.key, found.params as never)
  if (!a.ok || !b.ok) return 1
  const label = (entry: typeof a.entry): string => `#${entry.id} ${entry.target}${versionAfter(entry) === null ? ' (absent)' : ''}`
  const before = versionAfter(a.entry) ?? ''
  const after = versionAfter(b.entry) ?? ''
  if (before === after) {
    ctx.io.out(`No differences: ${label(a.entry)} and ${label(b.entry)} read the same.\n`)
    return 0
  }
  ctx.io.out(createTwoFilesPatch(label(a.entry), label(b.entry), before, after, `${a.entry.kind} ${a.entry.at}`, `${b.entry.kind} ${b.entry.at}`))
  return 0
}

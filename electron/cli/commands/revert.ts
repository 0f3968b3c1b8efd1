import { translate } from '../../../shared/i18n'
import { parseCommandArgs } from '../args'
import { describeChange } from '../format-change'
import { printJson, UsageError } from '../io'
import { refusalWords } from '../worded-failure'
import type { RevertResult } from '../../../shared/ledger'
import type { CairnCore } from '../../core/cairn'
import type { CliCommand } from './types'

type RefusedRevert = Extract<RevertResult, { ok: false }>

export const revertCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] revert <id> [--json]

Undoes one learned change from the timeline: restores the text from before it, as long as nothing
changed the same memory entry or skill file since. The undo shows up on the timeline too.
`,
  async run(ctx, args) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } })
    const id = Number(positionals[0])
    if (positionals.length !== 1 || !Number.isInteger(id) || id < 1) throw new UsageError('Give the timeline id to revert, e.g. cairn revert 12.')
    const core = await ctx.core()
    const result = await core.revert(id)
    if (values.json) {
      printJson(ctx.io, result)
      return result.ok ? 0 : 1
    }
    if (result.ok) {
      const row = result.revertEntry
      ctx.io.out(`Reverted #${id}: ${row.target} is back to its earlier text (new timeline entry #${row.id}).\n`)
      for (const line of describeChange(row)) ctx.io.out(`      ${line}\n`)
      return 0
    }
    ctx.io.err(`cairn: could not revert #${id}: ${refusalText(core, id, result)}\n`)
    if (result.conflict) {
      ctx.io.err(`\nExpected (what #${id} wrote):\n${indent(result.conflict.expected)}\n\nFound now:\n${indent(result.conflict.actual)}\n`)
    }
    return 1
  }
}

function indent(text: string | null): string {
  if (text === null) return '    (nothing: the file or entry does not exist)'
  return text.split('\n').map((line) => `    ${line}`).join('\n')
}

/** Why a revert was refused, in the data home's language: by its code with its figures, or by the key it carries. */
function refusalText(core: CairnCore, id: number, result: RefusedRevert): string {
  const language = core.config.get().ui.language
  if (result.code === 'not_found') return translate(language, 'error.revert.not_found', { id })
  if (result.code === 'already_reverted') return translate(language, 'error.revert.already_reverted', { id, by: core.ledger.get(id)?.revertedBy ?? '?' })
  return refusalWords(language, result)
}

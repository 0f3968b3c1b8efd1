import { ledgerKinds, ledgerSources, type FixedLedgerSource, type LedgerKind } from '../../../shared/ledger'
import { parseCommandArgs, parseLimit } from '../args'
import { describeChange } from '../format-change'
import { formatTime, printJson, UsageError } from '../io'
import type { CliCommand } from './types'

export const timelineCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] timeline [--json] [--limit N] [--kind KIND] [--source SOURCE]

Everything Cairn has learned, newest first: memory entries added, replaced or removed and skill
files created, patched or deleted, with who did it. Revert a row with: cairn revert <id>
Kinds: ${ledgerKinds.join(', ')}
Sources: ${ledgerSources.join(', ')}
`,
  async run(ctx, args) {
    const { values } = parseCommandArgs(args, {
      json: { type: 'boolean' },
      limit: { type: 'string' },
      kind: { type: 'string', multiple: true },
      source: { type: 'string', multiple: true }
    })
    const kinds = (values.kind ?? []) as LedgerKind[]
    const sources = (values.source ?? []) as FixedLedgerSource[]
    for (const kind of kinds) {
      if (!ledgerKinds.includes(kind)) throw new UsageError(`Unknown kind "${kind}".`)
    }
    for (const source of sources) {
      if (!ledgerSources.includes(source)) throw new UsageError(`Unknown source "${source}".`)
    }
    const core = await ctx.core()
    const rows = core.ledger.list({ limit: parseLimit(values.limit, 20), kinds, sources })
    if (values.json) {
      printJson(ctx.io, rows)
      return 0
    }
    if (rows.length === 0) {
      ctx.io.out('Nothing learned yet.\n')
      return 0
    }
    for (const row of rows) {
      const who = [row.source, row.sessionId ? `session ${row.sessionId}` : null, row.revertedBy ? `reverted by #${row.revertedBy}` : null]
        .filter(Boolean)
        .join(', ')
      ctx.io.out(`#${row.id}  ${formatTime(row.at)}  ${row.kind.padEnd(17)} ${row.target}  (${who})\n`)
      for (const line of describeChange(row)) ctx.io.out(`      ${line}\n`)
    }
    return 0
  }
}

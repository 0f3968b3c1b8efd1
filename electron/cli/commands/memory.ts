import type { CairnCore } from '../../core/cairn'
import { memoryEntryInfo, memoryHistory, restoreMemoryEntry } from '../../core/memory/entry-history'
import { setEntryPinned } from '../../core/memory/entry-pinning'
import { isMemoryTarget, memoryTargets, type MemoryTarget } from '../../core/memory'
import { parseCommandArgs } from '../args'
import { describeChange } from '../format-change'
import { CliFailure, formatTime, oneLine, printJson, UsageError } from '../io'
import { refusalWords } from '../worded-failure'
import { searchCommand } from './memory-search'
import type { CliCommand, CliContext } from './types'

const FILE: Record<MemoryTarget, string> = { memory: 'MEMORY.md', user: 'USER.md' }

export const memoryCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] memory [--json]
       cairn [--home DIR] memory history [user|memory] [--entry TEXT] [--json]
       cairn [--home DIR] memory pin|unpin <user|memory> <text or a part only that entry has>
       cairn [--home DIR] memory restore <id> [--json]
       cairn [--home DIR] memory search <words…> [--json] [--limit N]

Shows what Cairn remembers: the entries of MEMORY.md (its own notes) and USER.md (about you), with
where each came from (who wrote it and when, from the timeline) and which are pinned.

  history   the recorded changes to one file (or both), newest first; with --entry, only the changes
            that made that entry what it is (following its replacements back to when it was added)
  pin       a pinned entry is never changed or removed by learning without asking (only proposals)
  unpin     takes the pin off again
  restore   puts an entry back as timeline entry <id> left it (a removal: the text it removed), as a
            new change you can revert
  search    finds entries in memory and in its archive (what did not fit, or was taken out), with
            their ids and dates
`,
  async run(ctx, args) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' }, entry: { type: 'string' }, limit: { type: 'string' } })
    const [action, ...rest] = positionals
    const json = values.json ?? false
    if (values.entry !== undefined && action !== 'history') throw new UsageError('--entry goes with: cairn memory history.')
    switch (action) {
      case undefined:
        return show(ctx, await ctx.core(), json)
      case 'history':
        return history(ctx, rest, values.entry, json)
      case 'pin':
      case 'unpin':
        return pin(ctx, action === 'pin', rest)
      case 'restore':
        return restore(ctx, rest, json)
      case 'search':
        return searchCommand(ctx, await ctx.core(), rest, json, limitOf(values.limit))
      default:
        throw new UsageError(`Unknown memory action "${action}". Use history, pin, unpin, restore or search.`)
    }
  }
}

function limitOf(value: string | undefined): number {
  if (value === undefined) return 20
  const limit = Number(value)
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError('--limit takes a whole number from 1 to 100.')
  return limit
}

function targetOf(word: string | undefined): MemoryTarget {
  if (!isMemoryTarget(word)) throw new UsageError(`Name the file: ${memoryTargets.join(' or ')}${word === undefined ? '' : ` (not "${word}")`}.`)
  return word
}

function show(ctx: CliContext, core: CairnCore, json: boolean): number {
  const views = Object.fromEntries(
    memoryTargets.map((target) => {
      const { entries, usage } = core.memory.read(target)
      return [target, { entries, info: memoryEntryInfo(core, target, entries), current: usage.current, limit: usage.limit }]
    })
  ) as Record<MemoryTarget, { entries: string[]; info: ReturnType<typeof memoryEntryInfo>; current: number; limit: number }>
  const archiveSize = core.archive.count()
  if (json) {
    printJson(ctx.io, { ...views, archive: { count: archiveSize } })
    return 0
  }
  for (const target of memoryTargets) {
    const view = views[target]
    ctx.io.out(`${FILE[target]} (${target})  ${view.current.toLocaleString('en-US')}/${view.limit.toLocaleString('en-US')} chars\n`)
    if (view.entries.length === 0) ctx.io.out('  (empty)\n')
    view.info.forEach((info, i) => {
      const facts = [
        info.pinned ? 'pinned' : null,
        info.source ? `${info.source} ${formatTime(info.updatedAt!)}` : 'written by hand',
        info.createdAt && info.createdAt !== info.updatedAt ? `first added ${formatTime(info.createdAt)}` : null,
        info.confirmedAt && info.confirmedAt !== info.updatedAt ? `last confirmed ${formatTime(info.confirmedAt)}` : null,
        info.ledgerId !== null ? `#${info.ledgerId}` : null
      ].filter(Boolean)
      ctx.io.out(`  ${String(i + 1).padStart(2)}. ${oneLine(info.text, 90)}  (${facts.join(', ')})\n`)
    })
  }
  ctx.io.out(`\nArchive: ${archiveSize.toLocaleString('en-US')} ${archiveSize === 1 ? 'entry' : 'entries'} (not in every conversation; find them with: cairn memory search <words>)\n`)
  return 0
}

async function history(ctx: CliContext, rest: string[], entry: string | undefined, json: boolean): Promise<number> {
  if (rest.length > 1) throw new UsageError('cairn memory history takes at most the file name (user or memory).')
  if (entry !== undefined && rest.length === 0) throw new UsageError('Name the file the entry is in: cairn memory history user --entry TEXT.')
  const targets = rest.length ? [targetOf(rest[0])] : [...memoryTargets]
  const core = await ctx.core()
  const rows = targets.flatMap((target) => memoryHistory(core.ledger, target, entry)).sort((a, b) => b.id - a.id)
  if (json) {
    printJson(ctx.io, rows)
    return 0
  }
  if (rows.length === 0) {
    ctx.io.out(entry === undefined ? 'No recorded memory changes yet.\n' : `No recorded change wrote "${oneLine(entry, 60)}".\n`)
    return 0
  }
  for (const row of rows) {
    const who = [row.source, row.sessionId ? `session ${row.sessionId}` : null, row.revertedBy ? `reverted by #${row.revertedBy}` : null]
      .filter(Boolean)
      .join(', ')
    ctx.io.out(`#${row.id}  ${formatTime(row.at)}  ${row.kind.padEnd(14)} ${FILE[row.meta.store]}  (${who})\n`)
    for (const line of describeChange(row)) ctx.io.out(`      ${line}\n`)
  }
  ctx.io.out('\nPut an entry back as a change left it: cairn memory restore <id>\n')
  return 0
}

async function pin(ctx: CliContext, pinned: boolean, rest: string[]): Promise<number> {
  if (rest.length !== 2) throw new UsageError(`Usage: cairn memory ${pinned ? 'pin' : 'unpin'} <user|memory> <text or a part only that entry has>`)
  const target = targetOf(rest[0])
  const outcome = setEntryPinned(await ctx.core(), target, rest[1], pinned)
  if (!outcome.ok) {
    throw new CliFailure(outcome.matches ? `${outcome.error} It matches:\n${outcome.matches.map((m) => `  - ${m}`).join('\n')}` : outcome.error)
  }
  ctx.io.out(`${pinned ? 'Pinned' : 'Unpinned'} in ${FILE[target]}: ${oneLine(outcome.entry, 90)}\n`)
  return 0
}

async function restore(ctx: CliContext, rest: string[], json: boolean): Promise<number> {
  const id = Number(rest[0])
  if (rest.length !== 1 || !Number.isInteger(id) || id < 1) throw new UsageError('Give the timeline id to restore, e.g. cairn memory restore 12.')
  const core = await ctx.core()
  const result = await restoreMemoryEntry(core, id)
  if (json) {
    printJson(ctx.io, result)
    return result.ok ? 0 : 1
  }
  if (!result.ok) {
    ctx.io.err(`cairn: could not restore #${id}: ${refusalWords(core.config.get().ui.language, result)}\n`)
    return 1
  }
  ctx.io.out(`Restored the entry as #${id} left it (new timeline entry #${result.revertEntry.id}).\n`)
  for (const line of describeChange(result.revertEntry)) ctx.io.out(`      ${line}\n`)
  return 0
}

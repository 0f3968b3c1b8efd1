import { existsSync, statSync } from 'node:fs'
import { relative, resolve, sep } from 'node:path'
import type { CairnCore } from '../../core/cairn'
import { memoryEntryInfo, memoryHistory, restoreMemoryEntry } from '../../core/memory/entry-history'
import { entryVisibilityHistory, setEntryHidden } from '../../core/memory/entry-hiding'
import { setEntryPinned } from '../../core/memory/entry-pinning'
import { isMemoryTarget, memoryTargets, type MemoryStore, type MemoryTarget } from '../../core/memory'
import { listProjectMemories } from '../../core/memory/project-scope'
import { parseCommandArgs } from '../args'
import { describeChange } from '../format-change'
import { CliFailure, formatTime, oneLine, printJson, UsageError } from '../io'
import { refusalWords } from '../worded-failure'
import { searchCommand } from './memory-search'
import type { CliCommand, CliContext } from './types'
import { memoryProviderAction } from './memory-provider'

const FILE: Record<MemoryTarget, string> = { memory: 'MEMORY.md', user: 'USER.md', project: 'PROJECT.md' }

export const memoryCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] memory [--workspace DIR] [--json]
       cairn [--home DIR] memory history [user|memory|project] [--workspace DIR] [--entry TEXT] [--json]
       cairn [--home DIR] memory pin|unpin <user|memory|project> <text or a part only that entry has> [--workspace DIR]
       cairn [--home DIR] memory hide|show <user|memory|project> <text, a part only that entry has, or its number> [--workspace DIR]
       cairn [--home DIR] memory restore <id> [--json]
       cairn [--home DIR] memory projects [--json]
       cairn [--home DIR] memory provider [search <query> | forget <id>] [--json]
       cairn [--home DIR] memory search <words…> [--json] [--limit N]

Shows what Cairn remembers: the entries of MEMORY.md (its own notes) and USER.md (about you), and with
--workspace that workspace's project memory (PROJECT.md, kept in the data home), with where each came
from (who wrote it and when, from the timeline) and which are pinned or hidden.

  projects  the project memories the data home holds, with the workspace each belongs to

  history   the recorded changes to one file (or both), newest first; with --entry, only the changes
            that made that entry what it is (following its replacements back to when it was added)
  pin       a pinned entry is never changed or removed by learning without asking (only proposals)
  unpin     takes the pin off again
  hide      "don't bring this up": the entry stays in the file (and here, and in its history) but is
            left out of new conversations' prompts, the model's memory read, what Cairn serves over
            MCP and recall; an add saying it again in other words is refused. The number is the one
            \`cairn memory\` shows. Usage still counts it (it is in the file)
  show      brings a hidden entry up again, from the next conversation on
  restore   puts an entry back as timeline entry <id> left it (a removal: the text it removed), as a
            new change you can revert
  provider  the memory provider recalled from and sent each finished turn (memory.provider: builtin,
            mem0 or honcho), whether it answers, and what was last sent to it; search asks it,
            forget deletes one item by the id search printed (Mem0 only: the archive keeps every fact)
  search    finds entries in memory and in its archive (what did not fit, or was taken out), with
            their ids and dates
`,
  async run(ctx, args) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' }, entry: { type: 'string' }, workspace: { type: 'string' }, limit: { type: 'string' } })
    const [action, ...rest] = positionals
    const json = values.json ?? false
    if (values.entry !== undefined && action !== 'history') throw new UsageError('--entry goes with: cairn memory history.')
    const workspace = values.workspace === undefined ? undefined : workspaceOf(values.workspace)
    switch (action) {
      case undefined:
        return show(ctx, await ctx.core(), json, workspace)
      case 'history':
        return history(ctx, rest, values.entry, json, workspace)
      case 'pin':
      case 'unpin':
        return pin(ctx, action === 'pin', rest, workspace)
      case 'restore':
        return restore(ctx, rest, json)
      case 'hide':
      case 'show':
        return hide(ctx, action === 'hide', rest, workspace)
      case 'projects':
        return projects(ctx, await ctx.core(), json)
      case 'provider':
        return memoryProviderAction(ctx, await ctx.core(), rest, json)
      case 'search':
        return searchCommand(ctx, await ctx.core(), rest, json, limitOf(values.limit))
      default:
        throw new UsageError(`Unknown memory action "${action}". Use history, pin, unpin, hide, show, restore, search, projects or provider.`)
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

/** The workspace named by --workspace, as an absolute path (it must be a folder). */
function workspaceOf(path: string): string {
  const absolute = resolve(path)
  if (!existsSync(absolute) || !statSync(absolute).isDirectory()) throw new UsageError(`--workspace ${path}: no such folder.`)
  return absolute
}

/** The store whose `project` target is that workspace's; without one, `project` is refused with its keyed error. */
function storeFor(core: CairnCore, workspace: string | undefined): MemoryStore {
  return workspace ? core.memory.forWorkspace(workspace) : core.memory
}

function show(ctx: CliContext, core: CairnCore, json: boolean, workspace: string | undefined): number {
  const store = storeFor(core, workspace)
  const targets = memoryTargets.filter((target) => target !== 'project' || workspace)
  const views = Object.fromEntries(
    targets.map((target) => {
      const { entries, usage } = store.read(target)
      return [target, { entries, info: memoryEntryInfo(core, target, entries), current: usage.current, limit: usage.limit }]
    })
  ) as Partial<Record<MemoryTarget, { entries: string[]; info: ReturnType<typeof memoryEntryInfo>; current: number; limit: number }>>
  const archiveSize = core.archive.count()
  if (json) {
    printJson(ctx.io, { ...views, ...(workspace ? { workspace: store.project?.workspace } : {}), archive: { count: archiveSize } })
    return 0
  }
  for (const target of targets) {
    const view = views[target]!
    const whose = target === 'project' ? ` of ${store.project?.workspace}` : ''
    ctx.io.out(`${FILE[target]} (${target}${whose})  ${view.current.toLocaleString('en-US')}/${view.limit.toLocaleString('en-US')} chars\n`)
    if (view.entries.length === 0) ctx.io.out('  (empty)\n')
    view.info.forEach((info, i) => {
      const facts = [
        info.pinned ? 'pinned' : null,
        info.hidden ? 'hidden: not brought up' : null,
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

async function history(ctx: CliContext, rest: string[], entry: string | undefined, json: boolean, workspace: string | undefined): Promise<number> {
  if (rest.length > 1) throw new UsageError('cairn memory history takes at most the file name (user, memory or project).')
  if (entry !== undefined && rest.length === 0) throw new UsageError('Name the file the entry is in: cairn memory history user --entry TEXT.')
  const targets = rest.length ? [targetOf(rest[0])] : memoryTargets.filter((target) => target !== 'project' || workspace)
  const core = await ctx.core()
  const store = storeFor(core, workspace)
  // One project's rows only: PROJECT.md of this workspace (refused without one).
  const fileOf = (target: MemoryTarget) => (target === 'project' ? relative(core.paths.root, store.pathOf('project')).split(sep).join('/') : undefined)
  const rows = targets.flatMap((target) => memoryHistory(core.ledger, target, entry, fileOf(target))).sort((a, b) => b.id - a.id)
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
  if (entry !== undefined) {
    for (const change of entryVisibilityHistory(core, targets[0], entry)) {
      ctx.io.out(`${formatTime(change.at)}  ${change.hidden ? 'hidden (not brought up)' : 'shown again'}: ${oneLine(change.entry, 80)}\n`)
    }
  }
  ctx.io.out('\nPut an entry back as a change left it: cairn memory restore <id>\n')
  return 0
}

async function pin(ctx: CliContext, pinned: boolean, rest: string[], workspace: string | undefined): Promise<number> {
  if (rest.length !== 2) throw new UsageError(`Usage: cairn memory ${pinned ? 'pin' : 'unpin'} <user|memory|project> <text or a part only that entry has>`)
  const target = targetOf(rest[0])
  const core = await ctx.core()
  const outcome = setEntryPinned({ memory: storeFor(core, workspace), memoryPins: core.memoryPins }, target, rest[1], pinned)
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

async function hide(ctx: CliContext, hidden: boolean, rest: string[], workspace: string | undefined): Promise<number> {
  const verb = hidden ? 'hide' : 'show'
  if (rest.length !== 2) throw new UsageError(`Usage: cairn memory ${verb} <user|memory> <text, a part only that entry has, or its number>`)
  const target = targetOf(rest[0])
  const core = await ctx.core()
  const store = storeFor(core, workspace)
  const outcome = setEntryHidden({ memory: store, memoryHidden: core.memoryHidden }, target, entryNamed(store, target, rest[1]), hidden)
  if (!outcome.ok) {
    throw new CliFailure(outcome.matches ? `${outcome.error} It matches:\n${outcome.matches.map((m) => `  - ${m}`).join('\n')}` : outcome.error)
  }
  const state = hidden ? 'Hidden (kept in the file, not brought up from the next conversation on)' : 'Shown again (from the next conversation on)'
  ctx.io.out(`${outcome.changed ? state : hidden ? 'Already hidden' : 'Not hidden'} in ${FILE[target]}: ${oneLine(outcome.entry, 90)}\n`)
  return 0
}

/** The entry `word` names: its number as `cairn memory` lists it, or else the text to look for. */
function entryNamed(store: MemoryStore, target: MemoryTarget, word: string): string {
  if (!/^\d+$/.test(word)) return word
  const { entries } = store.read(target)
  const entry = entries[Number(word) - 1]
  if (entry === undefined) throw new UsageError(`${FILE[target]} has ${entries.length} entries; there is no number ${word}.`)
  return entry
}

function projects(ctx: CliContext, core: CairnCore, json: boolean): number {
  const found = listProjectMemories(core.paths.memoriesDir)
  if (json) {
    printJson(ctx.io, found)
    return 0
  }
  if (found.length === 0) {
    ctx.io.out('No project memory yet. A conversation in a workspace starts one when it saves a fact about it.\n')
    return 0
  }
  for (const project of found) {
    ctx.io.out(`${project.key}  ${project.entries} entries, ${project.chars.toLocaleString('en-US')} chars  ${project.workspace || '(workspace unknown)'}\n`)
  }
  ctx.io.out('\nShow one: cairn memory --workspace DIR\n')
  return 0
}

import type { MemoryEntryInfo } from '../../../shared/ipc/domain'
import { memoryKinds, type LedgerEntry, type LedgerSource, type MemoryLedgerEntry, type RevertResult } from '../../../shared/ledger'
import type { Ledger } from '../ledger/ledger'
import type { EntryDates } from './entry-dating'
import type { MemoryConfirmations } from './memory-confirmations'
import type { MemoryHidden } from './memory-hidden'
import type { MemoryPins } from './memory-pins'
import type { MemoryStore } from './memory-store'
import type { MemoryResult, MemoryTarget } from './types'
import { refusal } from '../ledger/refusal'

/** Rows read per query, and at most this many of one file (the newest), so a long history stays quick. */
const PAGE = 500
const MAX_ROWS = 20_000

/** Every committed ledger row of one memory file, newest first (`ledgerTarget`: only that file's, e.g. one project's PROJECT.md). */
export function memoryFileHistory(ledger: Pick<Ledger, 'list'>, target: MemoryTarget, ledgerTarget?: string): MemoryLedgerEntry[] {
  const rows: MemoryLedgerEntry[] = []
  let beforeId: number | undefined
  for (let read = 0; read < MAX_ROWS; read += PAGE) {
    const page = ledger.list({ kinds: [...memoryKinds], limit: PAGE, beforeId })
    for (const row of page) if (isMemoryRow(row) && row.meta.store === target && (!ledgerTarget || row.target === ledgerTarget)) rows.push(row)
    if (page.length < PAGE) break
    beforeId = page[page.length - 1].id
  }
  return rows
}

function isMemoryRow(row: LedgerEntry): row is MemoryLedgerEntry {
  return row.kind.startsWith('memory.')
}

/**
 * The rows that made `text` what it is, newest first (`rows` newest first): the newest row that wrote it
 * (or removed it), then the row whose `after` was that row's `before`, and so on back to the add.
 */
export function entryChain<T extends LedgerEntry>(rows: readonly T[], text: string, options: { includeRemoval?: boolean } = {}): T[] {
  const includeRemoval = options.includeRemoval ?? true
  let current = rows.find((row) => row.after === text || (includeRemoval && row.after === null && row.before === text))
  const chain: T[] = []
  while (current) {
    chain.push(current)
    const previous = current.before
    if (previous === null) break
    const id = current.id
    current = rows.find((row) => row.id < id && row.after === previous)
  }
  return chain
}

/** The rows of one memory file, newest first; with `entry`, only those that made that entry what it is. */
export function memoryHistory(ledger: Pick<Ledger, 'list'>, target: MemoryTarget, entry?: string, ledgerTarget?: string): MemoryLedgerEntry[] {
  const rows = memoryFileHistory(ledger, target, ledgerTarget)
  return entry === undefined ? rows : entryChain(rows, entry.trim())
}

/** When an entry was last confirmed: saved again (`confirmed`, ms) after its add, or rewritten after it (the chain's newest row). */
function confirmedAtOf(chain: readonly MemoryLedgerEntry[], confirmed: number | undefined): string | null {
  const added = chain[chain.length - 1]
  if (!added) return confirmed === undefined ? null : new Date(confirmed).toISOString()
  const rewritten = chain.length > 1 ? Date.parse(chain[0].at) : null
  // A confirmation older than the add was of an earlier entry with the same text, since removed.
  const repeated = confirmed !== undefined && confirmed >= Date.parse(added.at) ? confirmed : null
  const latest = Math.max(rewritten ?? -Infinity, repeated ?? -Infinity)
  return Number.isFinite(latest) ? new Date(latest).toISOString() : null
}

/** What entry dates are read from: the ledger (adds and rewrites) and the confirmations table. */
export interface EntryDateSources {
  ledger: Pick<Ledger, 'list'>
  memoryConfirmations: Pick<MemoryConfirmations, 'list'>
}

/**
 * When each live entry of `target` was added and last confirmed, from state.db (never from the file):
 * added = the row that began its chain of rewrites; confirmed = the latest repeat of it or rewrite of it.
 */
export function memoryEntryDates(source: EntryDateSources, target: MemoryTarget, entries: readonly string[]): EntryDates[] {
  const rows = entries.length ? memoryFileHistory(source.ledger, target) : []
  const confirmations = entries.length ? source.memoryConfirmations.list(target) : new Map<string, number>()
  return entries.map((text) => {
    const chain = entryChain(rows, text, { includeRemoval: false })
    return { text, addedAt: chain[chain.length - 1]?.at ?? null, confirmedAt: confirmedAtOf(chain, confirmations.get(text)) }
  })
}

/**
 * Where each entry came from, from the ledger (kept outside the file): the row that wrote its text as
 * it reads now, the first row of its chain for when it was first added, whether it is pinned, and when
 * it was last confirmed, and whether (and since when) the user hid it. An entry no row wrote (typed into
 * the file by hand) has nulls.
 */
export function memoryEntryInfo(
  source: {
    ledger: Pick<Ledger, 'list'>
    memoryPins: Pick<MemoryPins, 'list'>
    memoryConfirmations?: Pick<MemoryConfirmations, 'list'>
    memoryHidden?: Pick<MemoryHidden, 'hiddenSince'>
  },
  target: MemoryTarget,
  entries: readonly string[]
): MemoryEntryInfo[] {
  const rows = entries.length ? memoryFileHistory(source.ledger, target) : []
  const pinned = source.memoryPins.list(target)
  const hidden = source.memoryHidden?.hiddenSince(target)
  const confirmations = entries.length && source.memoryConfirmations ? source.memoryConfirmations.list(target) : new Map<string, number>()
  return entries.map((text) => {
    const chain = entryChain(rows, text, { includeRemoval: false })
    const latest = chain[0] ?? null
    const first = chain[chain.length - 1] ?? null
    return {
      text,
      pinned: pinned.has(text),
      source: latest?.source ?? null,
      updatedAt: latest?.at ?? null,
      createdAt: first?.at ?? null,
      confirmedAt: confirmedAtOf(chain, confirmations.get(text)),
      sessionId: latest?.sessionId ?? null,
      reviewId: latest?.reviewId ?? null,
      ledgerId: latest?.id ?? null,
      ...(hidden ? { hidden: hidden.has(text), hiddenAt: hidden.has(text) ? new Date(hidden.get(text)!).toISOString() : null } : {}),
      ...(latest?.source === 'sync' && latest.meta.device ? { device: latest.meta.device } : {})
    }
  })
}

/** What a restore goes through. */
export interface MemoryRestoreSource {
  memory: Pick<MemoryStore, 'read' | 'add' | 'replace'>
  memoryPins: Pick<MemoryPins, 'rename'>
  ledger: Pick<Ledger, 'get' | 'list' | 'onRecord'>
}

/**
 * Puts an entry back as ledger row `ledgerId` left it, as a new change with source `user`: the text
 * the row wrote (for a remove, the text it removed) replaces the entry's version now, following the
 * replace chain forward from the row, or is added when that version is gone. A pin on the replaced
 * version follows it. Refused, with nothing written, when the row is not a memory change or the file
 * already holds that text.
 */
export async function restoreMemoryEntry(source: MemoryRestoreSource, ledgerId: number): Promise<RevertResult> {
  const entry = source.ledger.get(ledgerId)
  if (!entry) return { ...refusal('revert.not_found', { id: ledgerId }), code: 'not_found' }
  if (!isMemoryRow(entry)) return refusal('memory_restore.not_memory', { id: ledgerId, target: entry.target })
  const target = entry.meta.store
  const text = entry.kind === 'memory.remove' ? entry.before : entry.after
  if (text === null) return refusal('memory_restore.no_text', { id: ledgerId })
  const { entries } = source.memory.read(target)
  if (entries.includes(text)) return refusal('memory_restore.already_held', { id: ledgerId, store: target })
  const now = currentVersion(memoryFileHistory(source.ledger, target), entry, text)
  const replacing = now !== null && entries.includes(now) ? now : null
  const write = { write: { source: 'user' as const, sessionId: null } }
  const { result, rows } = await capturingRows(source.ledger, target, () =>
    replacing === null ? source.memory.add(target, text, write, { allowSimilar: true }) : source.memory.replace(target, replacing, text, write, { force: true })
  )
  if (!result.success) return { ok: false, error: result.error }
  const row = rows[rows.length - 1]
  if (!row) return refusal('memory_restore.unchanged', { store: target })
  if (replacing !== null) source.memoryPins.rename(target, replacing, text)
  return { ok: true, revertEntry: row }
}

/** Where the entry `row` wrote went since: following later rows whose `before` is its text; null once removed. */
function currentVersion(rows: readonly MemoryLedgerEntry[], row: MemoryLedgerEntry, text: string): string | null {
  let version: string | null = text
  let after = row.id
  const oldestFirst = [...rows].reverse()
  while (version !== null) {
    const from: string = version
    const next = oldestFirst.find((candidate) => candidate.id > after && candidate.before === from)
    if (!next) break
    version = next.after
    after = next.id
  }
  return version
}

/**
 * Runs a memory write and collects the ledger rows this process recorded for that file meanwhile with
 * the write's source (the write's own; the store does not hand them back).
 */
export async function capturingRows(
  ledger: Pick<Ledger, 'onRecord'>,
  target: MemoryTarget,
  write: () => Promise<MemoryResult>,
  source: LedgerSource = 'user'
): Promise<{ result: MemoryResult; rows: MemoryLedgerEntry[] }> {
  const rows: MemoryLedgerEntry[] = []
  const stop = ledger.onRecord((row) => {
    if (row.source === source && isMemoryRow(row) && row.meta.store === target) rows.push(row)
  })
  try {
    return { result: await write(), rows }
  } finally {
    stop()
  }
}

import { archiveLedgerTarget, isArchiveSource } from '../../../shared/archive-names'
import type { LedgerEntry, RevertResult, WriteContext } from '../../../shared/ledger'
import { normalizeProvenance } from '../../../shared/provenance'
import type { StateDb } from '../db/state-db'
import type { ChangeRecorder } from '../ledger/recorder'
import { refusal } from '../ledger/refusal'
import type { Embedder } from '../provider/embeddings'
import { scanForThreats, threatMessage } from '../security/threats'
import { archiveWordsOf } from './archive-query'
import { searchArchiveWords } from './archive-search'
import { searchArchiveByMeaning } from './archive-meaning'
import type { ArchiveAddInput, ArchiveAddResult, ArchiveEntry, ArchiveHit, ArchiveListOptions, ArchiveSearchOptions, ArchiveSource } from './archive-types'
import { messages } from './messages'
import { isMemoryTarget, type MemoryTarget } from './types'

const DEFAULT_LIMIT = 10
const MAX_LIMIT = 100

interface ArchiveRow {
  id: number
  target: string
  project_key: string | null
  text: string
  source: string
  provenance: string | null
  added_at: number
  updated_at: number
  last_recalled_at: number | null
  recall_count: number
  hidden: number
}

/**
 * The memory archive: an unbounded store of entries below MEMORY.md and USER.md (state.db, migration 19),
 * searched on demand instead of loaded into every prompt. Entries a full core could not take, entries
 * retired from the core and the old texts of replaces land here, so no fact Cairn learned is lost.
 * Every add and remove is a ledger row (`archive.add` / `archive.remove`) written in the same
 * transaction as the change, so the Timeline shows it and it reverts like any memory change.
 */
export class MemoryArchive {
  constructor(
    private readonly db: StateDb,
    private readonly recorder: ChangeRecorder,
    private readonly now: () => number = Date.now
  ) {}

  /** Words search (BM25 over the text and its CJK words), best first. Synchronous: recall runs it on every turn. */
  search(query: string, options: ArchiveSearchOptions = {}): ArchiveHit[] {
    const rows = searchArchiveWords(this.db, query, scopeClause(options, 'a.'), clampLimit(options.limit))
    return rows.map((row) => hitOf(row as unknown as ArchiveRow & { score: number }))
  }

  /**
   * Search by meaning with `embedder` (the `search.embeddingModel` client): entries are embedded
   * lazily (the ones without a vector of this model, newest first), then ranked by cosine similarity.
   */
  searchByMeaning(query: string, embedder: Embedder, options: ArchiveSearchOptions = {}, signal?: AbortSignal): Promise<ArchiveHit[]> {
    const scope = scopeClause(options, 'a.')
    return searchArchiveByMeaning(this.db, query, embedder, {
      limit: clampLimit(options.limit),
      scope,
      hitOf: (row) => hitOf(row as unknown as ArchiveRow & { score: number }),
      signal
    })
  }

  /** Recall offered these entries to the model at `at`: the Memory screen shows when. */
  markRecalled(ids: readonly number[], at: number): void {
    if (ids.length === 0) return
    const update = this.db.prepare('UPDATE memory_archive SET last_recalled_at = ?, recall_count = recall_count + 1 WHERE id = ?')
    this.db.transaction(() => ids.forEach((id) => update.run(at, id)))()
  }

  /**
   * Archives one entry (trimmed). The same text already archived for that store and project is left
   * as it is (`exists`), except that a retired or overflowing copy of an old replace's text makes it
   * searchable again (its source moves off `superseded`).
   */
  add(input: ArchiveAddInput): ArchiveAddResult {
    const text = input.text.trim()
    if (!text) return { kind: 'refused', reason: messages.emptyContent }
    const blocked = threatMessage(scanForThreats(text, 'strict'))
    if (blocked) return { kind: 'refused', reason: blocked }
    const projectKey = input.projectKey ?? null
    const source: ArchiveSource = input.source ?? 'added'
    const at = input.at ?? this.now()
    return this.db.transaction((): ArchiveAddResult => {
      const existing = this.find(input.target, projectKey, text)
      if (existing) {
        if (existing.source === 'superseded' && source !== 'superseded') {
          this.db.prepare('UPDATE memory_archive SET source = ?, updated_at = ? WHERE id = ?').run(source, at, existing.id)
          return { kind: 'exists', entry: { ...existing, source, updatedAt: at } }
        }
        return { kind: 'exists', entry: existing }
      }
      const id = Number(
        this.db
          .prepare(
            `INSERT INTO memory_archive (target, project_key, text, words, source, provenance, added_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
          )
          .run(input.target, projectKey, text, archiveWordsOf(text), source, input.provenance ? JSON.stringify(input.provenance) : null, at, at).lastInsertRowid
      )
      const row = this.record('archive.add', { target: input.target, projectKey, text, source }, input.write ?? { source: 'user' })
      return { kind: 'added', entry: this.get(id)!, ledgerId: row.id }
    }).immediate()
  }

  /** Removes one entry for good (its ledger row keeps the text, so the remove can be reverted). Null when there is none. */
  remove(id: number, write: WriteContext = { source: 'user' }): { entry: ArchiveEntry; ledgerId: number } | null {
    return this.db.transaction(() => {
      const entry = this.get(id)
      if (!entry) return null
      this.db.prepare('DELETE FROM memory_archive WHERE id = ?').run(id)
      const row = this.record('archive.remove', entry, write, entry.hidden ? { hidden: true } : {})
      return { entry, ledgerId: row.id }
    }).immediate()
  }

  /** "Don't bring this up": the entry stays listed but leaves search and recall; false undoes it. False when there is no such entry. */
  /** Hides (or shows) the archived copy of a core entry's words, so a hide covers every copy of the fact. */
  setHiddenByText(target: MemoryTarget, projectKey: string | null, text: string, hidden: boolean): boolean {
    const sql = "UPDATE memory_archive SET hidden = ?, updated_at = ? WHERE target = ? AND coalesce(project_key, '') = ? AND text = ?"
    return this.db.prepare(sql).run(hidden ? 1 : 0, this.now(), target, projectKey ?? '', text.trim()).changes > 0
  }

  setHidden(id: number, hidden: boolean): boolean {
    return this.db.prepare('UPDATE memory_archive SET hidden = ?, updated_at = ? WHERE id = ?').run(hidden ? 1 : 0, this.now(), id).changes > 0
  }

  get(id: number): ArchiveEntry | null {
    const row = this.db.prepare('SELECT * FROM memory_archive WHERE id = ?').get(id) as ArchiveRow | undefined
    return row ? entryOf(row) : null
  }

  /** The entry holding exactly `text` for that store and project, or null. */
  find(target: MemoryTarget, projectKey: string | null, text: string): ArchiveEntry | null {
    const row = this.db
      .prepare("SELECT * FROM memory_archive WHERE target = ? AND coalesce(project_key, '') = ? AND text = ?")
      .get(target, projectKey ?? '', text.trim()) as ArchiveRow | undefined
    return row ? entryOf(row) : null
  }

  /** Newest first, hidden and superseded entries included (the Memory screen lists them all). */
  list(options: ArchiveListOptions = {}): ArchiveEntry[] {
    const { sql, params } = listFilter(options)
    const rows = this.db
      .prepare(`SELECT * FROM memory_archive WHERE 1 = 1 ${sql} ORDER BY added_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...params, Math.min(Math.max(options.limit ?? 50, 1), 500), Math.max(options.offset ?? 0, 0)) as ArchiveRow[]
    return rows.map(entryOf)
  }

  /** Every entry, in a stable order (store, project, text): what sync writes for the other devices. */
  all(): ArchiveEntry[] {
    const rows = this.db.prepare("SELECT * FROM memory_archive ORDER BY target, coalesce(project_key, ''), text").all() as ArchiveRow[]
    return rows.map(entryOf)
  }

  /**
   * Takes another device's record of an entry it holds too (why it is archived, when it was added,
   * whether it is hidden), so the devices' synced archives converge on the same bytes. No ledger row:
   * the entry's text does not change (a hide is not one either).
   */
  adopt(id: number, record: { source: ArchiveSource; addedAt: number; hidden: boolean }): void {
    this.db
      .prepare('UPDATE memory_archive SET source = ?, added_at = ?, hidden = ?, updated_at = ? WHERE id = ?')
      .run(record.source, record.addedAt, record.hidden ? 1 : 0, this.now(), id)
  }

  /** How many entries there are (with a filter: how many it keeps). */
  count(options: Omit<ArchiveListOptions, 'offset' | 'limit'> = {}): number {
    const { sql, params } = listFilter(options)
    return this.db.prepare(`SELECT count(*) FROM memory_archive WHERE 1 = 1 ${sql}`).pluck().get(...params) as number
  }

  /**
   * Undoes one archive ledger row: an add is removed again (refused when the entry is gone), a remove
   * puts the text back (refused when the same text is archived again meanwhile). The undo is a row of its own.
   */
  revertChange(entry: LedgerEntry): Promise<RevertResult> {
    if (entry.kind !== 'archive.add' && entry.kind !== 'archive.remove') {
      return Promise.resolve(refusal('revert.not_memory', { id: entry.id, kind: entry.kind, target: entry.target }))
    }
    const text = entry.kind === 'archive.add' ? entry.after : entry.before
    const file = entry.target
    if (text === null) return Promise.resolve(refusal('revert.memory_no_text', { id: entry.id, field: entry.kind === 'archive.add' ? 'after' : 'before', file }))
    const target = entry.meta.store as MemoryTarget
    const projectKey = entry.meta.projectKey ?? null
    const write: WriteContext = { source: 'revert' }
    const meta = { revertOf: entry.id }
    const result = this.db.transaction((): RevertResult => {
      const current = this.find(target, projectKey, text)
      if (entry.kind === 'archive.add') {
        if (!current) return refusal('revert.memory_entry_changed', { id: entry.id, file })
        this.db.prepare('DELETE FROM memory_archive WHERE id = ?').run(current.id)
        return { ok: true, revertEntry: this.record('archive.remove', current, write, meta) }
      }
      if (current) return refusal('revert.memory_holds_removed', { id: entry.id, file })
      const at = this.now()
      this.db
        .prepare('INSERT INTO memory_archive (target, project_key, text, words, source, added_at, updated_at, hidden) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(target, projectKey, text, archiveWordsOf(text), entry.meta.archiveSource, at, at, entry.meta.hidden === true ? 1 : 0)
      return { ok: true, revertEntry: this.record('archive.add', { target, projectKey, text, source: entry.meta.archiveSource }, write, meta) }
    }).immediate()
    return Promise.resolve(result)
  }

  private record(
    kind: 'archive.add' | 'archive.remove',
    entry: { target: MemoryTarget; projectKey: string | null; text: string; source: ArchiveSource },
    write: WriteContext,
    extra: Record<string, unknown> = {}
  ): LedgerEntry {
    const meta = { store: entry.target, archiveSource: entry.source, ...(entry.projectKey ? { projectKey: entry.projectKey } : {}), ...extra }
    return this.recorder.record(
      {
        kind,
        target: archiveLedgerTarget(entry.target),
        before: kind === 'archive.remove' ? entry.text : null,
        after: kind === 'archive.add' ? entry.text : null,
        meta
      },
      write
    )
  }
}

/** The SQL that keeps a search to a project (see ArchiveSearchOptions), hidden and superseded entries. */
export function scopeClause(options: ArchiveSearchOptions, alias: string): { sql: string; params: unknown[] } {
  const parts: string[] = []
  const params: unknown[] = []
  if (typeof options.projectKey === 'string') {
    parts.push(`(${alias}project_key = ? OR ${alias}project_key IS NULL)`)
    params.push(options.projectKey)
  } else if (options.projectKey === null) parts.push(`${alias}project_key IS NULL`)
  if (!options.includeHidden) parts.push(`${alias}hidden = 0`)
  if (!options.includeSuperseded) parts.push(`${alias}source != 'superseded'`)
  return { sql: parts.map((part) => `AND ${part}`).join(' '), params }
}

function listFilter(options: Omit<ArchiveListOptions, 'offset' | 'limit'>): { sql: string; params: unknown[] } {
  const scope = scopeClause({ projectKey: options.projectKey, includeHidden: true, includeSuperseded: true }, '')
  if (!options.target) return scope
  return { sql: `AND target = ? ${scope.sql}`, params: [options.target, ...scope.params] }
}

function clampLimit(limit: number | undefined): number {
  return Math.min(Math.max(Math.floor(limit ?? DEFAULT_LIMIT), 1), MAX_LIMIT)
}

function entryOf(row: ArchiveRow): ArchiveEntry {
  return {
    id: row.id,
    target: isMemoryTarget(row.target) ? row.target : ('memory' as MemoryTarget),
    projectKey: row.project_key,
    text: row.text,
    source: isArchiveSource(row.source) ? row.source : 'added',
    provenance: row.provenance ? (normalizeProvenance(safeJson(row.provenance)) ?? null) : null,
    addedAt: row.added_at,
    updatedAt: row.updated_at,
    lastRecalledAt: row.last_recalled_at,
    recallCount: row.recall_count,
    hidden: row.hidden === 1
  }
}

function hitOf(row: ArchiveRow & { score: number }): ArchiveHit {
  const entry = entryOf(row)
  return {
    id: entry.id,
    target: entry.target,
    projectKey: entry.projectKey,
    text: entry.text,
    source: entry.source,
    addedAt: entry.addedAt,
    lastRecalledAt: entry.lastRecalledAt,
    hidden: entry.hidden,
    score: row.score
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

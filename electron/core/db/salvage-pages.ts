import { PageReader } from './page-reader'
import { recordsOnPages, type PageRecord } from './page-records'
import type { StateDb } from './state-db'

/** What was saved of one table. */
export interface TableSalvage {
  table: string
  /** Rows copied into the fresh database (through SQLite and from the raw pages together). */
  saved: number
  /** Of those, rows found only on the raw pages (SQLite could no longer reach them). */
  fromPages: number
  /** Rows read but refused by the fresh schema (a broken value, a constraint). */
  refused: number
  /** Stretches of the table SQLite could not read (each one skipped). */
  unreadable: number
}

interface Column {
  name: string
  affinity: 'INTEGER' | 'TEXT' | 'OTHER'
  /** Must hold a value (NOT NULL or a non-integer primary key). */
  required: boolean
  /** Has a DEFAULT, so a row written before the column existed still fits. */
  defaulted: boolean
  /** `INTEGER PRIMARY KEY`: stored as NULL in the record, its value is the rowid. */
  rowidAlias: boolean
}

interface Shape {
  table: string
  columns: Column[]
  /** The insert of the first n columns, by n (rows written before a column was added are shorter). */
  inserts: Map<number, { run(...values: unknown[]): { changes: number } }>
  db: StateDb
}

/**
 * Rows written before `ALTER TABLE … ADD COLUMN` lack the new columns; a row may be this many
 * columns short (and never shorter than 5), so small records of other tables never pass for a row.
 */
const MAX_MISSING_COLUMNS = 4

/**
 * Adds to `fresh` the rows of `tables` found on the raw pages of the damaged file that are not in it
 * yet. A page does not say which table it belongs to when the schema is gone, so a row is matched to
 * the table whose columns it fits exactly (count and types; Cairn's tables all differ in shape).
 * Returns false when the file could not be read at all.
 */
export function salvagePages(damagedPath: string, fresh: StateDb, tables: Map<string, TableSalvage>): boolean {
  let reader: PageReader
  try {
    reader = PageReader.open(damagedPath)
  } catch {
    return false
  }
  try {
    const shapes = [...tables.keys()].map((table) => shapeOf(fresh, table))
    const pending: Array<[Shape, PageRecord]> = []
    const flush = fresh.transaction(() => {
      for (const [shape, record] of pending.splice(0)) {
        const counts = tables.get(shape.table)!
        try {
          const values = record.values.map((value, i) => (shape.columns[i].rowidAlias ? record.rowid : value))
          if (insertFor(shape, values.length).run(...values).changes > 0) {
            counts.saved++
            counts.fromPages++
          }
        } catch {
          counts.refused++
        }
      }
    })
    for (const record of recordsOnPages(reader)) {
      const shape = shapes.find((candidate) => fits(candidate, record))
      if (!shape) continue
      pending.push([shape, record])
      if (pending.length >= 500) flush()
    }
    flush()
    return true
  } finally {
    reader.close()
  }
}

function shapeOf(db: StateDb, table: string): Shape {
  const info = db.pragma(`table_info(${table})`) as Array<{ name: string; type: string; notnull: number; pk: number; dflt_value: unknown }>
  const keyColumns = info.filter((c) => c.pk > 0).length
  const columns = info.map((c): Column => {
    const type = c.type.toUpperCase()
    const rowidAlias = c.pk === 1 && keyColumns === 1 && type === 'INTEGER'
    return {
      name: c.name,
      affinity: type.includes('INT') ? 'INTEGER' : type.includes('TEXT') || type.includes('CHAR') ? 'TEXT' : 'OTHER',
      required: !rowidAlias && (c.notnull === 1 || c.pk > 0),
      defaulted: c.dflt_value !== null,
      rowidAlias
    }
  })
  return { table, columns, inserts: new Map(), db }
}

function insertFor(shape: Shape, count: number): { run(...values: unknown[]): { changes: number } } {
  let insert = shape.inserts.get(count)
  if (!insert) {
    const columns = shape.columns.slice(0, count)
    const list = columns.map((c) => `"${c.name}"`).join(', ')
    insert = shape.db.prepare(`INSERT OR IGNORE INTO ${shape.table} (${list}) VALUES (${columns.map(() => '?').join(', ')})`)
    shape.inserts.set(count, insert)
  }
  return insert
}

function fits(shape: Shape, record: PageRecord): boolean {
  const count = record.values.length
  if (count > shape.columns.length || count < Math.max(5, shape.columns.length - MAX_MISSING_COLUMNS)) return false
  // A missing column takes its default, so it must have one or allow NULL.
  if (shape.columns.slice(count).some((column) => column.required && !column.defaulted)) return false
  return shape.columns.slice(0, count).every((column, i) => {
    const value = record.values[i]
    if (column.rowidAlias) return value === null
    if (value === null) return !column.required
    if (column.affinity === 'INTEGER') return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value))
    if (column.affinity === 'TEXT') return typeof value === 'string'
    return true
  })
}

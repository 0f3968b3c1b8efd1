import type { PageReader } from './page-reader'

/** One row found on a table leaf page: its rowid and its column values, as SQLite stored them. */
export interface PageRecord {
  rowid: number
  values: Array<number | bigint | string | Buffer | null>
}

const TABLE_LEAF = 0x0d

/**
 * Every row stored on the table leaf pages of the file, read straight from the pages (the way
 * SQLite's `.recover` does): whatever b-tree the page belonged to, even when the pages above it or the
 * schema are destroyed. Pages on the free list are skipped (deleted data stays deleted), and a cell
 * or record that does not decode exactly is dropped.
 */
export function* recordsOnPages(reader: PageReader): Generator<PageRecord> {
  const free = reader.freePages()
  for (let pgno = 1; pgno <= reader.pageCount; pgno++) {
    if (free.has(pgno)) continue
    const page = reader.page(pgno)
    if (!page) continue
    const start = pgno === 1 ? 100 : 0
    if (page[start] !== TABLE_LEAF) continue
    const cells = page.readUInt16BE(start + 3)
    if (start + 8 + cells * 2 > reader.usable) continue
    for (let i = 0; i < cells; i++) {
      const at = page.readUInt16BE(start + 8 + i * 2)
      if (at < start + 8 + cells * 2 || at >= reader.usable) continue
      const record = readCell(reader, page, at)
      if (record) yield record
    }
  }
}

function readCell(reader: PageReader, page: Buffer, at: number): PageRecord | null {
  const size = varint(page, at, reader.usable)
  if (!size) return null
  const rowid = varint(page, size.next, reader.usable)
  if (!rowid || size.value > 1_000_000_000) return null
  const payload = payloadOf(reader, page, rowid.next, size.value)
  if (!payload) return null
  const values = decodeRecord(payload, reader.encoding)
  return values ? { rowid: rowid.value, values } : null
}

/** The cell's payload: the part on the page plus its overflow chain (SQLite's local/overflow split). */
function payloadOf(reader: PageReader, page: Buffer, at: number, size: number): Buffer | null {
  const u = reader.usable
  const maxLocal = u - 35
  const minLocal = Math.floor(((u - 12) * 32) / 255) - 23
  let local = size
  if (size > maxLocal) {
    const k = minLocal + ((size - minLocal) % (u - 4))
    local = k <= maxLocal ? k : minLocal
  }
  if (at + local > u) return null
  if (local === size) return page.subarray(at, at + size)
  if (at + local + 4 > u) return null
  const parts = [page.subarray(at, at + local)]
  let remaining = size - local
  let next = page.readUInt32BE(at + local)
  const seen = new Set<number>()
  while (remaining > 0) {
    if (seen.has(next)) return null
    seen.add(next)
    const overflow = reader.page(next)
    if (!overflow) return null
    const take = Math.min(remaining, u - 4)
    parts.push(overflow.subarray(4, 4 + take))
    remaining -= take
    next = overflow.readUInt32BE(0)
  }
  return Buffer.concat(parts)
}

const utf8 = new TextDecoder('utf-8', { fatal: true })
const utf16le = new TextDecoder('utf-16le', { fatal: true })
const utf16be = new TextDecoder('utf-16be', { fatal: true })

/** A record (header of serial types, then the values), or null unless it decodes to exactly its length. */
export function decodeRecord(payload: Buffer, encoding = 1): PageRecord['values'] | null {
  const headerSize = varint(payload, 0, payload.length)
  if (!headerSize || headerSize.value > payload.length || headerSize.value < 1) return null
  const types: number[] = []
  let pos = headerSize.next
  while (pos < headerSize.value) {
    const type = varint(payload, pos, headerSize.value)
    if (!type || type.value === 10 || type.value === 11) return null
    types.push(type.value)
    pos = type.next
  }
  if (pos !== headerSize.value) return null
  const values: PageRecord['values'] = []
  let body = headerSize.value
  try {
    for (const type of types) {
      const length = serialLength(type)
      if (body + length > payload.length) return null
      values.push(readValue(payload, body, type, length, encoding))
      body += length
    }
  } catch {
    return null
  }
  return body === payload.length ? values : null
}

function serialLength(type: number): number {
  if (type <= 4) return type
  if (type === 5) return 6
  if (type === 6 || type === 7) return 8
  if (type <= 9) return 0
  return Math.floor((type - (type % 2 === 0 ? 12 : 13)) / 2)
}

function readValue(buffer: Buffer, at: number, type: number, length: number, encoding: number): PageRecord['values'][number] {
  switch (type) {
    case 0:
      return null
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
      return buffer.readIntBE(at, length)
    case 6: {
      const big = buffer.readBigInt64BE(at)
      return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big
    }
    case 7:
      return buffer.readDoubleBE(at)
    case 8:
      return 0
    case 9:
      return 1
  }
  const bytes = buffer.subarray(at, at + length)
  if (type % 2 === 0) return Buffer.from(bytes)
  const decoder = encoding === 2 ? utf16le : encoding === 3 ? utf16be : utf8
  return decoder.decode(bytes)
}

/** SQLite's big-endian varint (1 to 9 bytes), or null when it runs past `end` or past safe integers. */
function varint(buffer: Buffer, at: number, end: number): { value: number; next: number } | null {
  let value = 0
  for (let i = 0; i < 9; i++) {
    if (at + i >= end) return null
    const byte = buffer[at + i]
    if (i === 8) {
      value = value * 256 + byte
      return Number.isSafeInteger(value) ? { value, next: at + 9 } : null
    }
    value = value * 128 + (byte & 0x7f)
    if ((byte & 0x80) === 0) return Number.isSafeInteger(value) ? { value, next: at + i + 1 } : null
  }
  return null
}

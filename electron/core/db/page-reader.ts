import { closeSync, fstatSync, openSync, readSync } from 'node:fs'

/**
 * Reads the raw pages of a SQLite file without SQLite, for salvage when SQLite itself refuses (a
 * destroyed schema page, a cut-off file). A write-ahead log next to the file is overlaid: for each
 * page, the copy in the log's last committed transaction wins, as SQLite would read it.
 */
export class PageReader {
  readonly pageSize: number
  /** Usable bytes per page (the page size less the reserved tail). */
  readonly usable: number
  readonly pageCount: number
  /** Text encoding of the file: 1 UTF-8, 2 UTF-16le, 3 UTF-16be. */
  readonly encoding: number
  private readonly fd: number
  private readonly fileSize: number
  private readonly wal: { fd: number; frames: Map<number, number> } | null

  private constructor(path: string) {
    this.fd = openSync(path, 'r')
    this.fileSize = fstatSync(this.fd).size
    const header = this.readAt(this.fd, 0, 100)
    const magicOk = header.length === 100 && header.toString('latin1', 0, 16) === 'SQLite format 3\0'
    const raw = magicOk ? header.readUInt16BE(16) : 0
    const size = raw === 1 ? 65536 : raw
    // A destroyed header leaves the page size unknown: 4096 is SQLite's default and Cairn's.
    this.pageSize = size >= 512 && size <= 65536 && (size & (size - 1)) === 0 ? size : 4096
    const reserved = magicOk ? header[20] : 0
    this.usable = this.pageSize - (reserved < this.pageSize - 480 ? reserved : 0)
    this.encoding = magicOk && [1, 2, 3].includes(header.readUInt32BE(56)) ? header.readUInt32BE(56) : 1
    this.wal = this.openWal(`${path}-wal`)
    const walPages = this.wal ? Math.max(0, ...this.wal.frames.keys()) : 0
    this.pageCount = Math.max(Math.ceil(this.fileSize / this.pageSize), walPages)
  }

  static open(path: string): PageReader {
    return new PageReader(path)
  }

  /** Page `pgno` (1-based), or null when it lies past the end of the file and the log. */
  page(pgno: number): Buffer | null {
    if (!Number.isInteger(pgno) || pgno < 1 || pgno > this.pageCount) return null
    const inWal = this.wal?.frames.get(pgno)
    if (inWal !== undefined && this.wal) return this.readAt(this.wal.fd, inWal, this.pageSize)
    const offset = (pgno - 1) * this.pageSize
    if (offset >= this.fileSize) return null
    const buffer = this.readAt(this.fd, offset, this.pageSize)
    return buffer.length === this.pageSize ? buffer : Buffer.concat([buffer, Buffer.alloc(this.pageSize - buffer.length)])
  }

  /**
   * Pages on the free list (their content is deleted data and must not come back), read from the
   * header's free-list chain as far as it is intact.
   */
  freePages(): Set<number> {
    const free = new Set<number>()
    const first = this.page(1)
    if (!first) return free
    let trunk = first.readUInt32BE(32)
    while (trunk > 0 && !free.has(trunk) && free.size <= this.pageCount) {
      const page = this.page(trunk)
      if (!page) break
      free.add(trunk)
      const count = page.readUInt32BE(4)
      if (count > (this.usable - 8) / 4) break
      for (let i = 0; i < count; i++) {
        const leaf = page.readUInt32BE(8 + 4 * i)
        if (leaf >= 1 && leaf <= this.pageCount) free.add(leaf)
      }
      trunk = page.readUInt32BE(0)
    }
    return free
  }

  close(): void {
    closeSync(this.fd)
    if (this.wal) closeSync(this.wal.fd)
  }

  private readAt(fd: number, offset: number, length: number): Buffer {
    const buffer = Buffer.alloc(length)
    const read = readSync(fd, buffer, 0, length, offset)
    return buffer.subarray(0, read)
  }

  /** Frames of the log's committed transactions (salts matching the log header), last copy of each page. */
  private openWal(path: string): { fd: number; frames: Map<number, number> } | null {
    let fd: number
    try {
      fd = openSync(path, 'r')
    } catch {
      return null
    }
    const header = this.readAt(fd, 0, 32)
    const magic = header.length === 32 ? header.readUInt32BE(0) : 0
    if ((magic !== 0x377f0682 && magic !== 0x377f0683) || header.readUInt32BE(8) !== this.pageSize) {
      closeSync(fd)
      return null
    }
    const salt1 = header.readUInt32BE(16)
    const salt2 = header.readUInt32BE(20)
    const size = fstatSync(fd).size
    const committed = new Map<number, number>()
    let pending = new Map<number, number>()
    for (let offset = 32; offset + 24 + this.pageSize <= size; offset += 24 + this.pageSize) {
      const frame = this.readAt(fd, offset, 24)
      if (frame.readUInt32BE(8) !== salt1 || frame.readUInt32BE(12) !== salt2) break
      pending.set(frame.readUInt32BE(0), offset + 24)
      if (frame.readUInt32BE(4) > 0) {
        for (const [pgno, at] of pending) committed.set(pgno, at)
        pending = new Map()
      }
    }
    return { fd, frames: committed }
  }
}

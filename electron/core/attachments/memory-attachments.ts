import type { StateDb } from '../db/state-db'
import type { AttachmentContent, AttachmentMeta, AttachmentReader, PreparedAttachment, SavedAttachment } from './types'

/**
 * The files attached to an incognito conversation's messages, kept only in this process: the bytes in
 * a map, their text in the conversation's own in-memory database. Nothing is copied into the data home,
 * and everything goes when the conversation is discarded.
 */
export class MemoryAttachments implements AttachmentReader {
  private readonly files = new Map<string, { mime: string; bytes: Uint8Array }>()

  constructor(private readonly db: StateDb) {}

  save(sessionId: string, prepared: PreparedAttachment[]): SavedAttachment[] {
    return prepared.map((file) => {
      // Not a path on disk: a key into the map, shaped like the stored kind so the message's meta reads the same.
      const path = `memory/${sessionId}/${file.sha256}`
      this.files.set(path, { mime: file.mime, bytes: file.bytes })
      const meta: AttachmentMeta = { name: file.name, kind: file.kind, mime: file.mime, size: file.bytes.byteLength, path }
      if (file.text !== null) {
        meta.textChars = file.text.length
        if (file.fullChars > file.text.length) meta.fullChars = file.fullChars
      }
      return { meta, text: file.text }
    })
  }

  index(messageId: number, saved: SavedAttachment[]): void {
    const insert = this.db.prepare('INSERT INTO message_attachments (message_id, position, name, text) VALUES (?, ?, ?, ?)')
    this.db.transaction(() => saved.forEach((file, position) => insert.run(messageId, position, file.meta.name, file.text ?? '')))()
  }

  contentsOf(messageId: number, metas: AttachmentMeta[]): AttachmentContent[] {
    const rows = this.db.prepare('SELECT position, text FROM message_attachments WHERE message_id = ?').all(messageId) as Array<{ position: number; text: string }>
    const texts = new Map(rows.map((row) => [row.position, row.text]))
    return metas.map((meta, position): AttachmentContent => {
      if (meta.kind === 'image') {
        const file = this.files.get(meta.path)
        return file ? { meta, kind: 'image', dataUrl: `data:${file.mime};base64,${Buffer.from(file.bytes).toString('base64')}` } : { meta, kind: 'missing' }
      }
      const text = texts.get(position)
      return text === undefined ? { meta, kind: 'missing' } : { meta, kind: 'text', text }
    })
  }

  /** Forgets every file (the conversation is discarded). */
  clear(): void {
    this.files.clear()
  }
}

import type { StateDb } from '../db/state-db'
import { attachmentContents, indexAttachmentTexts } from './attachment-texts'
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
    indexAttachmentTexts(this.db, messageId, saved)
  }

  contentsOf(messageId: number, metas: AttachmentMeta[]): AttachmentContent[] {
    return attachmentContents(this.db, messageId, metas, (meta) => {
      const file = this.files.get(meta.path)
      return file ? `data:${file.mime};base64,${Buffer.from(file.bytes).toString('base64')}` : null
    })
  }

  /** Forgets every file (the conversation is discarded). */
  clear(): void {
    this.files.clear()
  }
}

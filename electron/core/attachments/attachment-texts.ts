import type { StateDb } from '../db/state-db'
import type { AttachmentContent, AttachmentMeta, SavedAttachment } from './types'

/** Records the attachments' names and text with the stored user message, for search and for the model. */
export function indexAttachmentTexts(db: StateDb, messageId: number, saved: SavedAttachment[]): void {
  const insert = db.prepare('INSERT INTO message_attachments (message_id, position, name, text) VALUES (?, ?, ?, ?)')
  db.transaction(() => saved.forEach((file, position) => insert.run(messageId, position, file.meta.name, file.text ?? '')))()
}

/**
 * A message's attachments as the model gets them: documents by the text indexed with the message, images
 * by `imageDataUrl` (from the data home, or an incognito chat's memory); `missing` when either is gone.
 */
export function attachmentContents(db: StateDb, messageId: number, metas: AttachmentMeta[], imageDataUrl: (meta: AttachmentMeta) => string | null): AttachmentContent[] {
  const rows = db.prepare('SELECT position, text FROM message_attachments WHERE message_id = ?').all(messageId) as Array<{ position: number; text: string }>
  const texts = new Map(rows.map((row) => [row.position, row.text]))
  return metas.map((meta, position): AttachmentContent => {
    if (meta.kind !== 'image') {
      const text = texts.get(position)
      return text === undefined ? { meta, kind: 'missing' } : { meta, kind: 'text', text }
    }
    const dataUrl = imageDataUrl(meta)
    return dataUrl ? { meta, kind: 'image', dataUrl } : { meta, kind: 'missing' }
  })
}

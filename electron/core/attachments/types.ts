import type { AttachmentKind, AttachmentProblem } from '../../../shared/attachments'
import type { AttachmentView } from '../../../shared/ipc/domain'
import { attachmentProblemText } from '../../../shared/attachments'
import type { RecallMeta } from '../../../shared/recall'

/** A file as a face hands it over: the CLI reads it from disk, the app decodes it from the contract's base64. */
export interface AttachmentInput {
  name: string
  /** The type the picker or the browser reported; empty when unknown (the name decides). */
  mime?: string
  bytes: Uint8Array
}

/** An attachment as a user message's `meta.attachments` lists it. */
export interface AttachmentMeta {
  name: string
  kind: AttachmentKind
  mime: string
  /** Bytes of the file as attached. */
  size: number
  /** Where the file is kept, relative to the data home (`attachments/<session>/<sha256>.<ext>`). */
  path: string
  /** Characters of text the model gets from a PDF or text file. */
  textChars?: number
  /** Characters the file held before the cut at MAX_ATTACHMENT_TEXT_CHARS (only when cut). */
  fullChars?: number
}

/** Checked and read (a PDF's text extracted), not stored yet. */
export interface PreparedAttachment {
  name: string
  kind: AttachmentKind
  mime: string
  bytes: Uint8Array
  sha256: string
  /** The text the model gets (PDFs and text files), already cut to the limit. */
  text: string | null
  fullChars: number
}

/** Stored under the data home: what goes in the message's meta, and the text to index with it. */
export interface SavedAttachment {
  meta: AttachmentMeta
  text: string | null
}

/** A file that cannot be attached; nothing of the message was stored or sent. */
export class AttachmentError extends Error {
  constructor(readonly problem: AttachmentProblem) {
    super(attachmentProblemText(problem))
    this.name = 'AttachmentError'
  }
}

/** Reads the stored attachments of a user message back, the same bytes every call. */
export interface AttachmentReader {
  contentsOf(messageId: number, metas: AttachmentMeta[]): AttachmentContent[]
}

/** What the model is given for one attachment. */
export type AttachmentContent =
  | { meta: AttachmentMeta; kind: 'text'; text: string }
  | { meta: AttachmentMeta; kind: 'image'; dataUrl: string }
  /** The stored copy is gone (the data home was edited by hand): the model is told, not left guessing. */
  | { meta: AttachmentMeta; kind: 'missing' }

/** The attachments a stored message's meta lists (malformed entries are skipped). */
export function attachmentMetas(meta: Record<string, unknown> | null | undefined): AttachmentMeta[] {
  const list = meta?.attachments
  if (!Array.isArray(list)) return []
  return list.filter(
    (item): item is AttachmentMeta =>
      typeof item === 'object' && item !== null && typeof item.name === 'string' && typeof item.kind === 'string' && typeof item.path === 'string'
  )
}

/** A user message's meta: the skill hint Cairn added, the memory recalled for it and the files attached, each only when there is one. */
export function userMessageMeta(hint: string, attachments: SavedAttachment[], recall?: RecallMeta | null): Record<string, unknown> | undefined {
  const meta: Record<string, unknown> = {}
  if (hint) meta.hint = hint
  if (recall) meta.recall = recall
  if (attachments.length) meta.attachments = attachments.map((file) => file.meta)
  return Object.keys(meta).length ? meta : undefined
}

/** The files of a sent message, ready to go with it again (its words edited): as stored, text included. */
export function attachmentsToResend(store: AttachmentReader | undefined, messageId: number, meta: Record<string, unknown> | null): SavedAttachment[] {
  const metas = attachmentMetas(meta)
  if (!metas.length || !store) return []
  return store.contentsOf(messageId, metas).map((content) => ({ meta: content.meta, text: content.kind === 'text' ? content.text : null }))
}

/** A user message's attachments as their chips show them (no stored path: the renderer never reads the data home). */
export function attachmentViews(meta: Record<string, unknown> | null | undefined): AttachmentView[] {
  return attachmentMetas(meta).map((m) => ({ name: m.name, kind: m.kind, mime: m.mime, size: m.size, textChars: m.textChars ?? null, truncated: m.fullChars !== undefined }))
}

import { closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { MAX_IMAGE_BYTES } from '../../../shared/attachments'
import type { StateDb } from '../db/state-db'
import { attachmentContents, indexAttachmentTexts } from './attachment-texts'
import type { AttachmentContent, AttachmentMeta, AttachmentReader, PreparedAttachment, SavedAttachment } from './types'

/** Base64 of images kept in memory so a turn's every model call does not read and encode them again. */
const IMAGE_CACHE_CHARS = 64 * 1024 * 1024

const IMAGE_EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' }

/**
 * The files attached to messages: kept under `<home>/attachments/<session>/<sha256>.<ext>` (the same
 * file attached twice is stored once), their text in state.db's `message_attachments` (searchable,
 * and what the model reads on every call of the conversation, byte for byte).
 */
export class AttachmentStore implements AttachmentReader {
  private readonly images = new Map<string, string>()
  private cachedChars = 0

  constructor(
    /** The data home. */
    private readonly root: string,
    private readonly db: StateDb
  ) {}

  /** Writes the files of a message about to be sent in `sessionId`. */
  save(sessionId: string, prepared: PreparedAttachment[]): SavedAttachment[] {
    if (!/^[\w-]+$/.test(sessionId)) throw new Error(`Not a session id: ${sessionId}`)
    if (!prepared.length) return []
    const folder = join(this.root, 'attachments', sessionId)
    mkdirSync(folder, { recursive: true })
    return prepared.map((file) => {
      const stored = `${file.sha256}.${extensionFor(file)}`
      const target = join(folder, stored)
      if (!existsSync(target)) {
        // Written aside and renamed, so a crash never leaves half a file under the final name.
        const temp = `${target}.${process.pid}.tmp`
        writeFileSync(temp, file.bytes)
        renameSync(temp, target)
      }
      const meta: AttachmentMeta = { name: file.name, kind: file.kind, mime: file.mime, size: file.bytes.byteLength, path: `attachments/${sessionId}/${stored}` }
      if (file.text !== null) {
        meta.textChars = file.text.length
        if (file.fullChars > file.text.length) meta.fullChars = file.fullChars
      }
      return { meta, text: file.text }
    })
  }

  /** Deletes the stored files of a conversation that is gone (their text goes with its messages). */
  removeSession(sessionId: string): void {
    if (!/^[\w-]+$/.test(sessionId)) return
    rmSync(join(this.root, 'attachments', sessionId), { recursive: true, force: true })
  }

  /** Records the attachments' names and text with the stored user message, for search and for the model. */
  index(messageId: number, saved: SavedAttachment[]): void {
    indexAttachmentTexts(this.db, messageId, saved)
  }

  contentsOf(messageId: number, metas: AttachmentMeta[]): AttachmentContent[] {
    return attachmentContents(this.db, messageId, metas, (meta) => this.imageDataUrl(meta))
  }

  private imageDataUrl(meta: AttachmentMeta): string | null {
    const cached = this.images.get(meta.path)
    if (cached) return cached
    const bytes = readStoredImage(join(this.root, meta.path))
    if (!bytes) return null
    const url = `data:${meta.mime};base64,${bytes.toString('base64')}`
    this.remember(meta.path, url)
    return url
  }

  private remember(path: string, url: string): void {
    if (url.length > IMAGE_CACHE_CHARS) return
    for (const [key, value] of this.images) {
      if (this.cachedChars + url.length <= IMAGE_CACHE_CHARS) break
      this.images.delete(key)
      this.cachedChars -= value.length
    }
    this.images.set(path, url)
    this.cachedChars += url.length
  }
}

/**
 * A stored image's bytes, or null when the file is gone, is not a plain file (a symbolic link, say one
 * a restored backup brought, is never followed) or is larger than an image may be: its real size is
 * checked before anything is read, whatever its record says.
 */
function readStoredImage(path: string): Buffer | null {
  let fd: number
  try {
    const found = lstatSync(path)
    if (!found.isFile() || found.size > MAX_IMAGE_BYTES) return null
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0))
  } catch {
    return null
  }
  try {
    // The file opened is the one checked: not swapped for a link or a larger file in between.
    const opened = fstatSync(fd)
    return opened.isFile() && opened.size <= MAX_IMAGE_BYTES ? readFileSync(fd) : null
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}

/** The stored copy's extension: the image type's, else the file's own when it is a plain one. */
function extensionFor(file: PreparedAttachment): string {
  if (file.kind === 'image') return IMAGE_EXTENSIONS[file.mime] ?? 'img'
  if (file.kind === 'pdf') return 'pdf'
  const dot = file.name.lastIndexOf('.')
  const ext = dot < 0 ? '' : file.name.slice(dot + 1).toLowerCase()
  return /^[a-z0-9]{1,10}$/.test(ext) ? ext : 'txt'
}

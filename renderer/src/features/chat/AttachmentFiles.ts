import { attachmentKindOf, checkAttachmentList, type AttachmentKind, type AttachmentProblem } from '../../../../shared/attachments'
import type { AttachmentView, OutgoingAttachment } from '../../../../shared/ipc/domain'

/** A file on the composer, read and waiting to be sent. */
export interface ComposerFile {
  key: string
  name: string
  mime: string
  size: number
  kind: AttachmentKind
  /** The bytes as base64, as the contract carries them. */
  data: string
}

let keys = 0

/**
 * Adds picked, pasted or dropped files to those already on the composer: all of them checked first
 * (kind, size, count, total), so a refused file adds nothing and the message says which and why.
 */
export async function addFiles(current: ComposerFile[], picked: File[]): Promise<{ files: ComposerFile[] } | { problem: AttachmentProblem | { code: 'unreadable_file'; name: string } }> {
  const problem = checkAttachmentList([...current, ...picked.map((file) => ({ name: file.name, mime: file.type, size: file.size }))])
  if (problem) return { problem }
  const added: ComposerFile[] = []
  for (const file of picked) {
    const known = attachmentKindOf(file.name, file.type)!
    try {
      added.push({ key: `f${++keys}`, name: file.name, mime: known.mime, size: file.size, kind: known.kind, data: await base64Of(file) })
    } catch {
      return { problem: { code: 'unreadable_file', name: file.name } }
    }
  }
  return { files: [...current, ...added] }
}

function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => {
      const url = String(reader.result)
      resolve(url.slice(url.indexOf(',') + 1))
    }
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'))
    reader.readAsDataURL(file)
  })
}

export function toOutgoing(files: ComposerFile[]): OutgoingAttachment[] {
  return files.map(({ name, mime, data }) => ({ name, mime, data }))
}

/** How a file waiting on the composer shows on the sent message until main has stored it. */
export function toView(files: ComposerFile[]): AttachmentView[] {
  return files.map(({ name, kind, mime, size }) => ({ name, kind, mime, size, textChars: null, truncated: false }))
}

/** The files a drag or a paste carries (text being pasted or dragged carries none). */
export function filesOf(data: DataTransfer | null): File[] {
  return data ? Array.from(data.files) : []
}

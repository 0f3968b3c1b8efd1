import { IpcError } from '../../../shared/ipc/define'
import type { OutgoingAttachment } from '../../../shared/ipc/domain'
import { readAttachments } from './read-attachments'
import { AttachmentError, type AttachmentInput, type PreparedAttachment } from './types'

/** A file as the contract carries it (base64) as the core reads it. */
export function fromOutgoing(file: OutgoingAttachment): AttachmentInput {
  return { name: file.name, mime: file.mime, bytes: Buffer.from(file.data, 'base64') }
}

/** readAttachments for a request from a window: a refused file becomes an `ATTACHMENT` error carrying its problem. */
export async function readAttachmentsForIpc(inputs: AttachmentInput[]): Promise<PreparedAttachment[]> {
  try {
    return await readAttachments(inputs)
  } catch (error) {
    if (error instanceof AttachmentError) throw new IpcError('ATTACHMENT', error.message, { ...error.problem })
    throw error
  }
}

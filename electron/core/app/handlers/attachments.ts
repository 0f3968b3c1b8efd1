import { MAX_IMAGE_BYTES } from '../../../../shared/attachments'
import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { shownImageMimes } from '../../../../shared/ipc/contract-attachments'
import { IpcError } from '../../../../shared/ipc/define'
import { attachmentMetas } from '../../attachments'
import type { ConversationSlice } from './route-slices'

/** Where the data home keeps a sent file (attachment-store.ts): nothing else is ever read for a window. */
const STORED_PATH = /^attachments\/[\w-]+\/[0-9a-f]{64}\.[a-z0-9]{1,10}$/

/** Sent images shown again: thumbnails in the conversation and the image viewer (issue 29, part E). */
export function attachmentHandlers(app: ConversationSlice): Pick<IpcHandlers, 'attachments.image'> {
  return {
    'attachments.image': async ({ sessionId, messageId, index }) => {
      const incognito = app.chats.incognitoChat(sessionId)
      const message = (incognito?.sessions ?? app.core.sessions).message(messageId)
      if (!message || message.sessionId !== sessionId || message.role !== 'user') {
        throw IpcError.of('NOT_FOUND', 'conversation.message_not_shown', { message: String(messageId), id: sessionId })
      }
      const meta = attachmentMetas(message.meta)[index]
      const unavailable = () => IpcError.of('NOT_FOUND', 'attachments.image_unavailable', { name: meta?.name ?? String(index) })
      const mime = shownImageMimes.find((known) => known === meta?.mime)
      if (!meta || meta.kind !== 'image' || !mime || meta.size > MAX_IMAGE_BYTES) throw unavailable()
      if (!incognito && !STORED_PATH.test(meta.path)) throw unavailable()
      const [content] = (incognito?.attachments ?? app.core.attachments).contentsOf(messageId, [meta])
      if (content?.kind !== 'image') throw unavailable()
      return { mime, data: content.dataUrl.slice(content.dataUrl.indexOf(',') + 1) }
    }
  }
}

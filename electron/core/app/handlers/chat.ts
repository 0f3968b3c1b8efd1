import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import { VersionError } from '../../sessions'
import type { ConversationSlice } from './route-slices'
import { fromOutgoing } from '../../attachments'

/** A refused edit or version switch, with a code the renderer words (`VERSION_CONDENSED`, `NOT_FOUND`). */
function asIpcError(error: unknown): unknown {
  if (!(error instanceof VersionError)) return error
  return new IpcError(error.code === 'condensed' ? 'VERSION_CONDENSED' : 'NOT_FOUND', error.message, Object.keys(error.params).length ? error.params : undefined, error.key)
}

export function chatHandlers(
  app: ConversationSlice
): Pick<IpcHandlers, 'chat.send' | 'chat.cancel' | 'chat.regenerate' | 'chat.edit' | 'chat.showVersion' | 'chat.approve' | 'chat.attach' | 'chat.discard'> {
  return {
    // The quick prompt's conversations are marked as such by who sent the request, not by what it says.
    // Choosing a folder belongs to the main window: the quick prompt starts in the default one.
    'chat.send': async ({ sessionId, text, workspace, model, attachments, incognito }, { sender }) => {
      if (sender === 'quick' && workspace !== undefined) throw IpcError.of('FORBIDDEN_ROUTE', 'chat.quick_no_folder', {})
      return app.chats.send(sessionId, text, sender === 'quick' ? 'quick' : 'main', workspace, model, (attachments ?? []).map(fromOutgoing), incognito ?? false)
    },
    'chat.cancel': async ({ sessionId }) => ({ cancelled: app.chats.cancel(sessionId) }),
    'chat.regenerate': async ({ sessionId }) => app.chats.regenerate(sessionId),
    'chat.edit': async ({ sessionId, messageId, text }) => {
      try {
        return app.chats.edit(sessionId, messageId, text)
      } catch (error) {
        throw asIpcError(error)
      }
    },
    'chat.showVersion': async ({ sessionId, branchId }) => {
      try {
        app.chats.showVersion(sessionId, branchId)
        return { ok: true as const }
      } catch (error) {
        throw asIpcError(error)
      }
    },
    'chat.approve': async ({ sessionId, requestId, allow, remember, prefix }) => ({
      accepted: await app.chats.approve(sessionId, requestId, { allow, remember, prefix })
    }),
    'chat.attach': async ({ sessionId }) => app.chats.attach(sessionId),
    'chat.discard': async ({ sessionId }) => ({ discarded: await app.chats.discard(sessionId) })
  }
}

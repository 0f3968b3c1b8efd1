import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import type { AppContext } from '../app-context'

export function chatHandlers(app: AppContext): Pick<IpcHandlers, 'chat.send' | 'chat.cancel' | 'chat.regenerate' | 'chat.approve' | 'chat.attach'> {
  return {
    // The quick prompt's conversations are marked as such by who sent the request, not by what it says.
    // Choosing a folder belongs to the main window: the quick prompt starts in the default one.
    'chat.send': async ({ sessionId, text, workspace }, { sender }) => {
      if (sender === 'quick' && workspace !== undefined) throw new IpcError('FORBIDDEN_ROUTE', 'The quick prompt cannot choose a folder. Open the main Cairn window to do that.')
      return app.chats.send(sessionId, text, sender === 'quick' ? 'quick' : 'main', workspace)
    },
    'chat.cancel': async ({ sessionId }) => ({ cancelled: app.chats.cancel(sessionId) }),
    'chat.regenerate': async ({ sessionId }) => app.chats.regenerate(sessionId),
    'chat.approve': async ({ sessionId, requestId, allow, remember, prefix }) => ({
      accepted: await app.chats.approve(sessionId, requestId, { allow, remember, prefix })
    }),
    'chat.attach': async ({ sessionId }) => app.chats.attach(sessionId)
  }
}

import { translator } from '../../../shared/i18n'
import { describeError } from '../ipc/error-words'
import type { ChatItem } from '../stores/chat-items'
import type { AppState } from './app-state'

/** Opens an empty conversation on the chat screen (the sidebar's button and Ctrl/Cmd+N; incognito: Ctrl/Cmd+Shift+N and the menu). */
export function startNewChat(app: Pick<AppState, 'chat' | 'sessions' | 'ui'>, options: { incognito?: boolean } = {}): void {
  app.ui.getState().navigate('chat')
  app.sessions.getState().clearSearch()
  app.chat.getState().newChat()
  // When the user chose to stay in an open incognito chat, it stays as it is (setIncognito acts on a new chat only).
  if (options.incognito) app.chat.getState().setIncognito(true)
}

/** The text of the newest answer in the open conversation, or null when it has none yet. */
export function lastAnswer(items: readonly ChatItem[]): string | null {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index]
    if (item.kind === 'assistant' && item.text.trim()) return item.text
  }
  return null
}

/** Ctrl/Cmd+Shift+C: copies the newest answer and says so in a toast (or why it could not). */
export async function copyLastAnswer(app: Pick<AppState, 'chat' | 'ui'>, clipboard: Pick<Clipboard, 'writeText'> | undefined = navigator.clipboard): Promise<void> {
  const ui = app.ui.getState()
  const t = translator(ui.language)
  const text = lastAnswer(app.chat.getState().items)
  if (text === null) {
    ui.toast({ tone: 'info', text: t('shortcuts.nothingToCopy') })
    return
  }
  try {
    if (!clipboard) throw new Error('the clipboard is not available here')
    await clipboard.writeText(text)
    ui.toast({ tone: 'success', text: t('shortcuts.copied') }, 2500)
  } catch (error) {
    ui.toast({ tone: 'error', text: t('shortcuts.copyFailed', { reason: describeError(error) }) })
  }
}

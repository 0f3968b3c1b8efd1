import { useEffect } from 'react'
import { useApp, useChat, useT } from '../../app/context'
import { Icon } from '../../components/Icon'

/**
 * Incognito chats (issue 28, part C): the switch a new conversation starts with, the banner an incognito
 * one always shows, and the button that closes (discards) it. Leaving one asks first when it has messages
 * (the chat store's `leaveIncognito`).
 */
export function IncognitoToggle({ compact = false }: { compact?: boolean }): React.JSX.Element | null {
  const t = useT()
  const { chat } = useApp()
  const sessionId = useChat((s) => s.sessionId)
  const incognito = useChat((s) => s.incognito)
  if (sessionId !== null) return null
  const label = t(incognito ? 'incognito.turnOff' : 'incognito.turnOn')
  return (
    <button
      type="button"
      className={`${compact ? 'ghost-button small' : 'secondary-button small'} incognito-toggle${incognito ? ' on' : ''}`}
      aria-pressed={incognito}
      aria-label={label}
      title={label}
      onClick={() => chat.getState().setIncognito(!incognito)}
    >
      <Icon name="incognito" size={compact ? 14 : 16} />
      <span className="incognito-toggle-text">{t('incognito.label')}</span>
    </button>
  )
}

/** "Incognito: this chat is not saved and Cairn will not learn from it", while the open or coming conversation is incognito. */
export function IncognitoBanner(): React.JSX.Element | null {
  const t = useT()
  const incognito = useChat((s) => s.incognito)
  if (!incognito) return null
  return (
    <div className="incognito-banner" role="status" data-testid="incognito-banner">
      <Icon name="incognito" size={16} />
      <span>{t('incognito.notice')}</span>
    </div>
  )
}

/** Closes the open incognito conversation: it is discarded and a new chat opens. */
export function CloseIncognitoButton(): React.JSX.Element {
  const t = useT()
  const { chat } = useApp()
  const running = useChat((s) => s.running)
  return (
    <button type="button" className="secondary-button small" disabled={running} aria-label={t('incognito.close')} title={t('incognito.close')} onClick={() => chat.getState().newChat()}>
      <Icon name="close" size={14} />
      <span className="incognito-toggle-text">{t('incognito.close')}</span>
    </button>
  )
}

/**
 * A window going away (closed, reloaded, the browser tab shut) discards its incognito conversation, so
 * nothing is left in main that no window can reach. A browser tab asks first when it has messages (the
 * browser's own "Leave site?"); the desktop app discards it on quit, as main does for every open one.
 */
export function useDiscardIncognitoOnExit(): void {
  const { chat, client } = useApp()
  useEffect(() => {
    const openIncognito = () => {
      const { incognito, sessionId, items } = chat.getState()
      return incognito && sessionId !== null ? { sessionId, hasMessages: items.length > 0 } : null
    }
    const onBeforeUnload = (event: BeforeUnloadEvent): void => {
      if (client.mode === 'browser' && openIncognito()?.hasMessages) event.preventDefault()
    }
    const onPageHide = (): void => {
      const open = openIncognito()
      if (open) void client.request('chat.discard', { sessionId: open.sessionId }).catch(() => {})
    }
    window.addEventListener('beforeunload', onBeforeUnload)
    window.addEventListener('pagehide', onPageHide)
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload)
      window.removeEventListener('pagehide', onPageHide)
    }
  }, [chat, client])
}

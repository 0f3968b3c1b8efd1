import { useEffect } from 'react'
import { describeProviderProblem } from '../../../../shared/i18n/describe'
import { useApp, useChat, useSessions, useSettings, useT } from '../../app/context'
import { Notice } from '../../components/Feedback'
import { Icon, Logo } from '../../components/Icon'
import { mainPageUrl } from '../../ipc/pick-transport'
import { Composer } from '../chat/Composer'
import { IncognitoBanner, IncognitoToggle, useDiscardIncognitoOnExit } from '../chat/Incognito'
import { MessageList } from '../chat/MessageList'
import { TurnStatus } from '../chat/TurnStatus'

/** The always-on-top quick prompt: one box, the streamed answer, and a way into the full app. */
export function QuickApp(): React.JSX.Element {
  const t = useT()
  const { client, chat } = useApp()
  const sessionId = useChat((s) => s.sessionId)
  const hasAnswer = useChat((s) => s.items.length > 0 || s.sending || s.running)
  // The quick window shows the newest page only; the whole conversation is a click away.
  const hasOlder = useChat((s) => s.hasOlder)
  const incognito = useChat((s) => s.incognito)
  useDiscardIncognitoOnExit()
  const problem = useSettings((s) => s.info?.providerProblem ?? null)
  // Which model answers: the conversation's own, else the default new conversations start on.
  const ownModel = useSessions((s) => (sessionId ? (s.list.find((item) => item.id === sessionId)?.model ?? null) : null))
  const defaultModel = useSettings((s) => s.view?.config.provider.model ?? '')
  const model = ownModel || defaultModel

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault()
        void client.request('window.hideQuick').catch(() => {})
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [client])

  const openInCairn = (): void => {
    // An incognito conversation lives in main, so the main window can show it too (closing it there discards it).
    // Browser mode has no main window to raise: open the main page (same token) on this conversation.
    if (client.mode === 'browser') {
      const url = mainPageUrl(window.location, sessionId)
      if (url) window.open(url, '_blank', 'noopener')
      return
    }
    void client.request('window.openMain', sessionId ? { sessionId } : {}).catch(() => {})
  }

  return (
    <div className={`${hasAnswer ? 'quick expanded' : 'quick'}${incognito ? ' incognito' : ''}`}>
      <div className="quick-bar">
        <span className="quick-logo">
          <Logo size={20} />
        </span>
        <Composer compact autoFocus placeholder={t(incognito ? 'incognito.placeholder' : 'quick.placeholder')} />
      </div>
      <IncognitoBanner />
      {problem ? (
        <div className="quick-body">
          <Notice
            tone="info"
            actions={
              <button type="button" className="secondary-button small" onClick={openInCairn}>
                {t('setup.openSettings')}
              </button>
            }
          >
            {describeProviderProblem(problem, t)}
          </Notice>
        </div>
      ) : null}
      {hasAnswer ? (
        <div className="quick-body">
          {hasOlder ? (
            <p className="quick-older muted" data-testid="quick-older">
              {t('quick.older')}{' '}
              <button type="button" className="link-button" onClick={openInCairn}>
                {t('quick.open')}
              </button>
            </p>
          ) : null}
          <MessageList />
          {/* Settings live in the main window: it opens on this conversation, whose failure links to the section. */}
          <TurnStatus openSettings={openInCairn} />
        </div>
      ) : null}
      <div className="quick-footer">
        <span className="muted">{t('quick.hint')}</span>
        {model ? (
          <span className="quick-model" data-testid="quick-model" title={model}>
            {t(sessionId ? 'models.quickAnswers' : 'models.quickWillAnswer', { model })}
          </span>
        ) : null}
        <span className="spacer" />
        <IncognitoToggle compact />
        {sessionId ? (
          <button type="button" className="ghost-button small" onClick={() => chat.getState().newChat()}>
            <Icon name="compose" size={14} />
            {t('quick.new')}
          </button>
        ) : null}
        <button type="button" className="ghost-button small" onClick={openInCairn} disabled={!sessionId} title={t('quick.openHint')}>
          <Icon name="external" size={14} />
          {t('quick.open')}
        </button>
      </div>
    </div>
  )
}

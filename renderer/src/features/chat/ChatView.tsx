import { useEffect } from 'react'
import { useApp, useChat, useSettings, useT } from '../../app/context'
import { Logo } from '../../components/Icon'
import { Notice, Spinner } from '../../components/Feedback'
import { ChatHeader } from './ChatHeader'
import { Composer } from './Composer'
import { IncognitoBanner } from './Incognito'
import { MessageList } from './MessageList'
import { SetupCard } from './SetupCard'
import { TurnStatus } from './TurnStatus'

export function ChatView(): React.JSX.Element {
  const t = useT()
  const { chat } = useApp()
  const status = useChat((s) => s.status)
  const loadError = useChat((s) => s.loadError)
  const sessionId = useChat((s) => s.sessionId)
  const empty = useChat((s) => s.items.length === 0 && !s.sending && !s.running)
  const running = useChat((s) => s.running || s.sending)
  const incognito = useChat((s) => s.incognito)
  const problem = useSettings((s) => s.info?.providerProblem ?? null)

  // Esc stops the answer, wherever focus is (dialogs handle their own Esc first).
  useEffect(() => {
    if (!running) return
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape' && !event.defaultPrevented) void chat.getState().cancel()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [running, chat])

  return (
    <section className="pane chat-pane" aria-label={t('nav.chat')}>
      <ChatHeader />
      <IncognitoBanner />
      {status === 'loading' ? (
        <div className="pane-center">
          <Spinner label={t('common.loading')} />
        </div>
      ) : status === 'error' ? (
        <div className="pane-center">
          <Notice
            tone="error"
            actions={
              <button type="button" className="secondary-button small" onClick={() => void chat.getState().openSession(sessionId)}>
                {t('common.retry')}
              </button>
            }
          >
            {loadError}
          </Notice>
        </div>
      ) : empty && problem ? (
        <div className="pane-center scroll">
          <SetupCard problem={problem} />
        </div>
      ) : empty ? (
        <div className="pane-center">
          <div className="chat-welcome">
            <Logo size={40} />
            <h2>{t('chat.welcomeTitle')}</h2>
            <p>{t('chat.welcomeBody')}</p>
          </div>
        </div>
      ) : (
        <MessageList />
      )}
      <div className={incognito ? 'chat-dock incognito' : 'chat-dock'}>
        <div className="chat-dock-inner">
          <TurnStatus />
          <Composer autoFocus placeholder={incognito ? t('incognito.placeholder') : undefined} />
          <div className="composer-hint">
            {incognito ? `${t('incognito.label')} · ` : ''}
            {running ? t('composer.stopHint') : t('composer.sendHint')}
          </div>
        </div>
      </div>
    </section>
  )
}

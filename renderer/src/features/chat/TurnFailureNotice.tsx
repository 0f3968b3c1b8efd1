import { useApp, useChat, useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import { Notice } from '../../components/Feedback'
import { describeTurnError } from '../../../../shared/i18n/describe'
import { settingsSectionFor } from '../../../../shared/turn-failure'
import type { SettingsSection } from '../../stores/ui'

/**
 * The failure of the conversation's last turn, live or kept with the conversation (a reopened one, a
 * reloaded window): what went wrong in the user's words, Retry, and the Settings section that fixes it
 * (`openSettings`: where a window without Settings sends the user instead, e.g. the quick window's main window).
 */
export function TurnFailureNotice({ openSettings }: { openSettings?: (section: SettingsSection) => void }): React.JSX.Element | null {
  const t = useT()
  const { chat, ui } = useApp()
  const error = useChat((s) => s.error)
  const running = useChat((s) => s.running)
  if (!error) return null
  const failure = describeTurnError(error, t)
  const section = settingsSectionFor(error)
  return (
    <Notice
      tone="error"
      actions={
        <>
          {error.plan && !running ? (
            <button type="button" className="secondary-button small" onClick={() => void chat.getState().retry()}>
              {t('common.retry')}
            </button>
          ) : null}
          {section ? (
            <button type="button" className="ghost-button small" onClick={() => (openSettings ?? ui.getState().openSettings)(section)}>
              {t('setup.openSettings')}
            </button>
          ) : null}
          <button type="button" className="icon-button small" aria-label={t('common.dismiss')} onClick={() => chat.getState().dismissError()}>
            <Icon name="close" size={14} />
          </button>
        </>
      }
    >
      {failure.text}
      {failure.detail ? <div className="notice-detail">{failure.detail}</div> : null}
    </Notice>
  )
}

import { useApp, useLocale, useSettings, useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import { relativeTime, useNow } from '../../lib/time'
import { overdueSince } from '../../stores/settings'

/**
 * Proposals waiting longer than a day are not left to be forgotten: a line in the sidebar (a button
 * to the Inbox) and a banner on the Inbox itself.
 */
export function InboxReminder({ where }: { where: 'sidebar' | 'inbox' }): React.JSX.Element | null {
  const t = useT()
  const locale = useLocale()
  const { ui } = useApp()
  const status = useSettings((s) => s.learning)
  const now = useNow()
  const since = overdueSince(status, now)
  if (since === null || !status) return null
  const text = t('inbox.reminder', { count: status.pendingProposals, when: relativeTime(since, now, locale) })
  if (where === 'inbox') {
    return (
      <div className="notice warn inbox-reminder" role="status">
        <Icon name="alert" size={17} />
        <div className="notice-text">
          {text} {t('inbox.reminderBody')}
        </div>
      </div>
    )
  }
  return (
    <button type="button" className="sidebar-reminder" onClick={() => ui.getState().navigate('inbox')}>
      <Icon name="alert" size={14} />
      <span>{text}</span>
    </button>
  )
}

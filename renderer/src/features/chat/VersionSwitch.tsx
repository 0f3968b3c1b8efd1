import type { VersionSwitch as Versions } from '../../../../shared/ipc/domain'
import { useApp, useChat, useT } from '../../app/context'
import { Icon } from '../../components/Icon'

/** ‹ 2/3 ›: earlier and later versions of what starts here (an edited message, an answer made again). */
export function VersionSwitch({ versions }: { versions: Versions }): React.JSX.Element {
  const t = useT()
  const { chat } = useApp()
  const busy = useChat((s) => s.running || s.sending)
  const go = (branchId: number | null) => {
    if (branchId !== null) void chat.getState().showVersion(branchId)
  }
  return (
    <span className="version-switch" role="group" aria-label={t('chat.versions', { position: versions.position, total: versions.total })}>
      <button
        type="button"
        className="icon-button small"
        disabled={busy || versions.previous === null}
        onClick={() => go(versions.previous)}
        aria-label={t('chat.versions.previous')}
        title={t('chat.versions.previous')}
      >
        <Icon name="chevronRight" size={13} className="flip" />
      </button>
      <span className="version-count" aria-hidden="true">
        {versions.position}/{versions.total}
      </span>
      <button
        type="button"
        className="icon-button small"
        disabled={busy || versions.next === null}
        onClick={() => go(versions.next)}
        aria-label={t('chat.versions.next')}
        title={t('chat.versions.next')}
      >
        <Icon name="chevronRight" size={13} />
      </button>
    </span>
  )
}

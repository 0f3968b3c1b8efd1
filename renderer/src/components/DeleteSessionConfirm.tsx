import { useT } from '../app/context'
import { Dialog } from './Dialog'

/**
 * Asks before deleting a conversation (from the sidebar's menu or the chat's header), saying plainly
 * what goes (the conversation and its search index) and what stays (memory, skills, the Timeline).
 */
export function DeleteSessionConfirm({ title, onCancel, onConfirm }: { title: string; onCancel(): void; onConfirm(): void }): React.JSX.Element {
  const t = useT()
  return (
    <Dialog
      title={t('sessions.deleteTitle', { title })}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="secondary-button" onClick={onCancel} data-autofocus>
            {t('common.cancel')}
          </button>
          <button type="button" className="danger-button" onClick={onConfirm}>
            {t('sessions.deleteConfirm')}
          </button>
        </>
      }
    >
      <p>{t('sessions.deleteGone')}</p>
      <p>{t('sessions.deleteKept')}</p>
    </Dialog>
  )
}

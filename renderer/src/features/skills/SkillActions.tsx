import { useState } from 'react'
import type { SkillItem } from '../../../../shared/ipc/domain'
import { useApp, useT } from '../../app/context'
import { CopyButton } from '../../components/CopyButton'
import { Dialog } from '../../components/Dialog'
import { Notice } from '../../components/Feedback'
import { Icon } from '../../components/Icon'
import { describeSkillWriteFailure } from './skill-write-words'

/** Edit, open the folder, delete (archive): what the user can do with a skill by hand. */
export function SkillActions({ skill, editing, onEdit }: { skill: SkillItem; editing: boolean; onEdit(): void }): React.JSX.Element {
  const t = useT()
  const { skills, ui } = useApp()
  const [deleting, setDeleting] = useState(false)
  const [folder, setFolder] = useState<string | null>(null)

  const openFolder = async (): Promise<void> => {
    const outcome = await skills.getState().openFolder(skill.name)
    if (!outcome.ok) ui.getState().toast({ tone: 'error', text: t('library.openFolderFailed', { error: outcome.error }) }, 10_000)
    else if (!outcome.opened) setFolder(outcome.path)
  }

  return (
    <div className="skill-actions">
      {skill.readOnly ? null : (
        <button type="button" className="ghost-button small" disabled={editing} onClick={onEdit}>
          <Icon name="edit" size={15} />
          {t('library.edit')}
        </button>
      )}
      <button type="button" className="ghost-button small" onClick={() => void openFolder()}>
        <Icon name="folder" size={15} />
        {t('library.openFolder')}
      </button>
      {skill.readOnly ? null : (
        <button type="button" className="ghost-button small danger" onClick={() => setDeleting(true)}>
          <Icon name="trash" size={15} />
          {t('library.delete')}
        </button>
      )}
      {deleting ? <DeleteSkillDialog name={skill.name} onClose={() => setDeleting(false)} /> : null}
      {folder !== null ? (
        <Dialog
          title={t('library.folderTitle')}
          onClose={() => setFolder(null)}
          actions={
            <button type="button" className="primary-button" onClick={() => setFolder(null)} data-autofocus>
              {t('common.close')}
            </button>
          }
        >
          <p>{t('library.folderBody')}</p>
          <div className="folder-path">
            <code data-testid="skill-folder">{folder}</code>
            <CopyButton text={folder} />
          </div>
        </Dialog>
      ) : null}
    </div>
  )
}

/** Says what delete means here (archived, restorable from the timeline) before doing it. */
function DeleteSkillDialog({ name, onClose }: { name: string; onClose(): void }): React.JSX.Element {
  const t = useT()
  const { skills, ui } = useApp()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<{ text: string; detail: string | null } | null>(null)
  const confirm = async (): Promise<void> => {
    setBusy(true)
    const outcome = await skills.getState().archive(name)
    setBusy(false)
    if (!outcome.ok) {
      setError(describeSkillWriteFailure(outcome, t))
      return
    }
    ui.getState().toast({ tone: 'success', text: t('library.deleted', { name }) })
    onClose()
  }
  return (
    <Dialog
      title={t('library.deleteTitle', { name })}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="secondary-button" onClick={onClose} data-autofocus>
            {t('common.cancel')}
          </button>
          <button type="button" className="danger-button" disabled={busy} onClick={() => void confirm()}>
            {busy ? t('library.deleting') : t('library.delete')}
          </button>
        </>
      }
    >
      <p>{t('library.deleteBody')}</p>
      {error ? (
        <Notice tone="error">
          {error.text}
          {error.detail ? <div className="notice-detail">{error.detail}</div> : null}
        </Notice>
      ) : null}
    </Dialog>
  )
}

import { useId, useState } from 'react'
import { useT } from '../../app/context'
import { Dialog } from '../../components/Dialog'

export interface WorkspaceDialogProps {
  /** The folder now in use, to start from. */
  current: string
  /** The conversation exists already (the change applies from its next message). */
  started: boolean
  /** Tries the typed folder; resolves with why it was refused (in the user's language), or null when it was taken. */
  onSubmit(path: string): Promise<string | null>
  onClose(): void
}

/** Browser mode has no folder picker: the folder's full path is typed here. */
export function WorkspaceDialog({ current, started, onSubmit, onClose }: WorkspaceDialogProps): React.JSX.Element {
  const t = useT()
  const inputId = useId()
  const errorId = useId()
  const [path, setPath] = useState(current)
  const [problem, setProblem] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  const submit = async (): Promise<void> => {
    const folder = path.trim()
    if (!folder || saving) return
    setSaving(true)
    const refused = await onSubmit(folder)
    setSaving(false)
    if (refused) setProblem(refused)
    else onClose()
  }

  return (
    <Dialog
      title={t('workspace.dialogTitle')}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="secondary-button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" form={`${inputId}-form`} className="primary-button" disabled={saving || !path.trim()}>
            {t('workspace.use')}
          </button>
        </>
      }
    >
      <form
        id={`${inputId}-form`}
        className="field"
        onSubmit={(event) => {
          event.preventDefault()
          void submit()
        }}
      >
        <p>
          {t('workspace.dialogBody')} {started ? t('workspace.dialogBodyNext') : null}
        </p>
        <label className="field-label" htmlFor={inputId}>
          {t('workspace.pathLabel')}
        </label>
        <input
          id={inputId}
          className="text-input mono"
          value={path}
          data-autofocus
          spellCheck={false}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? errorId : undefined}
          onChange={(event) => {
            setPath(event.target.value)
            setProblem(null)
          }}
        />
        {problem ? (
          <p id={errorId} className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
      </form>
    </Dialog>
  )
}

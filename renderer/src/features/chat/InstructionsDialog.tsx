import { useId, useState } from 'react'
import { MAX_INSTRUCTIONS_CHARS } from '../../../../shared/instructions'
import { useApp, useChat, useSessions, useT } from '../../app/context'
import { Dialog } from '../../components/Dialog'
import { Icon } from '../../components/Icon'
import { describeError } from '../../ipc/error-words'

/**
 * The open conversation's own instructions. They are part of its frozen prompt, so saving restarts the
 * prompt (the user is told what that means); until then the provider's prompt cache keeps hitting.
 */
export function InstructionsButton(): React.JSX.Element | null {
  const t = useT()
  const sessionId = useChat((s) => s.sessionId)
  const running = useChat((s) => s.running)
  const saved = useSessions((s) => (sessionId ? (s.list.find((item) => item.id === sessionId)?.instructions ?? '') : ''))
  const [open, setOpen] = useState(false)
  if (!sessionId) return null
  const label = saved ? t('instructions.buttonSet') : t('instructions.button')
  return (
    <>
      <button type="button" className={saved ? 'icon-button instructions-set' : 'icon-button'} onClick={() => setOpen(true)} disabled={running} aria-label={label} title={label}>
        <Icon name="file" />
      </button>
      {open ? <InstructionsDialog sessionId={sessionId} saved={saved} onClose={() => setOpen(false)} /> : null}
    </>
  )
}

function InstructionsDialog({ sessionId, saved, onClose }: { sessionId: string; saved: string; onClose(): void }): React.JSX.Element {
  const t = useT()
  const { models, ui } = useApp()
  const id = useId()
  const [text, setText] = useState(saved)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const over = text.length - MAX_INSTRUCTIONS_CHARS
  const unchanged = text.trim() === saved.trim()

  const save = async (): Promise<void> => {
    setBusy(true)
    try {
      await models.getState().setInstructions(sessionId, text)
      onClose()
      ui.getState().toast({ tone: 'info', text: t('instructions.saved') })
    } catch (error) {
      setProblem(describeError(error))
      setBusy(false)
    }
  }

  return (
    <Dialog
      title={t('instructions.title')}
      onClose={onClose}
      wide
      actions={
        <>
          <button type="button" className="secondary-button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="primary-button" disabled={busy || unchanged || over > 0} onClick={() => void save()}>
            {t('instructions.save')}
          </button>
        </>
      }
    >
      <p className="muted">{t('instructions.lead')}</p>
      <label className="field-label" htmlFor={id}>
        {t('instructions.label')}
      </label>
      <textarea id={id} className="text-input instructions-input" rows={7} value={text} data-autofocus placeholder={t('instructions.placeholder')} onChange={(event) => setText(event.target.value)} />
      <p className={over > 0 ? 'field-hint instructions-count over' : 'field-hint instructions-count'} aria-live="polite">
        {over > 0 ? t('instructions.over', { count: over }) : t('instructions.length', { count: text.length, max: MAX_INSTRUCTIONS_CHARS })}
      </p>
      <p className="field-hint">{t('instructions.restartNote')}</p>
      {problem ? (
        <p className="model-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </Dialog>
  )
}

import { useEffect, useRef, useState } from 'react'
import { useApp, useCuration, useSettings, useT } from '../../app/context'
import { Notice } from '../../components/Feedback'
import { Icon } from '../../components/Icon'
import { errorCode } from '../../ipc/client'
import { describeError } from '../../ipc/error-words'
import { curationEndingText } from './curation-words'

/**
 * "Tidy the library now": queues one curation pass over all skills and memory. What it finds is
 * always a proposal, so the toast points to the Inbox (from any screen but the Inbox itself). While
 * the pass waits or runs the button says so (and stays in the keyboard's path, doing nothing); how
 * it ended comes as a toast, or above the Inbox's list (`CurationOutcome`).
 */
export function CurateButton({ where }: { where: 'inbox' | 'skills' }): React.JSX.Element {
  const t = useT()
  const { ui, curation } = useApp()
  const [asking, setAsking] = useState(false)
  const current = useCuration((s) => s.current)
  // A pass already running when this window opened (the schedule, another window): learning's status names it.
  const runningUnseen = useSettings((s) => Boolean(s.learning?.running?.reasons.some((reason) => reason.code === 'curation')))
  const phase = current?.phase ?? (runningUnseen ? 'running' : null)
  const button = useRef<HTMLButtonElement>(null)
  const hadFocus = useRef(false)

  // Disabling the button drops the keyboard's place; it comes back once the request is answered.
  useEffect(() => {
    if (asking || !hadFocus.current) return
    hadFocus.current = false
    button.current?.focus()
  }, [asking])

  const curate = async (): Promise<void> => {
    if (phase) return
    hadFocus.current = document.activeElement === button.current
    setAsking(true)
    try {
      await curation.getState().curate()
      const action = where === 'inbox' ? undefined : { label: t('curation.openInbox'), view: 'inbox' as const }
      ui.getState().toast({ tone: 'info', text: t('curation.started'), ...(action ? { action } : {}) })
    } catch (error) {
      const text = errorCode(error) === 'LEARNING_OFF' ? t('curation.off') : describeError(error)
      ui.getState().toast({ tone: 'error', text }, 10_000)
    } finally {
      setAsking(false)
    }
  }

  return (
    <button
      ref={button}
      type="button"
      className="secondary-button small curate-button"
      disabled={asking}
      aria-busy={asking || phase !== null}
      aria-disabled={phase !== null || undefined}
      title={phase ? t('curation.busyHint') : t('curation.hint')}
      onClick={() => void curate()}
    >
      {phase ? <span className="spinner curate-spinner" aria-hidden="true" /> : <Icon name="sparkle" size={15} />}
      <span className="curate-label">{phase === 'waiting' ? t('curation.waiting') : phase === 'running' ? t('curation.running') : t('curation.run')}</span>
    </button>
  )
}

/** How the last pass the user asked for ended, above the Inbox's list until dismissed. */
export function CurationOutcome(): React.JSX.Element | null {
  const t = useT()
  const { curation } = useApp()
  const ending = useCuration((s) => s.ending)
  if (!ending) return null
  return (
    <div aria-label={t('curation.outcomeLabel')} className="curation-outcome">
      <Notice
        tone={ending.kind === 'failed' ? 'error' : ending.kind === 'nothing' ? 'info' : 'success'}
        actions={
          <button type="button" className="icon-button small" aria-label={t('common.dismiss')} onClick={() => curation.getState().dismissEnding()}>
            <Icon name="close" size={14} />
          </button>
        }
      >
        {curationEndingText(ending, t)}
      </Notice>
    </div>
  )
}

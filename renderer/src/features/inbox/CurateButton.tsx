import { useEffect, useRef, useState } from 'react'
import { useApp, useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import { errorCode } from '../../ipc/client'
import { describeError } from '../../ipc/error-words'

/**
 * "Tidy the library now": queues one curation pass over all skills and memory. What it finds is
 * always a proposal, so the toast points to the Inbox (from any screen but the Inbox itself).
 */
export function CurateButton({ where }: { where: 'inbox' | 'skills' }): React.JSX.Element {
  const t = useT()
  const { client, ui } = useApp()
  const [running, setRunning] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const hadFocus = useRef(false)

  // Disabling the button drops the keyboard's place; it comes back once the request is answered.
  useEffect(() => {
    if (running || !hadFocus.current) return
    hadFocus.current = false
    button.current?.focus()
  }, [running])

  const curate = async (): Promise<void> => {
    hadFocus.current = document.activeElement === button.current
    setRunning(true)
    try {
      await client.request('learning.curate')
      const action = where === 'inbox' ? undefined : { label: t('curation.openInbox'), view: 'inbox' as const }
      ui.getState().toast({ tone: 'info', text: t('curation.started'), ...(action ? { action } : {}) })
    } catch (error) {
      const text = errorCode(error) === 'LEARNING_OFF' ? t('curation.off') : describeError(error)
      ui.getState().toast({ tone: 'error', text }, 10_000)
    } finally {
      setRunning(false)
    }
  }

  return (
    <button ref={button} type="button" className="secondary-button small curate-button" disabled={running} aria-busy={running} title={t('curation.hint')} onClick={() => void curate()}>
      <Icon name="sparkle" size={15} />
      <span className="curate-label">{t('curation.run')}</span>
    </button>
  )
}

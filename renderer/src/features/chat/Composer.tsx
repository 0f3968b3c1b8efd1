import { useEffect, useLayoutEffect, useRef } from 'react'
import { useApp, useChat, useT } from '../../app/context'
import { Icon } from '../../components/Icon'

export interface ComposerProps {
  /** Smaller, single purpose (the quick prompt). */
  compact?: boolean
  autoFocus?: boolean
  placeholder?: string
}

/** Enter sends, Shift+Enter adds a line. While Cairn answers the box rests and the button stops it. */
export function Composer({ compact = false, autoFocus = false, placeholder }: ComposerProps): React.JSX.Element {
  const t = useT()
  const { chat } = useApp()
  const draft = useChat((s) => s.draft)
  const running = useChat((s) => s.running)
  const sending = useChat((s) => s.sending)
  const busy = running || sending
  const box = useRef<HTMLTextAreaElement>(null)

  useLayoutEffect(() => {
    const element = box.current
    if (!element) return
    element.style.height = 'auto'
    element.style.height = `${Math.min(element.scrollHeight, compact ? 120 : 240)}px`
  }, [draft, compact])

  useEffect(() => {
    if (!busy && autoFocus) box.current?.focus()
  }, [busy, autoFocus])

  const send = (): void => {
    if (busy || !draft.trim()) return
    void chat.getState().send(draft)
  }

  return (
    <form
      className={compact ? 'composer compact' : 'composer'}
      onSubmit={(event) => {
        event.preventDefault()
        send()
      }}
    >
      <textarea
        ref={box}
        className="composer-input"
        rows={1}
        value={draft}
        disabled={busy}
        autoFocus={autoFocus}
        aria-label={t('composer.label')}
        placeholder={busy ? t('composer.busy') : (placeholder ?? t('composer.placeholder'))}
        onChange={(event) => chat.getState().setDraft(event.target.value)}
        onKeyDown={(event) => {
          // Enter while an input method is composing picks a candidate; it must not send.
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault()
            send()
          }
        }}
      />
      {busy ? (
        <button type="button" className="composer-button stop" onClick={() => void chat.getState().cancel()} aria-label={t('composer.stop')} title={t('composer.stopHint')}>
          <Icon name="close" size={16} />
        </button>
      ) : (
        <button type="submit" className="composer-button" disabled={!draft.trim()} aria-label={t('composer.send')} title={t('composer.sendHint')}>
          <Icon name="send" size={17} />
        </button>
      )}
    </form>
  )
}

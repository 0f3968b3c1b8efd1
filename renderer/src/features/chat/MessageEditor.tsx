import { useEffect, useRef, useState } from 'react'
import { useApp, useT } from '../../app/context'

/** A sent message open for editing: Enter (or Send) sends the new words in its place, Esc cancels. */
export function MessageEditor({ messageId, text }: { messageId: number; text: string }): React.JSX.Element {
  const t = useT()
  const { chat } = useApp()
  const [draft, setDraft] = useState(text)
  const box = useRef<HTMLTextAreaElement>(null)

  useEffect(() => {
    const element = box.current
    if (!element) return
    element.focus()
    element.setSelectionRange(element.value.length, element.value.length)
  }, [])

  const cancel = () => chat.getState().startEdit(null)
  const send = () => {
    // The same words again are sent too: re-running a turn (one that failed, or an answer to redo) is why one edits and sends.
    if (!draft.trim()) return
    void chat.getState().editAndResend(messageId, draft)
  }
  return (
    <form
      className="message-editor"
      onSubmit={(event) => {
        event.preventDefault()
        send()
      }}
    >
      <textarea
        ref={box}
        className="message-editor-input"
        aria-label={t('chat.edit.label')}
        value={draft}
        rows={Math.min(10, Math.max(2, draft.split('\n').length))}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault()
            cancel()
          } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault()
            send()
          }
        }}
      />
      <p className="message-editor-hint">{t('chat.edit.hint')}</p>
      <div className="message-editor-actions">
        <button type="button" className="secondary-button" onClick={cancel}>
          {t('chat.edit.cancel')}
        </button>
        <button type="submit" className="primary-button" disabled={!draft.trim()}>
          {t('chat.edit.send')}
        </button>
      </div>
    </form>
  )
}

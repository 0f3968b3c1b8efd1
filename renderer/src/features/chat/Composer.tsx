import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import { describeAttachmentProblem } from '../../../../shared/i18n/describe-attachments'
import { useApp, useChat, useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import { AttachmentChips } from './AttachmentChips'
import { addFiles, filesOf, toOutgoing, toView, type ComposerFile } from './AttachmentFiles'
import { McpResourceButton } from './mcp/McpResourceButton'
import { SlashMenuDialogs, SlashMenuList } from '../prompts/SlashMenu'
import { useSlashMenu } from '../prompts/useSlashMenu'

export interface ComposerProps {
  /** Smaller, single purpose (the quick prompt). */
  compact?: boolean
  autoFocus?: boolean
  placeholder?: string
}

/**
 * Enter sends, Shift+Enter adds a line. While Cairn answers the box rests and the button stops it.
 * Files come from the paperclip's picker, a paste, or a drop anywhere on the window; they show as
 * chips until sent, and come back if the message could not be sent.
 */
export function Composer({ compact = false, autoFocus = false, placeholder }: ComposerProps): React.JSX.Element {
  const t = useT()
  const { chat } = useApp()
  const draft = useChat((s) => s.draft)
  const running = useChat((s) => s.running)
  const sending = useChat((s) => s.sending)
  const busy = running || sending
  const box = useRef<HTMLTextAreaElement>(null)
  const picker = useRef<HTMLInputElement>(null)
  const [files, setFiles] = useState<ComposerFile[]>([])
  const [problem, setProblem] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)
  const filesNow = useRef(files)
  filesNow.current = files
  // Prompts (`/`: saved and MCP) and resources belong to the main window: the quick prompt stays a single box.
  const prompts = useSlashMenu(draft, !compact && !busy)
  const promptListId = useId()

  useLayoutEffect(() => {
    const element = box.current
    if (!element) return
    element.style.height = 'auto'
    element.style.height = `${Math.min(element.scrollHeight, compact ? 120 : 240)}px`
  }, [draft, compact])

  useEffect(() => {
    if (!busy && autoFocus) box.current?.focus()
  }, [busy, autoFocus])

  const attach = async (picked: File[]): Promise<void> => {
    if (!picked.length) return
    const result = await addFiles(filesNow.current, picked)
    if ('problem' in result) {
      setProblem(describeAttachmentProblem(result.problem, t))
      return
    }
    setProblem(null)
    setFiles(result.files)
  }

  // A file dropped anywhere on the window attaches (and never opens in place of the app).
  useEffect(() => {
    const carriesFiles = (event: DragEvent) => Boolean(event.dataTransfer?.types.includes('Files'))
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return
      event.preventDefault()
      setDragging(true)
    }
    const leave = (event: DragEvent) => {
      if (!event.relatedTarget) setDragging(false)
    }
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event)) return
      event.preventDefault()
      setDragging(false)
      void attach(filesOf(event.dataTransfer))
    }
    window.addEventListener('dragover', over)
    window.addEventListener('dragleave', leave)
    window.addEventListener('drop', drop)
    return () => {
      window.removeEventListener('dragover', over)
      window.removeEventListener('dragleave', leave)
      window.removeEventListener('drop', drop)
    }
  })

  const send = async (): Promise<void> => {
    if (busy || !draft.trim()) return
    const sent = files
    setFiles([])
    setProblem(null)
    const started = await chat.getState().send(draft, sent.length ? { outgoing: toOutgoing(sent), shown: toView(sent) } : undefined)
    // Not sent: the files go back beside the text the store put back (unless others were added meanwhile).
    if (!started && sent.length) setFiles((now) => (now.length ? now : sent))
  }

  return (
    <>
      <form
        className={`composer${compact ? ' compact' : ''}${dragging ? ' dragging' : ''}`}
        onSubmit={(event) => {
          event.preventDefault()
          void send()
        }}
      >
        <SlashMenuList menu={prompts} id={promptListId} />
        <AttachmentChips
          files={files.map((file) => ({ ...file, preview: file.kind === 'image' ? `data:${file.mime};base64,${file.data}` : undefined }))}
          onRemove={(index) => setFiles(files.filter((_, i) => i !== index))}
        />
        <button
          type="button"
          className="composer-attach"
          disabled={busy}
          onClick={() => picker.current?.click()}
          aria-label={t('attachments.attach')}
          title={t('attachments.attachHint')}
        >
          <Icon name="attach" size={17} />
        </button>
        {compact ? null : <McpResourceButton disabled={busy} onAttach={(file) => attach([file])} />}
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          data-testid="attach-input"
          onChange={(event) => {
            const picked = Array.from(event.target.files ?? [])
            event.target.value = '' // the same file can be picked again after removing it
            void attach(picked)
          }}
        />
        <textarea
          ref={box}
          className="composer-input"
          rows={1}
          value={draft}
          disabled={busy}
          autoFocus={autoFocus}
          aria-label={t('composer.label')}
          {...(prompts.open ? { role: 'combobox', 'aria-expanded': true, 'aria-controls': promptListId, 'aria-activedescendant': `${promptListId}-${prompts.active}` } : {})}
          placeholder={busy ? t('composer.busy') : (placeholder ?? t('composer.placeholder'))}
          onChange={(event) => chat.getState().setDraft(event.target.value)}
          onPaste={(event) => {
            const pasted = filesOf(event.clipboardData)
            if (!pasted.length) return
            event.preventDefault()
            void attach(pasted)
          }}
          onKeyDown={(event) => {
            if (prompts.onKeyDown(event)) return
            // Enter while an input method is composing picks a candidate; it must not send.
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault()
              void send()
            }
            // ↑ in an empty box edits the last message sent (as in most chat apps); not in the quick prompt.
            if (event.key === 'ArrowUp' && !compact && !draft && chat.getState().editLast()) event.preventDefault()
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
        {dragging ? (
          <div className="composer-drop" aria-hidden="true">
            {t('attachments.dropHere')}
          </div>
        ) : null}
      </form>
      <SlashMenuDialogs menu={prompts} />
      {problem || (prompts.problem && !prompts.asking) ? (
        <div className="composer-problem" role="alert">
          <Icon name="alert" size={14} />
          <span>{problem ?? prompts.problem}</span>
        </div>
      ) : null}
    </>
  )
}

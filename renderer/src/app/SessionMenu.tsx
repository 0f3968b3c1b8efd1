import { useEffect, useRef, useState } from 'react'
import type { SessionSummary } from '../../../shared/ipc/domain'
import type { MessageKey } from '../../../shared/i18n'
import { DeleteSessionConfirm } from '../components/DeleteSessionConfirm'
import { describeError } from '../ipc/error-words'
import { useApp, useT } from './context'

interface MenuItem {
  label: MessageKey
  run(): void
  danger?: boolean
}

/**
 * What can be done to one conversation from the sidebar (opened by its "⋯" button or a right-click):
 * pin, archive, export, delete. A menu in the ARIA sense: arrow keys, Home/End move, Esc closes.
 */
export function SessionMenu({ session, onClose }: { session: SessionSummary; onClose(): void }): React.JSX.Element {
  const t = useT()
  const { sessions, ui } = useApp()
  const menu = useRef<HTMLDivElement>(null)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const title = session.title || t('chat.untitled')

  const act = (work: () => Promise<unknown>) => () => {
    onClose()
    work().catch((error: unknown) => ui.getState().toast({ tone: 'error', text: describeError(error) }))
  }
  const exportAs = (format: 'md' | 'json') =>
    act(async () => {
      const file = await sessions.getState().exportFile(session.id, format)
      download(file.fileName, file.mimeType, file.text)
      ui.getState().toast({ tone: 'info', text: t('sessions.exported', { file: file.fileName }) })
    })
  const items: MenuItem[] = [
    { label: session.pinned ? 'sessions.unpin' : 'sessions.pin', run: act(() => sessions.getState().setFlags(session.id, { pinned: !session.pinned })) },
    { label: session.archived ? 'sessions.unarchive' : 'sessions.archive', run: act(() => sessions.getState().setFlags(session.id, { archived: !session.archived })) },
    { label: 'sessions.exportMarkdown', run: exportAs('md') },
    { label: 'sessions.exportJson', run: exportAs('json') },
    { label: 'sessions.delete', run: () => setConfirmDelete(true), danger: true }
  ]

  useEffect(() => {
    if (confirmDelete) return
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus()
    const outside = (event: MouseEvent) => {
      if (!menu.current?.contains(event.target as Node)) onClose()
    }
    document.addEventListener('mousedown', outside)
    return () => document.removeEventListener('mousedown', outside)
  }, [confirmDelete, onClose])

  if (confirmDelete) return <DeleteSessionDialog session={session} title={title} onClose={onClose} />

  const move = (event: React.KeyboardEvent) => {
    const entries = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]
    const at = entries.indexOf(document.activeElement as HTMLElement)
    const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: entries.length - 1 }[event.key]
    if (next !== undefined) {
      event.preventDefault()
      entries[(next + entries.length) % entries.length]?.focus()
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault()
      event.stopPropagation()
      onClose()
    }
  }
  return (
    <div ref={menu} className="session-menu" role="menu" aria-label={t('sessions.menu', { title })} onKeyDown={move}>
      {items.map((item) => (
        <button key={item.label} type="button" role="menuitem" tabIndex={-1} className={item.danger ? 'danger' : undefined} onClick={item.run}>
          {t(item.label)}
        </button>
      ))}
    </div>
  )
}

/** Deletes the conversation once confirmed; a failure is said in a toast. */
function DeleteSessionDialog({ session, title, onClose }: { session: SessionSummary; title: string; onClose(): void }): React.JSX.Element {
  const { sessions, chat, ui } = useApp()
  const remove = async (): Promise<void> => {
    onClose()
    try {
      await sessions.getState().remove(session.id)
      if (chat.getState().sessionId === session.id) chat.getState().newChat()
    } catch (error) {
      ui.getState().toast({ tone: 'error', text: describeError(error) })
    }
  }
  return <DeleteSessionConfirm title={title} onCancel={onClose} onConfirm={() => void remove()} />
}

/** A file save through the browser's download (the desktop app shows its save dialog for it). */
function download(fileName: string, mimeType: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${mimeType};charset=utf-8` }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked on the next tick: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

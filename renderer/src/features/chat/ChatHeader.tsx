import { useState } from 'react'
import { useApp, useChat, useSessions, useT } from '../../app/context'
import { DeleteSessionConfirm } from '../../components/DeleteSessionConfirm'
import { Icon } from '../../components/Icon'
import { describeError } from '../../ipc/error-words'
import { InstructionsButton } from './InstructionsDialog'
import { CloseIncognitoButton, IncognitoToggle } from './Incognito'
import { ModelSwitcher } from './ModelSwitcher'
import { ReloadToolsButton } from './ReloadToolsButton'
import { TokenCount } from './TokenCount'
import { WorkspaceButton } from './WorkspaceButton'
import { ProjectInstructions } from './ProjectInstructions'

/**
 * Title of the open conversation, the folder it works in, its model and token count, with its
 * instructions, rename, "learn from this now" and delete.
 */
export function ChatHeader(): React.JSX.Element {
  const t = useT()
  const { chat, sessions, ui, client } = useApp()
  const sessionId = useChat((s) => s.sessionId)
  const title = useChat((s) => s.title)
  const running = useChat((s) => s.running)
  const incognito = useChat((s) => s.incognito)
  // Main names a new conversation when its first turn starts; the list has it before this window reloads it.
  const listed = useSessions((s) => (sessionId ? (s.list.find((item) => item.id === sessionId)?.title ?? null) : null))
  const [editing, setEditing] = useState<string | null>(null)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  const shown = sessionId ? title || listed || t('chat.untitled') : t('chat.newConversation')

  const saveTitle = async (): Promise<void> => {
    const next = editing?.trim()
    setEditing(null)
    if (!sessionId || !next || next === title) return
    try {
      await sessions.getState().rename(sessionId, next)
      chat.setState({ title: next })
    } catch (error) {
      setProblem(describeError(error))
    }
  }

  const reviewNow = async (): Promise<void> => {
    if (!sessionId) return
    try {
      await client.request('learning.reviewNow', { sessionId })
      ui.getState().toast({ tone: 'info', text: t('chat.reviewQueued') })
    } catch (error) {
      ui.getState().toast({ tone: 'error', text: describeError(error) })
    }
  }

  const remove = async (): Promise<void> => {
    if (!sessionId) return
    setConfirmDelete(false)
    try {
      await sessions.getState().remove(sessionId)
      chat.getState().newChat()
    } catch (error) {
      setProblem(describeError(error))
    }
  }

  return (
    <header className="pane-header">
      {editing !== null ? (
        <input
          className="title-input"
          value={editing}
          autoFocus
          aria-label={t('chat.renameLabel')}
          onChange={(event) => setEditing(event.target.value)}
          onBlur={() => void saveTitle()}
          onKeyDown={(event) => {
            if (event.key === 'Enter') void saveTitle()
            if (event.key === 'Escape') {
              event.stopPropagation()
              setEditing(null)
            }
          }}
        />
      ) : (
        <h1 className="pane-title" title={shown}>
          {shown}
        </h1>
      )}
      {/* An open incognito chat keeps the folder it started in (main cannot move a conversation it does not store). */}
      {sessionId && incognito ? null : <WorkspaceButton />}
      <ProjectInstructions />
      <ModelSwitcher />
      <TokenCount />
      {problem ? <span className="header-problem" role="alert">{problem}</span> : null}
      <div className="pane-actions">
        <IncognitoToggle />
        {/* An incognito conversation is not stored: nothing to rename, review or delete, only to close. */}
        {sessionId && incognito ? <CloseIncognitoButton /> : null}
        {sessionId && !incognito ? (
          <>
            <InstructionsButton />
            <ReloadToolsButton />
            <button type="button" className="icon-button" onClick={() => void reviewNow()} disabled={running} aria-label={t('chat.reviewNow')} title={t('chat.reviewNow')}>
              <Icon name="sparkle" />
            </button>
            <button type="button" className="icon-button" onClick={() => setEditing(title ?? '')} aria-label={t('chat.rename')} title={t('chat.rename')}>
              <Icon name="edit" />
            </button>
            <button type="button" className="icon-button" onClick={() => setConfirmDelete(true)} disabled={running} aria-label={t('chat.delete')} title={t('chat.delete')}>
              <Icon name="trash" />
            </button>
          </>
        ) : null}
      </div>
      {confirmDelete ? <DeleteSessionConfirm title={shown} onCancel={() => setConfirmDelete(false)} onConfirm={() => void remove()} /> : null}
    </header>
  )
}

import { useId, useState } from 'react'
import { describeWorkspaceProblem, folderName } from '../../../../shared/i18n/describe-workspace'
import { useApp, useChat, useSessions, useSettings, useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import { errorParams } from '../../ipc/client'
import { describeError } from '../../ipc/error-words'
import { WorkspaceDialog } from './WorkspaceDialog'

/**
 * The folder the open conversation works in, in the chat header: its name, the full path on hover
 * and on focus. Activating it changes the folder: the system picker on the desktop, a typed path in
 * browser mode. A conversation that exists works in the new folder from its next message.
 */
export function WorkspaceButton(): React.JSX.Element | null {
  const t = useT()
  const { chat, client, sessions, ui } = useApp()
  const tipId = useId()
  const sessionId = useChat((s) => s.sessionId)
  const own = useChat((s) => s.workspace)
  // The list follows changes made elsewhere (another window, the CLI); this window's own change patches it at once.
  const listed = useSessions((s) => (sessionId ? (s.list.find((item) => item.id === sessionId)?.workspace ?? null) : null))
  const fallback = useSettings((s) => s.info?.defaultWorkspace ?? null)
  const [typing, setTyping] = useState(false)
  const path = listed ?? own ?? fallback
  if (!path) return null

  /** Uses `folder`; answers why it was refused, in the user's language, or null. */
  const apply = async (folder: string): Promise<string | null> => {
    try {
      await chat.getState().setWorkspace(folder)
      const stored = chat.getState().workspace ?? folder
      if (sessionId) {
        sessions.setState({ list: sessions.getState().list.map((item) => (item.id === sessionId ? { ...item, workspace: stored } : item)) })
        ui.getState().toast({ tone: 'info', text: t('workspace.changed', { path: stored }) })
      }
      return null
    } catch (error) {
      return describeWorkspaceProblem(errorParams(error), t) ?? describeError(error)
    }
  }

  const change = async (): Promise<void> => {
    if (client.mode !== 'desktop') {
      setTyping(true)
      return
    }
    try {
      const { path: picked } = await client.request('window.pickFolder', { defaultPath: path })
      if (!picked) return
      const refused = await apply(picked)
      if (refused) ui.getState().toast({ tone: 'error', text: refused })
    } catch (error) {
      ui.getState().toast({ tone: 'error', text: describeError(error) })
    }
  }

  return (
    <div className="workspace">
      <button
        type="button"
        className="workspace-button"
        onClick={() => void change()}
        aria-label={t('workspace.change', { path })}
        aria-describedby={tipId}
        title={path}
      >
        <Icon name="folder" size={16} />
        <span className="workspace-name">{t('workspace.label', { name: folderName(path) })}</span>
      </button>
      <span id={tipId} role="tooltip" className="workspace-tip">
        {path}
      </span>
      {typing ? <WorkspaceDialog current={path} started={sessionId !== null} onSubmit={apply} onClose={() => setTyping(false)} /> : null}
    </div>
  )
}

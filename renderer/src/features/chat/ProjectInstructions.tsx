import { useEffect, useState } from 'react'
import type { ProjectInstructionFileView } from '../../../../shared/ipc/domain-project'
import { useApp, useChat, useSessions, useSettings, useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import { describeError } from '../../ipc/error-words'

/**
 * The repository's instruction files (AGENTS.md, CLAUDE.md…) the conversation's workspace gives it, in
 * the chat header: each opens in the system's editor (browser mode shows its path). A file left out
 * because it tries to instruct the assistant is marked so. Nothing shows when the workspace has none.
 */
export function ProjectInstructions(): React.JSX.Element | null {
  const t = useT()
  const { client, ui } = useApp()
  const sessionId = useChat((s) => s.sessionId)
  const own = useChat((s) => s.workspace)
  const listed = useSessions((s) => (sessionId ? (s.list.find((item) => item.id === sessionId)?.workspace ?? null) : null))
  const fallback = useSettings((s) => s.info?.defaultWorkspace ?? null)
  const workspace = listed ?? own ?? fallback
  const [files, setFiles] = useState<ProjectInstructionFileView[]>([])

  useEffect(() => {
    let current = true
    if (!workspace) {
      setFiles([])
      return
    }
    client
      .request('workspace.instructions', { workspace })
      .then((found) => current && setFiles(found))
      .catch(() => current && setFiles([]))
    return () => {
      current = false
    }
  }, [client, workspace, sessionId])

  if (!workspace || files.length === 0) return null

  const open = async (file: ProjectInstructionFileView): Promise<void> => {
    try {
      const { path, opened } = await client.request('workspace.openInstructions', { workspace, file: file.file })
      if (!opened) ui.getState().toast({ tone: 'info', text: path })
    } catch (error) {
      ui.getState().toast({ tone: 'error', text: describeError(error) })
    }
  }

  const loaded = files.filter((file) => file.loaded).map((file) => file.file)
  return (
    <div className="project-instructions" role="group" aria-label={t('project.instructions.label')} title={loaded.length ? t('project.instructions.loaded', { files: loaded.join(', ') }) : undefined}>
      <Icon name="file" size={14} />
      {files.map((file) => {
        const note = file.blocked
          ? t('project.instructions.blocked', { file: file.file, why: file.blocked.join(', ') })
          : file.cut
            ? t('project.instructions.cut', { file: file.file, chars: '8,000' })
            : t('project.instructions.open', { file: file.file })
        return (
          <button key={file.file} type="button" className={file.blocked ? 'instruction-file blocked' : 'instruction-file'} onClick={() => void open(file)} aria-label={note} title={note}>
            {file.blocked ? <Icon name="alert" size={12} /> : null}
            {file.file}
          </button>
        )
      })}
    </div>
  )
}

import { useEffect } from 'react'
import { useApp, useChat, useMemory, useSettings, useT } from '../../app/context'
import { Notice } from '../../components/Feedback'
import { Pane, PaneBody, PaneLoading } from '../../components/Pane'
import { ArchiveSection } from './ArchiveSection'
import { MemorySearch } from './MemorySearch'
import { MemoryStoreCard } from './MemoryStoreCard'

/** The bounded stores (and the current workspace's project memory), editable by hand (recorded in the timeline as your changes). */
export function MemoryView(): React.JSX.Element {
  const t = useT()
  const { memory } = useApp()
  const memoryView = useMemory((s) => s.memory)
  const userView = useMemory((s) => s.user)
  const projectView = useMemory((s) => s.project)
  const loadError = useMemory((s) => s.loadError)
  // The project shown is the open conversation's workspace, else the one a new conversation would use.
  const conversationWorkspace = useChat((s) => s.workspace)
  const defaultWorkspace = useSettings((s) => s.info?.defaultWorkspace ?? null)
  const workspace = conversationWorkspace ?? defaultWorkspace

  useEffect(() => {
    void memory.getState().load(workspace)
  }, [memory, workspace])

  return (
    <Pane label={t('nav.memory')} title={t('memory.title')}>
      <PaneBody lead={t('memory.lead')}>
        {loadError ? <Notice tone="error">{loadError}</Notice> : null}
        {memoryView && userView ? (
          <>
            <MemorySearch />
            <div className="memory-grid">
              <MemoryStoreCard target="user" view={userView} />
              <MemoryStoreCard target="memory" view={memoryView} />
              {projectView ? (
                <MemoryStoreCard target="project" view={projectView} lead={t('memory.project.lead', { name: projectView.name })} />
              ) : null}
            </div>
            <ArchiveSection />
          </>
        ) : loadError ? null : (
          <PaneLoading label={t('common.loading')} />
        )}
      </PaneBody>
    </Pane>
  )
}

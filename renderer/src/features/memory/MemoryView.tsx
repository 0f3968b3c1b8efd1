import { useEffect } from 'react'
import { useApp, useMemory, useT } from '../../app/context'
import { Notice } from '../../components/Feedback'
import { Pane, PaneBody, PaneLoading } from '../../components/Pane'
import { ArchiveSection } from './ArchiveSection'
import { MemorySearch } from './MemorySearch'
import { MemoryStoreCard } from './MemoryStoreCard'

/** Both bounded stores, editable by hand (recorded in the timeline as your changes). */
export function MemoryView(): React.JSX.Element {
  const t = useT()
  const { memory } = useApp()
  const memoryView = useMemory((s) => s.memory)
  const userView = useMemory((s) => s.user)
  const loadError = useMemory((s) => s.loadError)

  useEffect(() => {
    void memory.getState().load()
  }, [memory])

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

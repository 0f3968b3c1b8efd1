import { useEffect } from 'react'
import { useApp, useMemory, useT } from '../../app/context'
import { Notice, Spinner } from '../../components/Feedback'
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
    <section className="pane" aria-label={t('nav.memory')}>
      <header className="pane-header">
        <h1 className="pane-title">{t('memory.title')}</h1>
      </header>
      <div className="pane-scroll">
        <div className="pane-content">
          <p className="pane-lead">{t('memory.lead')}</p>
          {loadError ? <Notice tone="error">{loadError}</Notice> : null}
          {memoryView && userView ? (
            <div className="memory-grid">
              <MemoryStoreCard target="user" view={userView} />
              <MemoryStoreCard target="memory" view={memoryView} />
            </div>
          ) : loadError ? null : (
            <div className="pane-center">
              <Spinner label={t('common.loading')} />
            </div>
          )}
        </div>
      </div>
    </section>
  )
}

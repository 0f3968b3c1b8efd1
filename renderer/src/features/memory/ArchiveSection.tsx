import type { ArchiveEntryView } from '../../../../shared/ipc/contract-archive'
import type { MemoryStoreView } from '../../../../shared/ipc/domain'
import { useApp, useMemory, useT } from '../../app/context'
import { Notice } from '../../components/Feedback'
import { remainingAfter } from '../../stores/memory'
import { ArchiveEntryRow } from './ArchiveEntryRow'
import { useArchiveList } from './use-archive'

/** Whether `entry` fits back into its core store now (the Move back button is off when it does not). */
export function fitsBack(entry: ArchiveEntryView, views: { memory: MemoryStoreView | null; user: MemoryStoreView | null }): boolean {
  // A project's entry belongs to its own PROJECT.md, which the screen may not show: the move itself says when there is no room.
  if (entry.target === 'project') return true
  const view = views[entry.target]
  return view !== null && remainingAfter(view, entry.text) >= 0
}

/** The archive below the two stores: what did not fit or was taken out, each with its source, dates and actions. */
export function ArchiveSection(): React.JSX.Element {
  const t = useT()
  const { client } = useApp()
  const memory = useMemory((s) => s.memory)
  const user = useMemory((s) => s.user)
  const list = useArchiveList(client, memory ?? user)
  return (
    <section className="card archive-card" aria-labelledby="archive-title">
      <header className="card-head">
        <div>
          <h2 id="archive-title">
            {t('archive.title')} <span className="muted archive-count">{t('archive.count', { count: list.total.toLocaleString() })}</span>
          </h2>
          <p className="muted">{t('archive.lead')}</p>
        </div>
      </header>
      {list.error ? <Notice tone="error">{list.error}</Notice> : null}
      {list.loaded && list.entries.length === 0 && !list.error ? <p className="muted memory-empty">{t('archive.empty')}</p> : null}
      {list.entries.length ? (
        <ul className="memory-entries archive-entries">
          {list.entries.map((entry) => (
            <ArchiveEntryRow key={entry.id} entry={entry} fits={fitsBack(entry, { memory, user })} actions={list.actions} />
          ))}
        </ul>
      ) : null}
      {list.entries.length < list.total ? (
        <button type="button" className="secondary-button small archive-more" onClick={list.more}>
          {t('archive.more')}
        </button>
      ) : null}
    </section>
  )
}

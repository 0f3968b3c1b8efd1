import { useEffect, useMemo, useState } from 'react'
import type { ArchiveEntryView, CoreMatchView } from '../../../../shared/ipc/contract-archive'
import { useApp, useMemory, useT } from '../../app/context'
import { Notice } from '../../components/Feedback'
import { Icon } from '../../components/Icon'
import { describeError } from '../../ipc/error-words'
import { ArchiveEntryRow } from './ArchiveEntryRow'
import { fitsBack } from './ArchiveSection'
import { archiveActions } from './use-archive'

/** Waits this long after the last key before searching. */
const TYPING_PAUSE_MS = 200

/** One box over both stores and the archive: what matches, each marked with where it lives. */
export function MemorySearch(): React.JSX.Element {
  const t = useT()
  const { client } = useApp()
  const memory = useMemory((s) => s.memory)
  const user = useMemory((s) => s.user)
  const projectWorkspace = useMemory((s) => s.project?.workspace)
  const [query, setQuery] = useState('')
  const [results, setResults] = useState<{ core: CoreMatchView[]; archive: ArchiveEntryView[] } | null>(null)
  const [error, setError] = useState<string | null>(null)
  // The archive's actions work the same from a search result; `memory.changed` then reloads the stores, which searches again.
  const actions = useMemo(() => archiveActions(client, async () => {}), [client])

  useEffect(() => {
    const words = query.trim()
    if (!words) {
      setResults(null)
      return
    }
    let current = true
    const timer = setTimeout(() => {
      client
        .request('memory.search', projectWorkspace ? { query: words, workspace: projectWorkspace } : { query: words })
        .then((found) => current && (setResults(found), setError(null)))
        .catch((caught: unknown) => current && setError(describeError(caught)))
    }, TYPING_PAUSE_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [client, query, memory, user, projectWorkspace])

  const count = results ? results.core.length + results.archive.length : 0
  return (
    <section className="memory-search" aria-label={t('archive.search.label')}>
      <div className="memory-search-box" role="search">
        <Icon name="search" size={16} />
        <input type="search" className="text-input" autoComplete="off" spellCheck={false} value={query} placeholder={t('archive.search.placeholder')} aria-label={t('archive.search.label')} onChange={(event) => setQuery(event.target.value)} />
      </div>
      {error ? <Notice tone="error">{error}</Notice> : null}
      {results ? (
        <div className="memory-search-results" aria-live="polite">
          <p className="muted">{count ? t('archive.search.results', { count }) : t('archive.search.none', { query: query.trim() })}</p>
          {results.core.length ? (
            <ul className="memory-entries">
              {results.core.map((match) => (
                <li key={`${match.target}:${match.position}`} className="memory-entry">
                  <p className="memory-text">{match.text}</p>
                  <p className="memory-info">
                    <span className="badge archive-where core">{t('archive.where.core')}</span>
                    <span>{t(`archive.store.${match.target}`)}</span>
                  </p>
                </li>
              ))}
            </ul>
          ) : null}
          {results.archive.length ? (
            <ul className="memory-entries archive-entries">
              {results.archive.map((entry) => (
                <ArchiveEntryRow key={entry.id} entry={entry} fits={fitsBack(entry, { memory, user })} actions={actions} showWhere />
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  )
}

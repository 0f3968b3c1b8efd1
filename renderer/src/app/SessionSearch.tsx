import { useEffect, useRef } from 'react'
import { snippetParts } from '../stores/sessions'
import { Highlighted, Spinner } from '../components/Feedback'
import { Icon } from '../components/Icon'
import { shortTime, useNow } from '../lib/time'
import { useApp, useLocale, useSessions, useT, useUi } from './context'

/** The search box: Ctrl/Cmd+K focuses it, typing searches every past conversation. */
export function SearchBox(): React.JSX.Element {
  const t = useT()
  const { sessions } = useApp()
  const query = useSessions((s) => s.query)
  const focusRequest = useUi((s) => s.searchFocusRequest)
  const input = useRef<HTMLInputElement>(null)

  useEffect(() => {
    if (focusRequest) {
      input.current?.focus()
      input.current?.select()
    }
  }, [focusRequest])

  useEffect(() => {
    if (!query.trim()) return
    const timer = setTimeout(() => void sessions.getState().search(query), 220)
    return () => clearTimeout(timer)
  }, [query, sessions])

  const mac = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform)
  return (
    <div className="search-box">
      <Icon name="search" size={15} />
      <input
        ref={input}
        type="search"
        value={query}
        placeholder={t('search.placeholder')}
        aria-label={t('search.label')}
        onChange={(event) => sessions.getState().setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault()
            sessions.getState().clearSearch()
            input.current?.blur()
          }
        }}
      />
      {query ? null : <kbd className="search-kbd">{mac ? '⌘K' : 'Ctrl K'}</kbd>}
    </div>
  )
}

/** Search hits with the matched words highlighted (as elements). Clicking one opens it at the match. */
export function SearchResults(): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const now = useNow()
  const { chat, sessions, ui } = useApp()
  const hits = useSessions((s) => s.hits)
  const searching = useSessions((s) => s.searching)
  const error = useSessions((s) => s.searchError)

  if (error) return <p className="sidebar-message error">{error}</p>
  if (hits === null || (searching && !hits.length)) {
    return (
      <div className="sidebar-message">
        <Spinner label={t('search.searching')} />
      </div>
    )
  }
  if (!hits.length) return <p className="sidebar-message">{t('search.none')}</p>
  return (
    <ul className="search-results" aria-label={t('search.results')}>
      {hits.map((hit) => (
        <li key={hit.sessionId}>
          <button
            type="button"
            className="search-hit"
            onClick={() => {
              ui.getState().navigate('chat')
              void chat.getState().openSession(hit.sessionId, { focusMessageId: hit.matchMessageId })
              sessions.getState().clearSearch()
            }}
          >
            <span className="search-hit-title">
              <span>{hit.title || t('chat.untitled')}</span>
              <time>{shortTime(hit.startedAt, now, locale)}</time>
            </span>
            <span className="search-hit-snippet">
              <Highlighted parts={snippetParts(hit.snippet)} />
            </span>
          </button>
        </li>
      ))}
    </ul>
  )
}

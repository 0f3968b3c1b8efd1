import { useCallback, useEffect, useId, useRef, useState } from 'react'
import type { SearchHit } from '../../../shared/ipc/domain'
import { snippetParts } from '../stores/sessions'
import { Highlighted, Spinner } from '../components/Feedback'
import { Icon } from '../components/Icon'
import { shortTime, useNow } from '../lib/time'
import type { AppState } from './app-state'
import { useApp, useLocale, useSessions, useT, useUi } from './context'
import './session-search.css'

/**
 * The search box and its hits as one ARIA combobox: focus stays in the box, ↑/↓ move the highlighted
 * hit (`aria-activedescendant`), Enter opens it (or the first hit), Esc clears the search and gives
 * focus back to where it was before (over the screen, a second Esc puts the sidebar away). The Sidebar holds this state, since the box and the hits sit
 * apart in it.
 */
export interface SearchCombobox {
  listId: string
  /** The highlighted hit's index, -1 for none. */
  active: number
  setActive(index: number): void
  optionId(index: number): string
}

export function useSearchCombobox(): SearchCombobox {
  const listId = useId()
  const [active, setActive] = useState(-1)
  const hits = useSessions((s) => s.hits)
  // New hits, a new list: nothing highlighted until the user moves.
  useEffect(() => setActive(-1), [hits])
  const optionId = useCallback((index: number) => `${listId}-hit-${index}`, [listId])
  return { listId, active, setActive, optionId }
}

/** Opens a hit's conversation at the matching message and puts the search away. */
function openHit(app: Pick<AppState, 'chat' | 'sessions' | 'ui'>, hit: SearchHit): void {
  app.ui.getState().navigate('chat')
  void app.chat.getState().openSession(hit.sessionId, { focusMessageId: hit.matchMessageId })
  app.sessions.getState().clearSearch()
  app.ui.getState().setSidebarPeek(false)
  // The user goes on in that conversation: the message box takes the keyboard (once the chat screen is there).
  requestAnimationFrame(() => document.querySelector<HTMLElement>('main .composer textarea')?.focus({ preventScroll: true }))
}

/** The search box: Ctrl/Cmd+K focuses it, typing searches every past conversation. */
export function SearchBox({ combo }: { combo: SearchCombobox }): React.JSX.Element {
  const t = useT()
  const app = useApp()
  const { sessions } = app
  const query = useSessions((s) => s.query)
  const hits = useSessions((s) => s.hits)
  const focusRequest = useUi((s) => s.searchFocusRequest)
  const input = useRef<HTMLInputElement>(null)
  // Where focus was before the box took it (Ctrl/Cmd+K from the composer, say): Esc gives it back.
  const cameFrom = useRef<HTMLElement | null>(null)

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

  const count = query.trim() ? (hits?.length ?? 0) : 0
  const expanded = count > 0

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>): void => {
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && count > 0) {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      // Up from the first hit goes back to the text; Down from the last stays on it.
      combo.setActive(Math.max(-1, Math.min(count - 1, combo.active + step)))
    } else if (event.key === 'Enter' && count > 0 && hits) {
      event.preventDefault()
      openHit(app, hits[Math.max(0, combo.active)])
    } else if (event.key === 'Escape') {
      const peek = app.ui.getState().sidebarPeek
      // Shown over the screen, an empty box lets Esc through: the sidebar's own Esc puts it away.
      if (peek && !query) return
      event.preventDefault()
      sessions.getState().clearSearch()
      if (peek) return
      const back = cameFrom.current
      if (back?.isConnected && back !== input.current) back.focus()
      else input.current?.blur()
    }
  }

  const mac = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform)
  return (
    <div className="search-box">
      <Icon name="search" size={15} />
      <input
        ref={input}
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={combo.listId}
        aria-activedescendant={expanded && combo.active >= 0 ? combo.optionId(combo.active) : undefined}
        value={query}
        placeholder={t('search.placeholder')}
        aria-label={t('search.label')}
        onFocus={(event) => {
          cameFrom.current = event.relatedTarget instanceof HTMLElement ? event.relatedTarget : null
        }}
        onChange={(event) => sessions.getState().setQuery(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {query ? null : <kbd className="search-kbd">{mac ? '⌘K' : 'Ctrl K'}</kbd>}
    </div>
  )
}

/** Search hits with the matched words highlighted (as elements): the combobox's listbox. A click opens one at the match. */
export function SearchResults({ combo }: { combo: SearchCombobox }): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const now = useNow()
  const app = useApp()
  const hits = useSessions((s) => s.hits)
  const searching = useSessions((s) => s.searching)
  const error = useSessions((s) => s.searchError)
  const list = useRef<HTMLUListElement>(null)

  // The highlighted hit stays in sight as the arrows move through a long list.
  const { active, optionId } = combo
  useEffect(() => {
    if (active < 0) return
    const option = list.current?.querySelector<HTMLElement>(`[id="${optionId(active)}"]`)
    option?.scrollIntoView?.({ block: 'nearest' })
  }, [active, optionId])

  if (error) return <p className="sidebar-message error">{error}</p>
  if (hits === null || (searching && !hits.length)) {
    return (
      <div className="sidebar-message">
        <Spinner label={t('search.searching')} />
      </div>
    )
  }
  if (!hits.length) {
    return (
      <p className="sidebar-message" role="status">
        {t('search.none')}
      </p>
    )
  }
  return (
    <ul ref={list} id={combo.listId} className="search-results" role="listbox" aria-label={t('search.results')}>
      {hits.map((hit, index) => (
        <li
          key={hit.sessionId}
          id={combo.optionId(index)}
          role="option"
          aria-selected={index === combo.active}
          className={index === combo.active ? 'search-hit active' : 'search-hit'}
          // The box keeps focus (it is the combobox); a click only opens.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => openHit(app, hit)}
        >
          <span className="search-hit-title">
            <span>{hit.title || t('chat.untitled')}</span>
            <time>{shortTime(hit.startedAt, now, locale)}</time>
          </span>
          <span className="search-hit-snippet">
            <Highlighted parts={snippetParts(hit.snippet)} />
          </span>
        </li>
      ))}
    </ul>
  )
}

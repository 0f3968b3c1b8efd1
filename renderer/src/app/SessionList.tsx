import { useCallback, useMemo, useRef, useState } from 'react'
import { GroupedVirtuoso, type GroupedVirtuosoHandle } from 'react-virtuoso'
import type { SessionSummary } from '../../../shared/ipc/domain'
import type { MessageKey } from '../../../shared/i18n'
import { dateBucket, type DateBucket } from '../stores/sessions'
import { listOrder } from '../stores/session-pages'
import { useNow } from '../lib/time'
import { Spinner } from '../components/Feedback'
import { useApp, useChat, useSessions, useT, useUi } from './context'
import { SessionRow } from './SessionRow'

const bucketLabels: Record<DateBucket, MessageKey> = {
  today: 'sessions.today',
  yesterday: 'sessions.yesterday',
  week: 'sessions.week',
  older: 'sessions.older'
}

export interface SidebarSections {
  /** Every loaded row in the order shown. */
  rows: SessionSummary[]
  /** Consecutive runs of `rows`, each under its heading. */
  groups: Array<{ label: MessageKey; count: number }>
}

/**
 * (When shown) the archived ones first, right under their toggle at the top, so they are reachable
 * at once whatever the length of the list; then pinned, then by last activity in date sections.
 */
export function sidebarSections(list: SessionSummary[], archived: SessionSummary[], now: number): SidebarSections {
  const rows = [...list].sort(listOrder)
  const groups: SidebarSections['groups'] = archived.length ? [{ label: 'sessions.archived', count: archived.length }] : []
  for (const session of rows) {
    const label = session.pinned ? 'sessions.pinned' : bucketLabels[dateBucket(session.updatedAt, now)]
    const last = groups.at(-1)
    if (last?.label === label) last.count++
    else groups.push({ label, count: 1 })
  }
  return { rows: [...[...archived].sort(listOrder), ...rows], groups }
}

const moves: Record<string, (index: number, last: number) => number> = {
  ArrowDown: (index) => index + 1,
  ArrowUp: (index) => index - 1,
  Home: () => 0,
  End: (_, last) => last
}

/**
 * The conversations, virtualised: only the rows in view (plus a margin) are in the DOM, so 10,000
 * conversations cost what 30 do; the next page loads as the end comes into view. Arrow keys, Home
 * and End move between rows, scrolling the one they reach into view.
 */
export function SessionList(): React.JSX.Element {
  const t = useT()
  const { sessions } = useApp()
  const pages = useSessions((s) => s.pages)
  const archivedPages = useSessions((s) => s.archivedPages)
  const hasArchived = useSessions((s) => s.hasArchived)
  const loaded = useSessions((s) => s.loaded)
  const loadError = useSessions((s) => s.loadError)
  const running = useSessions((s) => s.running)
  const openId = useChat((s) => s.sessionId)
  const onChat = useUi((s) => s.view === 'chat')
  const now = useNow()
  const virtuoso = useRef<GroupedVirtuosoHandle>(null)
  const nav = useRef<HTMLElement | null>(null)
  // The sidebar's scroll area scrolls the list (and whatever the sidebar shows above it).
  const [scrollParent, setScrollParent] = useState<HTMLElement | null>(null)
  const attach = useCallback((node: HTMLElement | null) => {
    nav.current = node
    setScrollParent((node?.closest('.sidebar-scroll') as HTMLElement | null) ?? null)
  }, [])
  const { rows, groups } = useMemo(() => sidebarSections(pages.rows, archivedPages.rows, now), [pages.rows, archivedPages.rows, now])

  // A row scrolled into view is rendered a frame or two later: focus it once it is there.
  const focusRow = useCallback((index: number) => {
    const focus = (framesLeft: number): void => {
      const row = nav.current?.querySelector<HTMLElement>(`.session-row[data-row="${index}"]`)
      if (row) row.focus()
      else if (framesLeft > 0) requestAnimationFrame(() => focus(framesLeft - 1))
    }
    virtuoso.current?.scrollIntoView({ index, done: () => focus(10) })
  }, [])

  if (loadError && !rows.length) return <p className="sidebar-message error">{loadError}</p>
  if (loaded && !rows.length && !hasArchived) return <p className="sidebar-message">{t('sessions.empty')}</p>

  return (
    <nav
      ref={attach}
      className="session-list"
      aria-label={t('sessions.label')}
      onKeyDown={(event) => {
        const row = (event.target as HTMLElement).closest<HTMLElement>('.session-row')
        const move = moves[event.key]
        if (!row || !move || event.altKey || event.ctrlKey || event.metaKey) return
        const target = move(Number(row.dataset.row), rows.length - 1)
        if (target < 0 || target >= rows.length) return
        event.preventDefault()
        focusRow(target)
      }}
    >
      {scrollParent ? (
        <GroupedVirtuoso
          ref={virtuoso}
          customScrollParent={scrollParent}
          groupCounts={groups.map((group) => group.count)}
          groupContent={(index) => (
            <div className="sidebar-heading" role="heading" aria-level={2}>
              {t(groups[index].label)}
            </div>
          )}
          computeItemKey={(index) => rows[index]?.id ?? index}
          itemContent={(index) => {
            const session = rows[index]
            return session ? <SessionRow session={session} index={index} active={onChat && session.id === openId} running={Boolean(running[session.id])} now={now} /> : null
          }}
          endReached={() => void sessions.getState().loadMore()}
          increaseViewportBy={{ top: 200, bottom: 400 }}
          components={{ Header: ArchivedToggle, Footer: ListFooter }}
        />
      ) : null}
    </nav>
  )
}

/** Above the first row, when any conversation is archived: shows or hides them. */
function ArchivedToggle(): React.JSX.Element | null {
  const t = useT()
  const { sessions } = useApp()
  const hasArchived = useSessions((s) => s.hasArchived)
  const shown = useSessions((s) => s.archivedShown)
  if (!hasArchived) return null
  return (
    <button type="button" className="archived-toggle" aria-expanded={shown} onClick={() => void sessions.getState().showArchived(!shown)}>
      {shown ? t('sessions.hideArchived') : t('sessions.showArchived')}
    </button>
  )
}

/** Under the last loaded row: a spinner while a page loads (or why it did not). */
function ListFooter(): React.JSX.Element {
  const t = useT()
  const loadingMore = useSessions((s) => s.loadingMore)
  const error = useSessions((s) => s.loadError)
  return (
    <div className="session-list-footer">
      {loadingMore ? <Spinner label={t('sessions.loadingMore')} /> : null}
      {error && !loadingMore ? <p className="sidebar-message error">{error}</p> : null}
    </div>
  )
}

import { useCallback, useEffect, useMemo, useRef } from 'react'
import { Virtuoso, type FollowOutput, type VirtuosoHandle } from 'react-virtuoso'
import { useApp, useChat, useT } from '../../app/context'
import { Spinner } from '../../components/Feedback'
import { MAX_PAGE_SIZE } from '../../stores/chat-pages'
import { lastIndexWhere, type ChatItem } from '../../stores/chat-items'
import { buildRows, rowOfMessage, rowsOverlap, rowsPrepended, type ListRow } from './chat-rows'
import { LearnedNote } from './LearnedNotes'
import { MessageRow, StreamingMessage } from './MessageRow'
import { useReadingPlaceKeeper } from './reading-place'

/** The list's first index starts high, so older pages can be put in front of it (it must stay positive). */
const FIRST_INDEX = 1_000_000
/** Rendered beyond the viewport, so a fast scroll rarely shows blank space. */
const MARGIN = { top: 800, bottom: 800 }
/** Within this of the bottom counts as "at the bottom": an answer streaming in keeps it in view. */
const AT_BOTTOM = 80
const FLASH_MS = 1600
/** Rows from the end of what is loaded at which the next page is asked for, before the user gets there. */
const PREFETCH_ROWS = 20

type Row = ListRow | { kind: 'live'; key: 'live' }

interface ListContext {
  canRegenerate: number
}

/**
 * The conversation as a virtualised list: the DOM holds what is on screen plus a margin, whatever the
 * length of the history. Opens at the bottom (or on a search hit), follows an answer as it streams
 * only while you are at the bottom, loads older pages as you scroll up without moving what you read.
 */
export function MessageList(): React.JSX.Element {
  const { chat } = useApp()
  const items = useChat((s) => s.items)
  const notes = useChat((s) => s.learnedNotes)
  const live = useChat((s) => (s.running || s.sending) && (s.streaming !== '' || !runningTool(s.items)))
  const focusMessageId = useChat((s) => s.focusMessageId)
  const sessionId = useChat((s) => s.sessionId)
  const busy = useChat((s) => s.running || s.sending)
  const virtuoso = useRef<VirtuosoHandle>(null)
  const scroller = useRef<HTMLElement | null>(null)

  const rows = useMemo(() => buildRows(items, notes), [items, notes])
  const data = useMemo<Row[]>(() => (live ? [...rows, { kind: 'live', key: 'live' }] : rows), [rows, live])
  const list = useListIdentity(sessionId, rows)
  const canRegenerate = useMemo(() => (!busy && regenerable(items) ? lastIndexWhere(items, (item) => item.kind === 'assistant') : -1), [items, busy])

  // Where the list opens: on the message asked for, at the top for the conversation's first page
  // (a jump to its start), else at the bottom. Read once per list (keyed on it), since later rows must
  // not move a list the user is already scrolling.
  const opening = useMemo(() => focusIndex(rows, focusMessageId) ?? (atStart(chat.getState()) ? ({ index: 0, align: 'start' } as const) : ({ index: 'LAST', align: 'end' } as const)), [list.key])

  // The message the list opened on is in place already; scrolling again would cut that short.
  const openedOn = useRef<{ key: number; id: number | null }>({ key: list.key, id: focusMessageId })
  if (openedOn.current.key !== list.key) openedOn.current = { key: list.key, id: focusMessageId }

  useEffect(() => {
    if (focusMessageId === null || !items.length) return
    const index = rowOfMessage(rows, focusMessageId)
    if (index >= 0) {
      if (openedOn.current.id !== focusMessageId) virtuoso.current?.scrollToIndex({ index, align: 'center' })
      openedOn.current = { ...openedOn.current, id: null }
      return flashWhenShown(() => scroller.current, focusMessageId, () => chat.setState({ focusMessageId: null }))
    }
    chat.setState({ focusMessageId: null })
  }, [focusMessageId, items, rows, chat])

  useKeepFocus(scroller, list.key)
  // The first page replaces the loaded ones (a new list opening at its top), or joins them: then the
  // list is scrolled up to it once it is in.
  useHomeKey(scroller, list.key, () => {
    void chat
      .getState()
      .loadOldest()
      .then(() => requestAnimationFrame(() => virtuoso.current?.scrollToIndex({ index: 0, align: 'start' })))
  })

  // Whether the user is at the bottom, from their own scrolling: an answer growing below does not
  // scroll, so it cannot unpin the list the way Virtuoso's own "at bottom" (measured after growth) does.
  const pinned = useRef(true)
  const pinnedFor = useRef(-1)
  if (list.key !== pinnedFor.current) {
    pinnedFor.current = list.key
    pinned.current = opening.index === 'LAST'
  }
  const holdReadingPlace = useReadingPlaceKeeper(
    scroller,
    list.key,
    useCallback(() => chat.getState().loadingOlder, [chat]),
    useCallback(() => pinned.current, [])
  )
  const followOutput: FollowOutput = useCallback((atBottom: boolean) => (atBottom || pinned.current || lastIsOwnMessage(chat.getState().items) ? 'auto' : false), [chat])
  const loadOlder = useCallback(
    (limit?: number) => {
      const state = chat.getState()
      if (!state.hasOlder || state.loadingOlder) return
      holdReadingPlace()
      void state.loadOlder(limit)
    },
    [chat, holdReadingPlace]
  )
  const loadNewer = useCallback(() => {
    const state = chat.getState()
    if (state.hasNewer) void state.loadNewer()
  }, [chat])
  const context = useMemo<ListContext>(() => ({ canRegenerate }), [canRegenerate])

  return (
    <Virtuoso<Row, ListContext>
      key={list.key}
      ref={virtuoso}
      className="message-scroll"
      scrollerRef={(element) => {
        scroller.current = element instanceof HTMLElement ? element : null
      }}
      data={data}
      context={context}
      firstItemIndex={list.firstIndex}
      initialTopMostItemIndex={opening}
      computeItemKey={(_, row) => row.key}
      itemContent={(_, row, { canRegenerate: regenerateAt }) => <RowView row={row} regenerateAt={regenerateAt} />}
      followOutput={followOutput}
      onScroll={(event) => {
        const element = event.currentTarget
        pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < AT_BOTTOM
      }}
      totalListHeightChanged={() => {
        const element = scroller.current
        if (pinned.current && element) element.scrollTop = element.scrollHeight
      }}
      atBottomThreshold={AT_BOTTOM}
      increaseViewportBy={MARGIN}
      // At the first loaded row already: the user outran the prefetch, so the rest comes in bigger pages.
      startReached={() => loadOlder(MAX_PAGE_SIZE)}
      endReached={loadNewer}
      itemsRendered={(rendered) => {
        const first = rendered[0]?.originalIndex
        const last = rendered[rendered.length - 1]?.originalIndex
        if (first !== undefined && first < PREFETCH_ROWS) loadOlder(first === 0 ? MAX_PAGE_SIZE : undefined)
        if (last !== undefined && last >= data.length - PREFETCH_ROWS) loadNewer()
      }}
      components={{ Header: ListTop, Footer: ListBottom }}
    />
  )
}

function RowView({ row, regenerateAt }: { row: Row; regenerateAt: number }): React.JSX.Element {
  const { chat } = useApp()
  if (row.kind === 'live') {
    return (
      <div className="message-cell" data-row-key={row.key}>
        <LiveAnswer />
      </div>
    )
  }
  const { layout } = row
  const className = ['message-cell', layout.toolBeforeTool ? 'tool-before-tool' : '', layout.beforeTool ? 'before-tool' : '', layout.last ? 'last' : ''].filter(Boolean).join(' ')
  return (
    <div className={className} data-row-key={row.key}>
      {row.kind === 'note' ? (
        <LearnedNote note={row.note} />
      ) : (
        <MessageRow item={row.item} onRegenerate={row.index === regenerateAt ? chat.getState().regenerate : undefined} />
      )}
    </div>
  )
}

/** The answer being written; only this row re-renders on each streamed frame. */
function LiveAnswer(): React.JSX.Element {
  const streaming = useChat((s) => s.streaming)
  return <StreamingMessage text={streaming} />
}

/** Reads the loading flag itself: passed in the list's context, it would re-render every row. */
function ListTop(): React.JSX.Element {
  const t = useT()
  const loadingOlder = useChat((s) => s.loadingOlder)
  return <div className="message-list-top">{loadingOlder ? <Spinner label={t('common.loading')} /> : null}</div>
}

function ListBottom(): React.JSX.Element {
  return <div className="message-list-bottom" />
}

/**
 * The list starts afresh for another conversation (not when a new one gets its id) or rows with
 * nothing in common (a jump from a search hit to the newest page), and lowers its first index by the
 * rows an older page put in front, which keeps the reading position in place. Kept in a ref updated
 * during render: Virtuoso needs the index in the same render as the rows.
 */
function useListIdentity(sessionId: string | null, rows: ListRow[]): { key: number; firstIndex: number } {
  const state = useRef({ sessionId, rows, key: 0, firstIndex: FIRST_INDEX })
  const current = state.current
  if (current.sessionId !== sessionId) {
    state.current = { sessionId, rows, key: current.sessionId === null ? current.key : current.key + 1, firstIndex: FIRST_INDEX }
  } else if (current.rows.length && rows.length && !rowsOverlap(current.rows, rows)) {
    state.current = { sessionId, rows, key: current.key + 1, firstIndex: FIRST_INDEX }
  } else if (current.rows !== rows) {
    state.current = { ...current, rows, firstIndex: Math.max(0, current.firstIndex - rowsPrepended(current.rows, rows)) }
  }
  return state.current
}

/**
 * Rows unmount as they scroll away; when the focused control goes with its row, focus moves to the
 * list itself rather than to the page, so Tab carries on from the messages on screen.
 */
function useKeepFocus(scroller: React.RefObject<HTMLElement | null>, listKey: number): void {
  useEffect(() => {
    const element = scroller.current
    if (!element) return
    let inside = false
    const rescue = (): void => {
      if (inside && (document.activeElement === document.body || document.activeElement === null)) element.focus({ preventScroll: true })
    }
    const onFocusIn = (): void => {
      inside = true
    }
    const onFocusOut = (event: FocusEvent): void => {
      const next = event.relatedTarget
      if (next instanceof Node && element.contains(next)) return
      const left = event.target
      // Focus moved on, or a click landed outside: the list lets go. Its row unmounting: focus stays here.
      queueMicrotask(() => {
        if (left instanceof Node && !left.isConnected) rescue()
        else inside = false
      })
    }
    // Browsers differ on whether removing the focused element sends focusout at all.
    const observer = new MutationObserver(rescue)
    element.addEventListener('focusin', onFocusIn)
    element.addEventListener('focusout', onFocusOut)
    observer.observe(element, { childList: true, subtree: true })
    return () => {
      element.removeEventListener('focusin', onFocusIn)
      element.removeEventListener('focusout', onFocusOut)
      observer.disconnect()
    }
  }, [scroller, listKey])
}

/**
 * Home (or Ctrl/Cmd+Home) in the list goes to the conversation's first message, not only to the top
 * of the loaded pages.
 */
function useHomeKey(scroller: React.RefObject<HTMLElement | null>, listKey: number, toStart: () => void): void {
  const latest = useRef(toStart)
  latest.current = toStart
  useEffect(() => {
    const element = scroller.current
    if (!element) return
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key !== 'Home' || event.altKey || event.shiftKey || event.defaultPrevented || editing(event.target)) return
      event.preventDefault()
      latest.current()
    }
    element.addEventListener('keydown', onKeyDown)
    return () => element.removeEventListener('keydown', onKeyDown)
  }, [scroller, listKey])
}

/** Home moves the caret in a field (a message being edited), not the list. */
function editing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select') !== null)
}

/** The loaded rows start at the conversation's first message and are not its newest ones. */
function atStart(state: { hasOlder: boolean; hasNewer: boolean }): boolean {
  return !state.hasOlder && state.hasNewer
}

function focusIndex(rows: ListRow[], id: number | null): { index: number; align: 'center' } | null {
  if (id === null) return null
  const index = rowOfMessage(rows, id)
  return index >= 0 ? { index, align: 'center' } : null
}

/** Flashes the message once its row is on screen (a scroll to a far row renders it a frame or two later). */
function flashWhenShown(scroller: () => HTMLElement | null, id: number, done: () => void): () => void {
  let frames = 0
  let handle = requestAnimationFrame(function look() {
    const target = scroller()?.querySelector<HTMLElement>(`[data-message-id="${id}"]`)
    if (target || ++frames > 30) {
      if (target) {
        target.classList.add('flash')
        setTimeout(() => target.classList.remove('flash'), FLASH_MS)
      }
      done()
      return
    }
    handle = requestAnimationFrame(look)
  })
  return () => cancelAnimationFrame(handle)
}

/** While a tool runs its own row shows the activity; no "thinking" dots underneath. */
function runningTool(items: ChatItem[]): boolean {
  const last = items[items.length - 1]
  return last?.kind === 'tool' && last.result === null
}

/** Regenerate is offered on the last answer when it answers the last message. */
function regenerable(items: ChatItem[]): boolean {
  const lastUser = lastIndexWhere(items, (item) => item.kind === 'user')
  return lastUser >= 0 && lastIndexWhere(items, (item) => item.kind === 'assistant') > lastUser
}

/** A message you just sent brings the list down to it, wherever you were reading. */
function lastIsOwnMessage(items: ChatItem[]): boolean {
  const last = items[items.length - 1]
  return last?.kind === 'user' && last.pending === true
}

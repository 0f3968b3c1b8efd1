import { Fragment, useEffect, useLayoutEffect, useMemo, useRef } from 'react'
import { useApp, useChat } from '../../app/context'
import { lastIndexWhere, type ChatItem } from '../../stores/chat-items'
import { LearnedNote, placeNotes } from './LearnedNotes'
import { MessageRow, StreamingMessage } from './MessageRow'

/** The conversation, pinned to the bottom while you are there; scrolling up lets you read in peace. */
export function MessageList(): React.JSX.Element {
  const { chat } = useApp()
  const items = useChat((s) => s.items)
  const streaming = useChat((s) => s.streaming)
  const running = useChat((s) => s.running)
  const sending = useChat((s) => s.sending)
  const focusMessageId = useChat((s) => s.focusMessageId)
  const sessionId = useChat((s) => s.sessionId)
  const notes = useChat((s) => s.learnedNotes)
  const placed = useMemo(() => placeNotes(items, notes), [items, notes])
  const scroller = useRef<HTMLDivElement>(null)
  const pinned = useRef(true)

  const lastAssistant = lastIndexWhere(items, (item) => item.kind === 'assistant')
  const lastUser = lastIndexWhere(items, (item) => item.kind === 'user')
  const canRegenerate = !running && !sending && lastAssistant > lastUser && lastUser >= 0
  const regenerate = chat.getState().regenerate

  useEffect(() => {
    pinned.current = true
  }, [sessionId])

  useLayoutEffect(() => {
    const element = scroller.current
    if (!element || focusMessageId !== null) return
    if (pinned.current) element.scrollTop = element.scrollHeight
  }, [items, streaming, running, focusMessageId])

  useEffect(() => {
    if (focusMessageId === null || !items.length) return
    const target = scroller.current?.querySelector<HTMLElement>(`[data-message-id="${focusMessageId}"]`)
    if (target) {
      pinned.current = false
      target.scrollIntoView?.({ block: 'center' })
      target.classList.add('flash')
      setTimeout(() => target.classList.remove('flash'), 1600)
    }
    chat.setState({ focusMessageId: null })
  }, [focusMessageId, items, chat])

  const showLive = running || sending
  return (
    <div
      className="message-scroll"
      ref={scroller}
      onScroll={(event) => {
        const element = event.currentTarget
        pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80
      }}
    >
      <div className="message-column">
        {placed.get(-1)?.map((note) => <LearnedNote key={note.reviewId} note={note} />)}
        {items.map((item, index) => (
          <Fragment key={item.key}>
            <MessageRow item={item} onRegenerate={canRegenerate && index === lastAssistant ? regenerate : undefined} />
            {placed.get(index)?.map((note) => <LearnedNote key={note.reviewId} note={note} />)}
          </Fragment>
        ))}
        {showLive && (streaming || !runningTool(items)) ? <StreamingMessage text={streaming} /> : null}
      </div>
    </div>
  )
}

/** While a tool runs its own row shows the activity; no "thinking" dots underneath. */
function runningTool(items: ChatItem[]): boolean {
  const last = items[items.length - 1]
  return last?.kind === 'tool' && last.result === null
}

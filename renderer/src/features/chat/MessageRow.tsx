import { memo, useState } from 'react'
import { useT } from '../../app/context'
import { CopyButton } from '../../components/CopyButton'
import { Icon } from '../../components/Icon'
import { Markdown } from '../../components/Markdown'
import type { AssistantItem, ChatItem, CompactedItem, NoteItem, SummaryItem, UserItem } from '../../stores/chat-items'
import { ToolCallRow } from './ToolCallRow'

export interface RowProps {
  item: ChatItem
  /** Regenerate is offered on the last answer only, and not while a turn runs. */
  onRegenerate?: () => void
}

/** One conversation row. Memoised on the (immutable) item, so streaming re-renders only the live row. */
export const MessageRow = memo(function MessageRow({ item, onRegenerate }: RowProps): React.JSX.Element | null {
  switch (item.kind) {
    case 'user':
      return <UserMessage item={item} />
    case 'assistant':
      return <AssistantMessage item={item} onRegenerate={onRegenerate} />
    case 'tool':
      return <ToolCallRow item={item} />
    case 'summary':
      return <SummaryNote item={item} />
    case 'compacted':
      return <CompactedNote item={item} />
    case 'note':
      return <CompressedNote item={item} />
  }
})

function UserMessage({ item }: { item: UserItem }): React.JSX.Element {
  return (
    <div className={`message user${item.pending ? ' pending' : ''}`} data-message-id={item.id ?? undefined}>
      <div className="user-bubble">{item.text}</div>
    </div>
  )
}

function AssistantMessage({ item, onRegenerate }: { item: AssistantItem; onRegenerate?: () => void }): React.JSX.Element {
  const t = useT()
  return (
    <div className="message assistant" data-message-id={item.id ?? undefined}>
      <Markdown text={item.text} />
      {item.interrupted ? <div className="message-note">{t('chat.stopped')}</div> : null}
      <div className="message-actions">
        <CopyButton text={item.text} compact />
        {onRegenerate ? (
          <button type="button" className="icon-button small" onClick={onRegenerate} aria-label={t('chat.regenerate')} title={t('chat.regenerate')}>
            <Icon name="regenerate" size={15} />
          </button>
        ) : null}
      </div>
    </div>
  )
}

/** The answer being written right now. */
export function StreamingMessage({ text }: { text: string }): React.JSX.Element {
  const t = useT()
  return (
    <div className="message assistant streaming" aria-live="polite" aria-busy="true">
      {text ? <Markdown text={text} /> : <div className="thinking" aria-label={t('chat.thinking')}><span /><span /><span /></div>}
    </div>
  )
}

function SummaryNote({ item }: { item: SummaryItem }): React.JSX.Element {
  const t = useT()
  const [open, setOpen] = useState(false)
  return (
    <div className="chat-note">
      <button type="button" className="chat-note-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={13} />
        {t('chat.summary')}
      </button>
      {open ? <Markdown className="chat-note-body" text={item.text} /> : null}
    </div>
  )
}

function CompactedNote({ item }: { item: CompactedItem }): React.JSX.Element {
  const t = useT()
  const [open, setOpen] = useState(false)
  return (
    <div className="chat-note">
      <button type="button" className="chat-note-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={13} />
        {t('chat.compacted', { count: item.items.length })}
      </button>
      {open ? (
        <div className="chat-note-body compacted">
          {item.items.map((inner) => (
            <MessageRow key={inner.key} item={inner} />
          ))}
        </div>
      ) : null}
    </div>
  )
}

function CompressedNote({ item }: { item: NoteItem }): React.JSX.Element {
  const t = useT()
  const { messages, tokensBefore, tokensAfter } = item.note
  return (
    <div className="chat-note static">
      <Icon name="info" size={13} />
      {t('chat.compressed', { count: messages, before: tokensBefore.toLocaleString(), after: tokensAfter.toLocaleString() })}
    </div>
  )
}

import { memo, useState } from 'react'
import { useApp, useChat, useT } from '../../app/context'
import { CopyButton } from '../../components/CopyButton'
import { Icon } from '../../components/Icon'
import { Markdown, StreamingMarkdown } from '../../components/Markdown'
import type { AssistantItem, ChatItem, CompactedItem, NoteItem, SummaryItem, UserItem } from '../../stores/chat-items'
import { AnswerFacts } from './AnswerFacts'
import { SentAttachments } from './AttachmentChips'
import { ImportedModelLabel } from './ImportedModelLabel'
import { MessageEditor } from './MessageEditor'
import { RecalledMemory } from './RecalledMemory'
import { ToolCallRow } from './ToolCallRow'
import { VersionSwitch } from './VersionSwitch'

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
  const t = useT()
  const { chat } = useApp()
  const editing = useChat((s) => item.id !== null && s.editingMessageId === item.id)
  const busy = useChat((s) => s.running || s.sending)
  if (editing && item.id !== null) {
    return (
      <div className="message user editing" data-message-id={item.id}>
        <MessageEditor messageId={item.id} text={item.text} />
      </div>
    )
  }
  const canEdit = item.id !== null && !item.pending && !item.compacted && !busy
  return (
    <div className={`message user${item.pending ? ' pending' : ''}`} data-message-id={item.id ?? undefined}>
      {item.attachments ? <SentAttachments messageId={item.id} files={item.attachments} /> : null}
      <div className="user-bubble">{item.text}</div>
      {item.recalled ? <RecalledMemory items={item.recalled} /> : null}
      {canEdit || item.versions ? (
        <div className="message-actions user-actions">
          {item.versions ? <VersionSwitch versions={item.versions} /> : null}
          {canEdit ? (
            <button type="button" className="icon-button small" onClick={() => chat.getState().startEdit(item.id)} aria-label={t('chat.edit')} title={t('chat.edit')}>
              <Icon name="edit" size={14} />
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}

function AssistantMessage({ item, onRegenerate }: { item: AssistantItem; onRegenerate?: () => void }): React.JSX.Element {
  const t = useT()
  return (
    <div className="message assistant" data-message-id={item.id ?? undefined}>
      <Markdown text={item.text} />
      <ImportedModelLabel imported={item.imported} />
      {item.interrupted ? <div className="message-note">{t('chat.stopped')}</div> : null}
      <div className={item.versions ? 'message-actions has-versions' : 'message-actions'}>
        {item.versions ? <VersionSwitch versions={item.versions} /> : null}
        <CopyButton text={item.text} compact />
        {onRegenerate ? (
          <button type="button" className="icon-button small" onClick={onRegenerate} aria-label={t('chat.regenerate')} title={t('chat.regenerate')}>
            <Icon name="regenerate" size={15} />
          </button>
        ) : null}
        <AnswerFacts model={item.model} usage={item.usage} />
      </div>
    </div>
  )
}

/** The answer being written right now: cheap markdown per frame, highlighting once it is finished. */
export function StreamingMessage({ text }: { text: string }): React.JSX.Element {
  const t = useT()
  return (
    <div className="message assistant streaming" aria-live="polite" aria-busy="true">
      {text ? <StreamingMarkdown text={text} /> : <div className="thinking" aria-label={t('chat.thinking')}><span /><span /><span /></div>}
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

import { useEffect, useId, useRef, useState } from 'react'
import { describeRationale } from '../../../../shared/i18n/describe-rationale'
import { useApp, useInbox, useLocale, useT } from '../../app/context'
import { Notice } from '../../components/Feedback'
import { ContentOrigin } from '../../components/ContentOrigin'
import { Icon } from '../../components/Icon'
import { fullTime, relativeTime } from '../../lib/time'
import type { ProposalItem } from '../../stores/inbox'
import { DiffViewer } from '../skills/DiffViewer'
import { describeCause, describeDecisionFailure, describeProposal, editableText, subjectOf } from './proposal-words'
import type { Decisions } from './use-decisions'

export interface ProposalCardProps {
  proposal: ProposalItem
  focused: boolean
  editing: boolean
  /** The group header already shows this rationale (every proposal of the review shares it). */
  rationaleShown: boolean
  now: number
  decisions: Decisions
  onFocus(): void
  onEdit(open: boolean): void
  cardRef(element: HTMLElement | null): void
}

/**
 * One proposed change: what it does, why it waits, before → after, and Approve / Edit / Reject.
 * The card is the keyboard's stop (roving tabindex); proposal text is shown as text, never HTML.
 */
export function ProposalCard({ proposal, focused, editing, rationaleShown, now, decisions, onFocus, onEdit, cardRef }: ProposalCardProps): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const { inbox } = useApp()
  const busy = useInbox((s) => Boolean(s.busy[proposal.id]))
  const failure = useInbox((s) => s.failures[proposal.id] ?? null)
  const subject = subjectOf(proposal)
  const title = describeProposal(proposal, t)
  const cause = describeCause(proposal.cause, t)
  const canEdit = !proposal.stale && editableText(proposal) !== null
  const worded = failure ? describeDecisionFailure(failure, t) : null
  const rationale = describeRationale(proposal.rationale, t)

  return (
    <article
      ref={cardRef}
      className={`proposal${focused ? ' focused' : ''}${proposal.stale ? ' stale' : ''}`}
      tabIndex={focused ? 0 : -1}
      aria-label={title}
      aria-current={focused ? 'true' : undefined}
      data-proposal-id={proposal.id}
      onFocus={() => {
        if (!focused) onFocus()
      }}
    >
      <div className="entry-head">
        <span className={`entry-kind ${subject.family}`}>
          <Icon name={subject.family === 'memory' ? 'memory' : 'skills'} size={14} />
          {title}
        </span>
        <span className={`badge cause-${proposal.cause}`} title={cause.text}>
          {cause.badge}
        </span>
        {proposal.stale ? <span className="badge warn">{t('inbox.staleBadge')}</span> : null}
        <span className="spacer" />
        <time className="entry-time" title={fullTime(proposal.createdAt, locale)}>
          {relativeTime(proposal.createdAt, now, locale)}
        </time>
      </div>
      <p className="proposal-cause">{cause.text}</p>
      <ContentOrigin meta={proposal.meta} />
      {rationale && !rationaleShown ? <blockquote className="quote proposal-rationale">{rationale}</blockquote> : null}
      {proposal.stale ? <Notice tone="warn">{t('inbox.stale')}</Notice> : null}
      <ProposalChange proposal={proposal} />
      {editing && canEdit ? <ProposalEditor proposal={proposal} busy={busy} decisions={decisions} onClose={() => onEdit(false)} /> : null}
      {worded ? (
        <Notice
          tone="error"
          actions={
            <button type="button" className="icon-button small" aria-label={t('common.dismiss')} onClick={() => inbox.getState().dismissFailure(proposal.id)}>
              <Icon name="close" size={14} />
            </button>
          }
        >
          {worded.text}
          {worded.detail ? <div className="notice-detail">{worded.detail}</div> : null}
        </Notice>
      ) : null}
      {editing && canEdit ? null : (
        <div className="proposal-actions">
          <button
            type="button"
            className="primary-button small"
            disabled={busy || proposal.stale}
            aria-keyshortcuts="a"
            title={proposal.stale ? t('inbox.stale') : undefined}
            onClick={() => void decisions.approve(proposal)}
          >
            <Icon name="check" size={15} />
            {busy ? t('inbox.working') : t('inbox.approve')}
          </button>
          <button type="button" className="secondary-button small" disabled={busy || !canEdit} aria-keyshortcuts="e" onClick={() => onEdit(true)}>
            <Icon name="edit" size={15} />
            {t('inbox.edit')}
          </button>
          {proposal.stale ? (
            <button type="button" className="secondary-button small" disabled={busy} onClick={() => void decisions.rereview(proposal)}>
              <Icon name="sparkle" size={15} />
              {t('inbox.rereview')}
            </button>
          ) : null}
          <button type="button" className="ghost-button small" disabled={busy} aria-keyshortcuts="r" onClick={() => void decisions.reject(proposal)}>
            <Icon name="close" size={15} />
            {t('inbox.reject')}
          </button>
        </div>
      )}
    </article>
  )
}

/** Before → after: a memory entry's two texts, or a skill file's diff. */
function ProposalChange({ proposal }: { proposal: ProposalItem }): React.JSX.Element {
  const t = useT()
  const subject = subjectOf(proposal)
  if (subject.family === 'memory') {
    return (
      <div className="entry-change" aria-label={t('inbox.change')}>
        {proposal.before !== null ? <div className="change-before">{proposal.before}</div> : null}
        {proposal.before !== null && proposal.after !== null ? (
          <div className="change-arrow" aria-hidden="true">
            ↓
          </div>
        ) : null}
        {proposal.after !== null ? <div className="change-after">{proposal.after}</div> : null}
      </div>
    )
  }
  if (subject.binary) return <p className="muted">{t('inbox.binary', { file: subject.file })}</p>
  // Disabling changes no text: the skill leaves the index, its files stay as they are.
  if (proposal.kind === 'skill.disable') return <p className="muted">{t('inbox.disableNote', { name: subject.skill })}</p>
  return <DiffViewer before={proposal.before} after={proposal.after} fileName={`${subject.skill} · ${subject.file}`} />
}

/** The proposed text, editable; approving sends the user's text instead. */
function ProposalEditor({ proposal, busy, decisions, onClose }: { proposal: ProposalItem; busy: boolean; decisions: Decisions; onClose(): void }): React.JSX.Element {
  const t = useT()
  const id = useId()
  const box = useRef<HTMLTextAreaElement>(null)
  const [text, setText] = useState(() => editableText(proposal) ?? '')
  const memory = subjectOf(proposal).family === 'memory'
  useEffect(() => {
    box.current?.focus()
  }, [])
  const submit = async (): Promise<void> => {
    if (!text.trim()) return
    if (await decisions.approve(proposal, memory ? text.trim() : text)) onClose()
  }
  return (
    <div className="proposal-editor">
      <label className="field-label" htmlFor={id}>
        {t('inbox.editLabel')}
      </label>
      <textarea
        id={id}
        ref={box}
        className={memory ? 'proposal-text' : 'proposal-text mono'}
        value={text}
        rows={memory ? 3 : Math.min(18, Math.max(6, text.split('\n').length + 1))}
        spellCheck={memory}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault()
            event.stopPropagation()
            onClose()
          } else if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
            event.preventDefault()
            void submit()
          }
        }}
      />
      <div className="proposal-actions">
        <button type="button" className="primary-button small" disabled={busy || !text.trim()} onClick={() => void submit()}>
          <Icon name="check" size={15} />
          {busy ? t('inbox.working') : t('inbox.approveEdited')}
        </button>
        <button type="button" className="ghost-button small" disabled={busy} onClick={onClose}>
          {t('common.cancel')}
        </button>
        <span className="field-hint">{t('inbox.editHint')}</span>
      </div>
    </div>
  )
}

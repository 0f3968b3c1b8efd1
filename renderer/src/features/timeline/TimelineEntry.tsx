import { memo, useMemo, useState } from 'react'
import { describeLedgerSource } from '../../../../shared/i18n/describe-sources'
import type { LedgerEntry } from '../../../../shared/ledger'
import { isArchiveEntry, skillNameOf } from '../../../../shared/ledger-names'
import { useApp, useLocale, useT } from '../../app/context'
import { ContentOrigin } from '../../components/ContentOrigin'
import { Icon } from '../../components/Icon'
import { fullTime, relativeTime } from '../../lib/time'
import { familyOf } from '../../stores/timeline'
import { computeDiff } from '../skills/diff-model'
import { memoryStoreOf, skillFileOf, wordHeadline } from './labels'
import { RevertDialog } from './RevertDialog'
import { leaveTimeline } from './timeline-place'

/** Where a change landed, in words: "Profile" or "deploy · SKILL.md". */
export function useTargetLabel(entry: LedgerEntry): string {
  const t = useT()
  if (familyOf(entry.kind) === 'memory') {
    const store = t(`memory.${memoryStoreOf(entry)}.title`)
    return isArchiveEntry(entry) ? `${t('archive.title')} · ${store}` : store
  }
  const skill = skillNameOf(entry)
  return `${skill ?? ''} · ${skillFileOf(entry, skill)}`
}

/** One learned change: what, where, who, when; the text before → after (or a link to the diff), and Revert. */
export const TimelineEntry = memo(function TimelineEntry({ entry, now, byId }: { entry: LedgerEntry; now: number; byId: ReadonlyMap<number, LedgerEntry> }): React.JSX.Element {
  const t = useT()
  const { text: headline, isUndo } = wordHeadline(entry, byId, t)
  const targetLabel = useTargetLabel(entry)
  const locale = useLocale()
  const { ui, chat, skills } = useApp()
  const [reverting, setReverting] = useState(false)
  const memory = familyOf(entry.kind) === 'memory'
  const skill = skillNameOf(entry)
  const at = Date.parse(entry.at)
  const stats = useMemo(() => (memory ? null : computeDiff(entry.before, entry.after, 0)), [memory, entry.before, entry.after])

  const openSkill = (event: React.MouseEvent<HTMLElement>): void => {
    if (!skill) return
    leaveTimeline(event.currentTarget)
    ui.getState().navigate('skills')
    void skills.getState().select(skill, { ledgerId: entry.id })
  }

  return (
    <article className={`entry${entry.revertedBy !== null ? ' reverted' : ''}`} aria-label={headline}>
      <div className="entry-head">
        <span className={`entry-kind ${memory ? 'memory' : 'skill'}`}>
          <Icon name={memory ? 'memory' : 'skills'} size={14} />
          {headline}
        </span>
        <span className="entry-target" title={entry.target}>
          {targetLabel}
        </span>
        {/* An undo says so in its headline; a badge would repeat it. */}
        {!isUndo ? <span className={`badge source-${entry.source}`}>{describeLedgerSource(entry.source, t, entry.meta.device)}</span> : null}
        {entry.meta.proposalId !== undefined ? <span className="badge muted">{t('timeline.fromInbox')}</span> : null}
        {entry.revertedBy !== null ? <span className="badge muted">{t('timeline.revertedBadge')}</span> : null}
        <span className="spacer" />
        <time className="entry-time" dateTime={entry.at} title={fullTime(at, locale)}>
          {relativeTime(at, now, locale)}
        </time>
      </div>
      <ContentOrigin meta={entry.meta} />
      {memory ? (
        <div className="entry-change">
          {entry.before !== null ? <div className="change-before">{entry.before}</div> : null}
          {entry.before !== null && entry.after !== null ? (
            <div className="change-arrow" aria-hidden="true">
              ↓
            </div>
          ) : null}
          {entry.after !== null ? <div className="change-after">{entry.after}</div> : null}
        </div>
      ) : null}
      <div className="entry-actions">
        {!memory && skill ? (
          <button type="button" className="ghost-button small" data-place={`diff-${entry.id}`} onClick={openSkill}>
            <Icon name="diff" size={15} />
            {t('timeline.viewDiff')}
            {stats ? (
              <span className="entry-stats">
                <span className="diff-stat add">+{stats.added}</span> <span className="diff-stat del">−{stats.removed}</span>
              </span>
            ) : null}
          </button>
        ) : null}
        {entry.sessionId ? (
          <button
            type="button"
            className="ghost-button small"
            data-place={`session-${entry.id}`}
            onClick={(event) => {
              leaveTimeline(event.currentTarget)
              ui.getState().navigate('chat')
              void chat.getState().openSession(entry.sessionId)
            }}
          >
            <Icon name="chat" size={15} />
            {t('timeline.openSession')}
          </button>
        ) : null}
        <span className="spacer" />
        {entry.revertedBy === null ? (
          <button type="button" className="ghost-button small" onClick={() => setReverting(true)}>
            <Icon name="revert" size={15} />
            {t('timeline.revert')}
          </button>
        ) : null}
      </div>
      {reverting ? <RevertDialog entry={entry} headline={headline} targetLabel={targetLabel} onClose={() => setReverting(false)} /> : null}
    </article>
  )
})

import { useState } from 'react'
import { describeRevertFailure } from '../../../../shared/i18n/describe'
import { describeLedgerSource } from '../../../../shared/i18n/describe-sources'
import type { LedgerEntry } from '../../../../shared/ledger'
import { useApp, useLocale, useT } from '../../app/context'
import { Dialog } from '../../components/Dialog'
import { Notice } from '../../components/Feedback'
import { Icon } from '../../components/Icon'
import { fullTime, relativeTime, useNow } from '../../lib/time'
import type { RevertOutcome } from '../../stores/timeline'
import { skillFileOf, wordHeadline } from '../timeline/labels'
import { ComparePanel, ComparePick, useComparePicks } from './ComparePanel'
import { DiffViewer } from './DiffViewer'

/** A row can be restored when it left a text behind (a removal left none), or archived the skill (restored from the archive). */
function restorable(entry: LedgerEntry): boolean {
  return entry.after !== null || entry.kind === 'skill.delete'
}

/**
 * Every version of a skill, newest first: open one to see what it changed, tick two of the same file
 * to compare them, or restore the skill as a version left it (after a confirm; itself a new version).
 */
export function SkillHistory({ entries, skill, selectedId }: { entries: LedgerEntry[]; skill: string; selectedId: number | null }): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const now = useNow()
  const { skills } = useApp()
  const compare = useComparePicks(entries)
  const [restoring, setRestoring] = useState<LedgerEntry | null>(null)
  const byId = new Map(entries.map((entry) => [entry.id, entry]))
  if (!entries.length) return <p className="muted">{t('skills.noHistory')}</p>

  const pickedFile = compare.picked[0] ? skillFileOf(compare.picked[0], skill) : null
  const when = (entry: LedgerEntry) => relativeTime(Date.parse(entry.at), now, locale)

  return (
    <div className="history">
      <p className="history-help">{t('skills.historyHelp')}</p>
      <ComparePanel compare={compare} fileOf={(version) => skillFileOf(version, skill)} pickOtherHint={t('skills.comparePickOther')} />
      <ul className="history-list">
        {entries.map((entry) => {
          const file = skillFileOf(entry, skill)
          const isPicked = compare.picks.includes(entry.id)
          // Two versions of different files do not compare.
          const canPick = isPicked || (entry.after !== null && (pickedFile === null || pickedFile === file))
          const headline = wordHeadline(entry, byId, t)
          return (
            <li key={entry.id}>
              <div className="history-item">
                <ComparePick compare={compare} id={entry.id} disabled={!canPick} label={t('skills.comparePick', { kind: headline.text, when: when(entry) })} />
                <button
                  type="button"
                  className={entry.id === selectedId ? 'history-row active' : 'history-row'}
                  aria-pressed={entry.id === selectedId}
                  onClick={() => skills.getState().openDiff(entry.id === selectedId ? null : entry.id)}
                >
                  <span className="history-kind">{headline.text}</span>
                  <span className="history-file">{file}</span>
                  {headline.isUndo ? null : <span className={`badge source-${entry.source}`}>{describeLedgerSource(entry.source, t)}</span>}
                  {entry.revertedBy !== null ? <span className="badge muted">{t('timeline.revertedBadge')}</span> : null}
                  <span className="spacer" />
                  <time className="entry-time" title={fullTime(entry.at, locale)}>
                    {when(entry)}
                  </time>
                </button>
                {restorable(entry) ? (
                  <button type="button" className="ghost-button small" onClick={() => setRestoring(entry)} aria-label={t('skills.restoreLabel', { when: when(entry) })}>
                    <Icon name="revert" size={15} />
                    <span className="history-restore-text">{t('skills.restore')}</span>
                  </button>
                ) : null}
              </div>
              {entry.id === selectedId ? <DiffViewer before={entry.before} after={entry.after} fileName={file} /> : null}
            </li>
          )
        })}
      </ul>
      {restoring ? <RestoreDialog entry={restoring} skill={skill} onClose={() => setRestoring(null)} /> : null}
    </div>
  )
}

function RestoreDialog({ entry, skill, onClose }: { entry: LedgerEntry; skill: string; onClose(): void }): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const { skills, ui } = useApp()
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<Extract<RevertOutcome, { ok: false }> | null>(null)
  const confirm = async (): Promise<void> => {
    setBusy(true)
    const outcome = await skills.getState().restore(skill, entry.id)
    setBusy(false)
    if (outcome.ok) {
      ui.getState().toast({ tone: 'success', text: t('skills.restored', { name: skill }) })
      onClose()
    } else setFailure(outcome)
  }
  const worded = failure ? describeRevertFailure(failure, t) : null
  return (
    <Dialog
      title={t('skills.restoreTitle')}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="secondary-button" onClick={onClose} data-autofocus>
            {failure ? t('common.close') : t('common.cancel')}
          </button>
          {failure ? null : (
            <button type="button" className="primary-button" disabled={busy} onClick={() => void confirm()}>
              {busy ? t('skills.restoring') : t('skills.restore')}
            </button>
          )}
        </>
      }
    >
      {worded ? (
        <Notice tone="error">
          {worded.text}
          {worded.detail ? <div className="notice-detail">{worded.detail}</div> : null}
        </Notice>
      ) : (
        <p>{t(entry.kind === 'skill.delete' ? 'skills.restoreArchivedBody' : 'skills.restoreBody', { file: skillFileOf(entry, skill), name: skill, when: fullTime(entry.at, locale) })}</p>
      )}
    </Dialog>
  )
}

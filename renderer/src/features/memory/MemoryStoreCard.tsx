import { useState } from 'react'
import type { MemoryStoreView, MemoryTargetName } from '../../../../shared/ipc/domain'
import { useApp, useT } from '../../app/context'
import { Notice } from '../../components/Feedback'
import { Icon } from '../../components/Icon'
import { remainingAfter, usageOf, type AddOutcome } from '../../stores/memory'
import { MemoryEntry } from './MemoryEntry'
import { SimilarEntryNotice } from './SimilarEntryNotice'

/** One bounded store: how full it is, every entry (edit, delete), and a box to add one. `lead`: words under the title other than the store's own. */
export function MemoryStoreCard({ target, view, lead }: { target: MemoryTargetName; view: MemoryStoreView; lead?: string }): React.JSX.Element {
  const t = useT()
  const { memory } = useApp()
  const usage = usageOf(view.current, view.limit)
  const [draft, setDraft] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [outcome, setOutcome] = useState<AddOutcome | null>(null)
  const [busy, setBusy] = useState(false)
  const left = remainingAfter(view, draft.trim())
  const hiddenCount = view.info.filter((info) => info.hidden).length

  const finish = (next: AddOutcome): void => {
    setBusy(false)
    setProblem(next.kind === 'error' ? next.error : null)
    setOutcome(next.kind === 'error' ? null : next)
    if (next.kind === 'added' || next.kind === 'duplicate') setDraft('')
  }

  const add = async (allowSimilar = false): Promise<void> => {
    const content = draft.trim()
    if (!content || remainingAfter(view, content) < 0) return
    setBusy(true)
    finish(await memory.getState().add(target, content, allowSimilar ? { allowSimilar } : {}))
  }

  /** The draft takes the similar entry's place (one change on the timeline, revertible like any edit). */
  const replaceSimilar = async (entry: string): Promise<void> => {
    setBusy(true)
    const error = await memory.getState().replace(target, entry, draft.trim())
    finish(error === null ? { kind: 'added' } : { kind: 'error', error })
  }

  return (
    <section className="card memory-card" aria-label={t(`memory.${target}.title`)}>
      <header className="card-head">
        <div>
          <h2>{t(`memory.${target}.title`)}</h2>
          <p className="muted">{lead ?? t(`memory.${target}.lead`)}</p>
        </div>
      </header>
      <div className="usage">
        <div
          className={`usage-bar ${usage.level}`}
          role="meter"
          aria-label={t('memory.usage')}
          aria-valuemin={0}
          aria-valuemax={usage.limit}
          aria-valuenow={usage.current}
          aria-valuetext={t('memory.usageText', { current: usage.current, limit: usage.limit, percent: usage.percent })}
        >
          <span style={{ width: `${usage.percent}%` }} />
        </div>
        <span className={`usage-text ${usage.level}`}>{t('memory.usageText', { current: usage.current.toLocaleString(), limit: usage.limit.toLocaleString(), percent: usage.percent })}</span>
      </div>
      {hiddenCount > 0 ? <p className="muted memory-hidden-usage">{t('hide.usageCounts', { count: hiddenCount })}</p> : null}
      {!view.enabled ? <Notice tone="info">{t('memory.disabled')}</Notice> : null}
      {usage.level !== 'ok' ? <Notice tone="warn">{t('memory.nearlyFull')}</Notice> : null}
      {view.entries.length ? (
        <ul className="memory-entries">
          {view.entries.map((entry, index) => (
            <MemoryEntry key={entry} target={target} text={entry} spare={view.limit - view.current} info={view.info?.[index]?.text === entry ? view.info[index] : null} />
          ))}
        </ul>
      ) : (
        <p className="muted memory-empty">{t('memory.empty')}</p>
      )}
      <form
        className="memory-add"
        onSubmit={(event) => {
          event.preventDefault()
          void add()
        }}
      >
        <textarea
          value={draft}
          rows={2}
          placeholder={t(`memory.${target}.placeholder`)}
          aria-label={t('memory.addLabel', { store: t(`memory.${target}.title`) })}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
              event.preventDefault()
              void add()
            }
          }}
        />
        <div className="memory-add-bar">
          <span className={left < 0 ? 'chars-left over' : 'chars-left'} aria-live="polite">
            {left < 0 ? t('memory.charsOver', { count: (-left).toLocaleString() }) : t('memory.charsLeft', { count: left.toLocaleString() })}
          </span>
          <button type="submit" className="primary-button small" disabled={busy || !draft.trim() || left < 0}>
            <Icon name="plus" size={15} />
            {t('memory.add')}
          </button>
        </div>
      </form>
      {outcome?.kind === 'duplicate' ? <Notice tone="info">{t('memory.addDuplicate')}</Notice> : null}
      {outcome?.kind === 'similar' ? (
        <SimilarEntryNotice similar={outcome.similar} busy={busy} onReplace={() => void replaceSimilar(outcome.similar.entry)} onAddAnyway={() => void add(true)} />
      ) : null}
      {problem ? <Notice tone="error">{problem}</Notice> : null}
    </section>
  )
}

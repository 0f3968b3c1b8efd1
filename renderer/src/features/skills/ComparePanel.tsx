import { useState } from 'react'
import { useLocale, useT } from '../../app/context'
import { fullTime } from '../../lib/time'
import { DiffViewer } from './DiffViewer'

/** A version in a history (a ledger row): its id, when it was written, and the text it left (none after a removal). */
export interface ComparableVersion {
  id: number
  at: string
  after: string | null
}

/** The versions of one history ticked for comparing: at most two, a third tick drops the earliest. */
export interface ComparePicks<V extends ComparableVersion> {
  /** Ids in the order they were ticked. */
  picks: number[]
  /** The ticked versions still in the history, in the order they were ticked. */
  picked: V[]
  older: V | undefined
  newer: V | undefined
  toggle(id: number): void
  clear(): void
}

export function useComparePicks<V extends ComparableVersion>(entries: V[]): ComparePicks<V> {
  const [picks, setPicks] = useState<number[]>([])
  const picked = picks.map((pick) => entries.find((entry) => entry.id === pick)).filter((entry): entry is V => Boolean(entry))
  const [older, newer] = [...picked].sort((a, b) => a.id - b.id)
  const toggle = (id: number) => setPicks((list) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id].slice(-2)))
  return { picks, picked, older, newer, toggle, clear: () => setPicks([]) }
}

/** The tick box on a history row that picks its version for comparing. */
export function ComparePick({ compare, id, disabled, label }: { compare: ComparePicks<ComparableVersion>; id: number; disabled: boolean; label: string }): React.JSX.Element {
  return <input type="checkbox" className="history-pick" checked={compare.picks.includes(id)} disabled={disabled} aria-label={label} onChange={() => compare.toggle(id)} />
}

/**
 * Above a history: two ticked versions side by side in the diff viewer (older before, newer after),
 * or, with one ticked, a hint to tick another; nothing with none.
 */
export function ComparePanel<V extends ComparableVersion>({
  compare,
  fileOf,
  pickOtherHint
}: {
  compare: ComparePicks<V>
  /** The file a version belongs to, named in the diff viewer's head. */
  fileOf(version: V): string
  pickOtherHint: string
}): React.JSX.Element | null {
  const t = useT()
  const locale = useLocale()
  const { older, newer } = compare
  if (older && newer) {
    return (
      <section className="history-compare" aria-label={t('skills.compareTitle')}>
        <div className="history-compare-head">
          <span>{t('skills.comparing', { older: fullTime(older.at, locale), newer: fullTime(newer.at, locale) })}</span>
          <span className="spacer" />
          <button type="button" className="ghost-button small" onClick={compare.clear}>
            {t('skills.compareClear')}
          </button>
        </div>
        <DiffViewer before={older.after} after={newer.after} fileName={fileOf(newer)} />
      </section>
    )
  }
  return compare.picks.length === 1 ? <p className="history-help">{pickOtherHint}</p> : null
}

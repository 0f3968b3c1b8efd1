import { useId, useLayoutEffect, useMemo, useRef } from 'react'
import type { ReviewRun } from '../../../../shared/ipc/domain'
import { useApp, useLocale, useT, useTimeline } from '../../app/context'
import { EmptyState, Notice } from '../../components/Feedback'
import { Pane, PaneBody, PaneLoading } from '../../components/Pane'
import { Icon } from '../../components/Icon'
import { describeReviewReason, describeReviewSummary } from '../../../../shared/i18n/describe'
import type { Translate } from '../../../../shared/i18n'
import { ledgerSourceKeys } from '../../../../shared/i18n/describe-sources'
import { fullTime, relativeTime, useNow } from '../../lib/time'
import { allChanges, allSources, groupTimeline, isFiltered, type ChangeFilter, type KindFilter, type TimelineBatch, type TimelineGroup } from '../../stores/timeline'
import { dayHeading, dayKey } from './day-headings'
import { TimelineEntry } from './TimelineEntry'
import { takeTimelinePlace, type TimelinePlace } from './timeline-place'
import { cameThroughHistory } from '../../app/history'

/** Every learned change, newest first, a review's changes grouped under its summary. */
export function TimelineView(): React.JSX.Element {
  const t = useT()
  const { timeline } = useApp()
  const entries = useTimeline((s) => s.entries)
  const reviews = useTimeline((s) => s.reviews)
  const filters = useTimeline((s) => s.filters)
  const loaded = useTimeline((s) => s.loaded)
  const loading = useTimeline((s) => s.loading)
  const loadError = useTimeline((s) => s.loadError)
  const hasMore = useTimeline((s) => s.hasMore)
  const now = useNow()
  const locale = useLocale()
  const groups = useMemo(() => groupTimeline(entries, reviews), [entries, reviews])
  const days = useMemo(() => byDay(groups), [groups])
  const byId = useMemo(() => new Map(entries.map((entry) => [entry.id, entry])), [entries])
  const filtered = isFiltered(filters)

  const filterBar = useRef<HTMLDivElement>(null)
  const place = useRef<TimelinePlace | null>(null)

  // Back from a link it followed: the rows are still loaded (the stream keeps them current), so the
  // Timeline shows them where it was instead of reloading from the top.
  useLayoutEffect(() => {
    place.current ??= takeTimelinePlace()
    if (!place.current || !timeline.getState().loaded) void timeline.getState().load()
  }, [timeline])

  useLayoutEffect(() => {
    const at = place.current
    if (!at || !loaded) return
    place.current = null
    const scroller = filterBar.current?.closest('.pane-scroll')
    if (scroller) scroller.scrollTop = at.scrollTop
    // Focus goes back to the link only on Back/Forward: a click in the sidebar keeps focus there.
    if (at.control && cameThroughHistory()) scroller?.querySelector<HTMLElement>(`[data-place="${at.control}"]`)?.focus({ preventScroll: true })
  }, [loaded])

  const kinds: Array<{ kind: KindFilter; label: string }> = [
    { kind: 'memory', label: t('timeline.filter.memory') },
    { kind: 'skill', label: t('timeline.filter.skills') }
  ]
  const changeLabel: Record<ChangeFilter, string> = {
    added: t('library.filter.added'),
    changed: t('library.filter.changed'),
    removed: t('library.filter.removed')
  }
  const chip = (active: boolean) => (active ? 'chip active' : 'chip')

  return (
    <Pane label={t('nav.timeline')} title={t('timeline.title')}>
      <PaneBody lead={t('timeline.lead')}>
        <div ref={filterBar} className="filter-bar" role="group" aria-label={t('timeline.filters')}>
          <FilterGroup label={t('library.filter.target')}>
            {kinds.map(({ kind, label }) => (
              <button key={kind} type="button" className={chip(filters.kinds.includes(kind))} aria-pressed={filters.kinds.includes(kind)} onClick={() => timeline.getState().toggleKind(kind)}>
                {label}
              </button>
            ))}
          </FilterGroup>
          <FilterGroup label={t('library.filter.change')}>
            {allChanges.map((change) => (
              <button key={change} type="button" className={chip(filters.changes.includes(change))} aria-pressed={filters.changes.includes(change)} onClick={() => timeline.getState().toggleChange(change)}>
                {changeLabel[change]}
              </button>
            ))}
          </FilterGroup>
          <FilterGroup label={t('library.filter.source')}>
            {allSources.map((source) => (
              <button key={source} type="button" className={chip(filters.sources.includes(source))} aria-pressed={filters.sources.includes(source)} onClick={() => timeline.getState().toggleSource(source)}>
                {t(ledgerSourceKeys[source])}
              </button>
            ))}
          </FilterGroup>
          {filtered ? (
            <button type="button" className="ghost-button small" onClick={() => timeline.getState().clearFilters()}>
              {t('timeline.clearFilters')}
            </button>
          ) : null}
        </div>
        {loadError ? <Notice tone="error">{loadError}</Notice> : null}
        {!loaded ? (
          <PaneLoading label={t('common.loading')} />
        ) : !groups.length ? (
          <EmptyState icon="timeline" title={filtered ? t('timeline.emptyFiltered') : t('timeline.empty')}>
            {filtered ? null : t('timeline.emptyBody')}
          </EmptyState>
        ) : (
          <div className="timeline">
            {days.map((day) => (
              <div key={day.key} className="timeline-day">
                <h3 className="day-heading">{dayHeading(day.at, now, locale, t)}</h3>
                {day.groups.map((group) =>
                  group.type === 'entry' ? (
                    <TimelineEntry key={group.key} entry={group.entry} now={now} byId={byId} />
                  ) : (
                    <ReviewGroup key={group.key} review={group.review} batch={group.batch} count={group.entries.length} now={now}>
                      {group.entries.map((entry) => (
                        <TimelineEntry key={entry.id} entry={entry} now={now} byId={byId} />
                      ))}
                    </ReviewGroup>
                  )
                )}
              </div>
            ))}
            {hasMore ? (
              <button type="button" className="secondary-button load-more" disabled={loading} onClick={() => void timeline.getState().loadMore()}>
                {loading ? t('common.loading') : t('timeline.loadMore')}
              </button>
            ) : null}
          </div>
        )}
      </PaneBody>
    </Pane>
  )
}

/** One labelled row of filter chips; the label is visible and names the group for screen readers. */
function FilterGroup({ label, children }: { label: string; children: React.ReactNode }): React.JSX.Element {
  const id = useId()
  return (
    <div className="filter-group" role="group" aria-labelledby={id}>
      <span id={id} className="filter-label">
        {label}
      </span>
      {children}
    </div>
  )
}

/** Groups in a row of the same local day (a review's group goes under the day of its newest change). */
function byDay(groups: TimelineGroup[]): Array<{ key: string; at: number; groups: TimelineGroup[] }> {
  const days: Array<{ key: string; at: number; groups: TimelineGroup[] }> = []
  for (const group of groups) {
    const at = Date.parse(group.type === 'entry' ? group.entry.at : group.entries[0].at)
    const key = dayKey(at)
    const last = days[days.length - 1]
    if (last && last.key === key) last.groups.push(group)
    else days.push({ key, at, groups: [group] })
  }
  return days
}

/** An import's or a sync's changes share a review id (no review ran), and are named as that batch. */
function batchLabel(batch: TimelineBatch | null, t: Translate): string {
  if (!batch) return t('timeline.review')
  if (batch.kind === 'import') return t('timeline.importBatch', { id: batch.id })
  return batch.devices.length ? t('timeline.syncBatch', { device: batch.devices.join(', ') }) : t('timeline.syncBatchUnnamed')
}

const BATCH_ICON = { import: 'inbox', sync: 'regenerate' } as const

function ReviewGroup({ review, batch, count, now, children }: { review: ReviewRun | null; batch: TimelineBatch | null; count: number; now: number; children: React.ReactNode }): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const at = review?.finishedAt ?? review?.startedAt ?? review?.queuedAt ?? (batch?.kind === 'sync' ? batch.at : null)
  const label = batchLabel(batch, t)
  return (
    <section className="review-group" aria-label={label}>
      <header className="review-head">
        <span className="review-icon">
          <Icon name={batch ? BATCH_ICON[batch.kind] : 'sparkle'} size={15} />
        </span>
        <div className="review-text">
          <div className="review-title">
            <span>{(review?.summary && describeReviewSummary(review.summary, t)) || label}</span>
            <span className="review-count">{t('timeline.changes', { count })}</span>
          </div>
          {review ? <ReviewUsage review={review} /> : null}
          {review?.reasons.length ? (
            <div className="review-reasons">
              {review.reasons.map((reason) => (
                <span key={JSON.stringify(reason)} className="reason">
                  {describeReviewReason(reason, t)}
                </span>
              ))}
            </div>
          ) : null}
        </div>
        {at !== null ? (
          <time className="entry-time" title={fullTime(at, locale)}>
            {relativeTime(at, now, locale)}
          </time>
        ) : null}
      </header>
      <div className="review-entries">{children}</div>
    </section>
  )
}

/** Tokens the review used, as the provider reported them (older runs, and some providers, report none). */
function ReviewUsage({ review }: { review: ReviewRun }): React.JSX.Element | null {
  const t = useT()
  const locale = useLocale()
  if (review.promptTokens == null || review.completionTokens == null) return null
  const figures = { prompt: review.promptTokens.toLocaleString(locale), completion: review.completionTokens.toLocaleString(locale) }
  return <div className="review-usage">{review.model ? t('learned.usage', { model: review.model, ...figures }) : t('timeline.tokens', figures)}</div>
}

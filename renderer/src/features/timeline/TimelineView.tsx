import { useEffect, useMemo } from 'react'
import type { ReviewRun } from '../../../../shared/ipc/domain'
import { useApp, useLocale, useT, useTimeline } from '../../app/context'
import { EmptyState, Notice } from '../../components/Feedback'
import { Pane, PaneBody, PaneLoading } from '../../components/Pane'
import { Icon } from '../../components/Icon'
import { describeReviewReason, describeReviewSummary } from '../../../../shared/i18n/describe'
import { fullTime, relativeTime, useNow } from '../../lib/time'
import { allSources, groupTimeline, type KindFilter } from '../../stores/timeline'
import { sourceLabel } from './labels'
import { TimelineEntry } from './TimelineEntry'

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
  const groups = useMemo(() => groupTimeline(entries, reviews), [entries, reviews])
  const filtered = filters.kinds.length > 0 || filters.sources.length > 0

  useEffect(() => {
    void timeline.getState().load()
  }, [timeline])

  const kinds: Array<{ kind: KindFilter; label: string }> = [
    { kind: 'memory', label: t('timeline.filter.memory') },
    { kind: 'skill', label: t('timeline.filter.skills') }
  ]

  return (
    <Pane label={t('nav.timeline')} title={t('timeline.title')}>
      <PaneBody lead={t('timeline.lead')}>
        <div className="filter-bar" role="group" aria-label={t('timeline.filters')}>
          {kinds.map(({ kind, label }) => (
            <button key={kind} type="button" className={filters.kinds.includes(kind) ? 'chip active' : 'chip'} aria-pressed={filters.kinds.includes(kind)} onClick={() => timeline.getState().toggleKind(kind)}>
              {label}
            </button>
          ))}
          <span className="filter-divider" />
          {allSources.map((source) => (
            <button key={source} type="button" className={filters.sources.includes(source) ? 'chip active' : 'chip'} aria-pressed={filters.sources.includes(source)} onClick={() => timeline.getState().toggleSource(source)}>
              {t(sourceLabel[source])}
            </button>
          ))}
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
            {groups.map((group) =>
              group.type === 'entry' ? (
                <TimelineEntry key={group.key} entry={group.entry} now={now} />
              ) : (
                <ReviewGroup key={group.key} review={group.review} count={group.entries.length} now={now}>
                  {group.entries.map((entry) => (
                    <TimelineEntry key={entry.id} entry={entry} now={now} />
                  ))}
                </ReviewGroup>
              )
            )}
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

function ReviewGroup({ review, count, now, children }: { review: ReviewRun | null; count: number; now: number; children: React.ReactNode }): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const at = review?.finishedAt ?? review?.startedAt ?? review?.queuedAt ?? null
  return (
    <section className="review-group" aria-label={t('timeline.review')}>
      <header className="review-head">
        <span className="review-icon">
          <Icon name="sparkle" size={15} />
        </span>
        <div className="review-text">
          <div className="review-title">
            <span>{(review?.summary && describeReviewSummary(review.summary, t)) || t('timeline.review')}</span>
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

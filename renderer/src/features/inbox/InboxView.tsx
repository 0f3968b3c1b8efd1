import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { describeRationale } from '../../../../shared/i18n/describe-rationale'
import { fateMoved, fateParts } from '../../../../shared/i18n/describe-fate'
import { useApp, useInbox, useLocale, useSessions, useSettings, useT } from '../../app/context'
import { EmptyState, Notice } from '../../components/Feedback'
import { Icon } from '../../components/Icon'
import { Pane, PaneBody, PaneLoading } from '../../components/Pane'
import type { Translate } from '../../../../shared/i18n'
import { describeReviewReason } from '../../../../shared/i18n/describe'
import { mcpClientLabel } from '../../../../shared/i18n/describe-sources'
import { mcpClientOf } from '../../../../shared/ledger-names'
import { fullTime, relativeTime, useNow } from '../../lib/time'
import { groupProposals, screenOrder, type ProposalGroup } from '../../stores/inbox'
import { effectiveMode } from '../../stores/settings'
import { editableText } from './proposal-words'
import { ProposalCard } from './ProposalCard'
import { CurateButton, CurationOutcome } from './CurateButton'
import type { ReviewFate } from '../../../../shared/review-fate'
import { InboxReminder } from './InboxReminder'
import { useDecisions, type Decisions } from './use-decisions'

/** Keys typed into a field are text, not commands. */
function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null
  if (!element || typeof element.closest !== 'function') return false
  return element.isContentEditable || Boolean(element.closest('input, textarea, select, [role="dialog"]'))
}

/**
 * Changes learning wants to make that wait for the user, grouped by the review that proposed them.
 * j/k (or the arrows) move between proposals, a approves, e edits, r rejects.
 */
export function InboxView(): React.JSX.Element {
  const t = useT()
  const { inbox } = useApp()
  const proposals = useInbox((s) => s.proposals)
  const pending = useInbox((s) => s.pending)
  const loaded = useInbox((s) => s.loaded)
  const loadError = useInbox((s) => s.loadError)
  const focusedId = useInbox((s) => s.focusedId)
  const groups = useMemo(() => groupProposals(proposals), [proposals])
  const [editingId, setEditingId] = useState<number | null>(null)
  const cards = useRef(new Map<number, HTMLElement>())
  const pane = useRef<HTMLDivElement>(null)
  const decisions = useDecisions()
  const now = useNow()
  const arrival = useInbox((s) => s.arrival)
  const loading = useInbox((s) => s.loading)
  const arrivedGroup = arrival ? groups.find((group) => group.reviewId === arrival.reviewId) : undefined

  useEffect(() => {
    void inbox.getState().load()
    return () => inbox.getState().leave()
  }, [inbox])

  const moveTo = useCallback(
    (id: number) => {
      inbox.getState().focus(id)
      const card = cards.current.get(id)
      card?.focus()
      card?.scrollIntoView?.({ block: 'nearest' })
    },
    [inbox]
  )

  // Came from a chat note: once the list is fresh, the keyboard and the view go to that review's proposals.
  useEffect(() => {
    const state = inbox.getState()
    if (!arrivedGroup || state.loading || !state.loaded) return
    moveTo(arrivedGroup.proposals[0].id)
    state.leave()
  }, [arrivedGroup, loading, inbox, moveTo])

  // After "Load more", the keyboard goes on to the first proposal it brought (once its card is there).
  const focusAfterLoad = useRef<number | null>(null)
  useEffect(() => {
    const id = focusAfterLoad.current
    if (id === null || !cards.current.has(id)) return
    focusAfterLoad.current = null
    moveTo(id)
  }, [proposals, moveTo])

  const loadMore = useCallback(async () => {
    const before = new Set(inbox.getState().proposals.map((p) => p.id))
    await inbox.getState().loadMore()
    const first = screenOrder(inbox.getState().proposals).find((p) => !before.has(p.id))?.id ?? null
    // Its card may already be on screen (React rendered first), or come with the next render (the effect above).
    if (first !== null && cards.current.has(first)) moveTo(first)
    else focusAfterLoad.current = first
  }, [inbox, moveTo])

  // The keyboard starts on the first proposal (also from the heading a change of screen focused); after a decision takes a card away, on the next one.
  useEffect(() => {
    if (focusedId === null) return
    const active = document.activeElement
    const lost = !active || active === document.body || !active.isConnected || Boolean(active.closest?.('.sidebar-nav, h1'))
    if (lost) cards.current.get(focusedId)?.focus({ preventScroll: true })
  }, [focusedId, proposals])

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return
      const target = event.target as Node | null
      if (target !== document.body && !pane.current?.contains(target)) return
      const state = inbox.getState()
      const order = screenOrder(state.proposals)
      const at = order.findIndex((p) => p.id === state.focusedId)
      const current = at >= 0 ? order[at] : null
      switch (event.key) {
        case 'j':
        case 'ArrowDown':
          if (order.length) moveTo(order[Math.min(order.length - 1, at + 1)].id)
          break
        case 'k':
        case 'ArrowUp':
          if (order.length) moveTo(order[Math.max(0, at - 1)].id)
          break
        case 'a':
          if (current && !current.stale && !state.busy[current.id]) void decisions.approve(current)
          break
        case 'e':
          if (current && !current.stale && editableText(current) !== null) setEditingId(current.id)
          break
        case 'r':
          if (current && !state.busy[current.id]) void decisions.reject(current)
          break
        default:
          return
      }
      event.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [inbox, decisions, moveTo])

  const count = proposals.length
  const total = Math.max(pending, count)
  // The proposals the user came for no longer wait: say what became of them instead of a bare list.
  const gone = arrival && !arrivedGroup && loaded && !loading && arrival.fate ? goneWords(arrival.fate, t) : null
  return (
    <Pane
      label={t('nav.inbox')}
      title={t('inbox.title')}
      extra={
        <>
          {loaded && count ? <span className="pane-count">{t('inbox.count', { count: total })}</span> : null}
          <div className="pane-actions">
            <CurateButton where="inbox" />
          </div>
        </>
      }
    >
      <div className="inbox-pane" ref={pane}>
        <PaneBody lead={count ? t('inbox.lead') : undefined}>
          {loadError ? <Notice tone="error">{loadError}</Notice> : null}
          <InboxReminder where="inbox" />
          <CurationOutcome />
          {gone && count ? <Notice tone="info">{gone}</Notice> : null}
          {!loaded ? (
            <PaneLoading label={t('common.loading')} />
          ) : !count ? (
            <InboxEmpty gone={gone} />
          ) : (
            <>
              <p className="inbox-keys" aria-hidden="true">
                <kbd>j</kbd> <kbd>k</kbd> {t('inbox.keys.move')} · <kbd>a</kbd> {t('inbox.keys.approve')} · <kbd>e</kbd> {t('inbox.keys.edit')} · <kbd>r</kbd> {t('inbox.keys.reject')}
              </p>
              <div className="inbox-list">
                {groups.map((group) => (
                  <GroupSection key={group.key} group={group} now={now} decisions={decisions}>
                    {(rationaleShown) =>
                      group.proposals.map((proposal) => (
                        <ProposalCard
                          key={proposal.id}
                          proposal={proposal}
                          focused={proposal.id === focusedId}
                          editing={proposal.id === editingId}
                          rationaleShown={rationaleShown}
                          now={now}
                          decisions={decisions}
                          onFocus={() => inbox.getState().focus(proposal.id)}
                          onEdit={(open) => {
                            setEditingId(open ? proposal.id : null)
                            if (!open) cards.current.get(proposal.id)?.focus()
                          }}
                          cardRef={(element) => {
                            if (element) cards.current.set(proposal.id, element)
                            else cards.current.delete(proposal.id)
                          }}
                        />
                      ))
                    }
                  </GroupSection>
                ))}
              </div>
              <MoreProposals shown={count} total={total} onMore={loadMore} />
            </>
          )}
        </PaneBody>
      </div>
    </Pane>
  )
}

/** "Showing N of M" while not every pending proposal is loaded, and the button that loads the next page. */
function MoreProposals({ shown, total, onMore }: { shown: number; total: number; onMore(): Promise<void> }): React.JSX.Element | null {
  const t = useT()
  const hasMore = useInbox((s) => s.hasMore)
  const loadingMore = useInbox((s) => s.loadingMore)
  const loadMoreError = useInbox((s) => s.loadMoreError)
  if (shown >= total && !loadMoreError) return null
  return (
    <div className="inbox-more">
      {shown < total ? (
        <p className="inbox-showing" role="status">
          {t('inbox.showing', { shown, total })}
        </p>
      ) : null}
      {loadMoreError ? <Notice tone="error">{t('inbox.loadMoreFailed', { error: loadMoreError })}</Notice> : null}
      {hasMore ? (
        <button type="button" className="secondary-button load-more" disabled={loadingMore} onClick={() => void onMore()}>
          {loadingMore ? t('common.loading') : t('inbox.loadMore')}
        </button>
      ) : null}
    </div>
  )
}

/**
 * Where a group of proposals came from: curation, another agent over MCP (`mcp:<client>` as its
 * review), an import (`import:<id>`), a sync (`sync:<time>`, its rows naming the other device), the
 * chat holding back what it read (`chat:<session>`), or a review of a conversation.
 */
function groupHeading(group: ProposalGroup, title: string | null, t: Translate): string {
  if (group.origin === 'curation') return t('inbox.group.curation')
  const client = mcpClientOf(group.reviewId)
  if (client) return t('inbox.group.mcp', { client: mcpClientLabel(client) })
  const importId = /^import:(\d+)$/.exec(group.reviewId ?? '')?.[1]
  if (importId) return t('inbox.group.import', { id: importId })
  if (group.reviewId?.startsWith('sync:')) {
    const device = (group.proposals[0].meta as { device?: string }).device
    return device ? t('inbox.group.syncFrom', { device }) : t('inbox.group.sync')
  }
  if (group.reviewId?.startsWith('chat:')) return title ? t('inbox.group.chat', { title }) : t('inbox.group.chatUntitled')
  if (title) return t('inbox.group.review', { title })
  return group.sessionId ? t('inbox.group.reviewUntitled') : t('inbox.group.reviewNoSession')
}

/** One group's proposals under what started it: the conversation, why it ran, its own words, "Approve all". */
function GroupSection({ group, now, decisions, children }: { group: ProposalGroup; now: number; decisions: Decisions; children(rationaleShown: boolean): React.ReactNode }): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const { ui, chat } = useApp()
  const approvingAll = useInbox((s) => s.approvingAll)
  const title = useSessions((s) => (group.sessionId ? (s.list.find((item) => item.id === group.sessionId)?.title ?? null) : null))
  const first = group.proposals[0]
  const rationales = new Set(group.proposals.map((p) => p.rationale))
  const shared = group.proposals.length > 1 && rationales.size === 1 ? first.rationale : null
  const approvable = group.proposals.filter((p) => !p.stale).length
  const heading = groupHeading(group, title, t)
  const newest = Math.max(...group.proposals.map((p) => p.createdAt))

  return (
    <section className="review-group proposal-group" aria-label={heading}>
      <header className="review-head">
        <span className="review-icon">
          <Icon name={group.origin === 'curation' ? 'skills' : 'sparkle'} size={15} />
        </span>
        <div className="review-text">
          <div className="review-title">
            <span>{heading}</span>
            <span className="review-count">{t('inbox.changes', { count: group.proposals.length })}</span>
          </div>
          {first.reasons.length ? (
            <div className="review-reasons">
              {first.reasons.map((reason) => (
                <span key={JSON.stringify(reason)} className="reason">
                  {describeReviewReason(reason, t)}
                </span>
              ))}
            </div>
          ) : null}
          {shared ? <blockquote className="quote proposal-rationale">{describeRationale(shared, t)}</blockquote> : null}
          <div className="proposal-group-actions">
            {group.sessionId ? (
              <button
                type="button"
                className="ghost-button small"
                onClick={() => {
                  ui.getState().navigate('chat')
                  void chat.getState().openSession(group.sessionId)
                }}
              >
                <Icon name="chat" size={15} />
                {t('timeline.openSession')}
              </button>
            ) : null}
            {group.reviewId && group.proposals.length > 1 ? (
              <button type="button" className="secondary-button small" disabled={approvingAll !== null || approvable === 0} onClick={() => void decisions.approveAll(group.reviewId!)}>
                <Icon name="check" size={15} />
                {approvingAll === group.reviewId ? t('inbox.working') : t('inbox.approveAll', { count: approvable })}
              </button>
            ) : null}
          </div>
        </div>
        <time className="entry-time" title={fullTime(newest, locale)}>
          {relativeTime(newest, now, locale)}
        </time>
      </header>
      <div className="review-entries">{children(shared !== null)}</div>
    </section>
  )
}

/** What became of the proposals a chat note pointed to, once none of them waits. */
function goneWords(fate: ReviewFate, t: Translate): string {
  return fateMoved(fate) ? t('inbox.arrival.gone', { parts: fateParts(fate, t) }) : t('inbox.arrival.goneUnknown')
}

/** What the Inbox is for, and which learning mode decides what lands here; `gone`: what became of the proposals the user came for. */
function InboxEmpty({ gone }: { gone: string | null }): React.JSX.Element {
  const t = useT()
  const { ui } = useApp()
  const status = useSettings((s) => s.learning)
  const mode = status ? effectiveMode(status) : null
  return (
    <div className="inbox-empty">
      <EmptyState icon="inbox" title={t('inbox.empty')}>
        {gone ? (
          <p className="inbox-arrival" role="status">
            {gone}
          </p>
        ) : null}
        <p>{t('inbox.emptyBody')}</p>
        {mode ? <p className="muted">{t(`inbox.emptyMode.${mode}`)}</p> : null}
        <button type="button" className="secondary-button small" onClick={() => ui.getState().openSettings('learning')}>
          {t('inbox.openSettings')}
        </button>
      </EmptyState>
    </div>
  )
}

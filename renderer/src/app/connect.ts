import type { LearnedChange } from '../../../shared/ipc/contract'
import type { LedgerEntry } from '../../../shared/ledger'
import { isArchiveEntry, isMemoryEntry, skillNameOf, type MemoryKind } from '../../../shared/ledger-names'
import { translator, type MessageKey } from '../../../shared/i18n'
import { describeReviewSummary } from '../../../shared/i18n/describe'
import { proposedCount, type CurationEnding } from '../stores/curation'
import { curationEndingText } from '../features/inbox/curation-words'
import { familyOf } from '../stores/timeline'
import type { AppState } from './app-state'
import { startNewChat } from './shortcuts-actions'

/**
 * Routes main's events into the stores, and loads what every screen needs at start. Returns a
 * function that unsubscribes everything (tests, hot reload).
 */
export function connectApp(app: AppState): () => void {
  const { client, chat, sessions, timeline, inbox, skills, memory, settings, ui, curation } = app
  const t = () => translator(ui.getState().language)
  let sessionsTimer: ReturnType<typeof setTimeout> | null = null
  // The conversations changed since the last reload: the store finds them even past its first page.
  const changedSessions = new Set<string>()
  const reloadSessions = (sessionId: string): void => {
    changedSessions.add(sessionId)
    if (sessionsTimer) clearTimeout(sessionsTimer)
    sessionsTimer = setTimeout(() => {
      sessionsTimer = null
      const changed = [...changedSessions]
      changedSessions.clear()
      void sessions.getState().load(changed)
    }, 100)
  }
  let lastStatus = client.status()
  // A learned change, from whichever process wrote it (one stream, `ledger.changed`): the timeline
  // takes the row; memory and skills re-read what it touched.
  const learnedChange = (change: LearnedChange): void => {
    const { entry } = change
    timeline.getState().applyChange(change)
    if (familyOf(entry.kind) === 'memory') {
      if (memory.getState().loaded) void memory.getState().load()
    } else if (skills.getState().loaded) skills.getState().changed(skillNameOf(entry))
  }

  const offs = [
    client.on('chat.event', (event) => chat.getState().handleEvent(event)),
    client.on('chat.status', ({ sessionId, running }) => sessions.getState().setRunning(sessionId, running)),
    client.on('sessions.changed', ({ sessionId }) => {
      reloadSessions(sessionId)
      // The open conversation was retitled, or switched to another version, elsewhere: show it.
      if (sessionId && sessionId === chat.getState().sessionId && !chat.getState().running) void chat.getState().refresh()
    }),
    client.on('review.event', (event) => {
      chat.getState().handleReview(event)
      // A curation pass the user asked for says how it ended (its proposals included, so not twice below).
      const curated = curation.getState().handleReview(event)
      if (curated) curationEnded(app, curated)
      if (event.type === 'review_finished' || event.type === 'review_failed') {
        // Its run as stored, when main sent it; otherwise the timeline reloads to show how it ended.
        if (event.run) timeline.getState().reviewEnded(event.run)
        else if (event.type === 'review_finished') timeline.getState().invalidate()
      }
      if (event.type === 'review_finished') {
        const summary = describeReviewSummary(event.outcome.summary, t())
        // The open conversation already shows it in its "Learned" chip; a toast would say it twice.
        const chipShows = ui.getState().view === 'chat' && chat.getState().learned?.reviewId === event.reviewId
        if (summary && !chipShows) {
          ui.getState().toast({ tone: 'learned', text: t()('toast.learned', { summary }), action: { label: t()('toast.viewTimeline'), view: 'timeline' } })
        }
        // What waits for the user is never silent, wherever they are.
        const proposed = proposedCount(event.outcome)
        if (proposed > 0) inbox.getState().invalidate()
        if (proposed > 0 && !curated) {
          ui.getState().toast({ tone: 'learned', text: t()('inbox.toast.proposed', { count: proposed }), action: { label: t()('inbox.toast.open'), view: 'inbox' } }, 10_000)
        }
      }
      if (event.type === 'reviews_paused') ui.getState().toast({ tone: 'error', text: t()('toast.reviewsPaused') }, 10_000)
      if (event.type !== 'review_progress') void settings.getState().loadLearning()
    }),
    client.on('ledger.changed', (change) => {
      const { entry } = change
      learnedChange(change)
      // A revert, or a change of a review the open conversation notes (an approval): its note re-reads what became of it.
      if (entry.source === 'revert' || chat.getState().learnedNotes.some((note) => note.reviewId === entry.reviewId)) chat.getState().learnedChanged()
      // The review announces its own changes in one line when it finishes; the chatting agent's are announced here.
      // A retired entry's archive row goes with the memory row that already toasted; only an overflow is news.
      const quiet = isArchiveEntry(entry) && entry.meta.archiveSource !== 'overflow'
      if (entry.source === 'agent' && !quiet) ui.getState().toast({ tone: 'learned', text: agentToast(entry, t()), action: { label: t()('toast.viewTimeline'), view: 'timeline' } })
    }),
    client.on('skills.changed', ({ name }) => {
      if (skills.getState().loaded) skills.getState().changed(name)
    }),
    client.on('memory.changed', () => {
      if (memory.getState().loaded) void memory.getState().load()
    }),
    client.on('inbox.changed', ({ pending }) => {
      settings.getState().pendingChanged(pending)
      inbox.getState().invalidate()
      chat.getState().learnedChanged()
    }),
    client.on('settings.changed', ({ config }) => {
      settings.getState().configChanged(config)
      ui.getState().setTheme(config.ui.theme)
      ui.getState().setLanguage(config.ui.language)
    }),
    client.on('app.navigate', ({ view, sessionId, ledgerId, proposalId, newChat, incognito }) => {
      if (view === 'chat' && newChat) return startNewChat(app, { incognito })
      ui.getState().navigate(view)
      if (view === 'chat' && sessionId) void chat.getState().openSession(sessionId)
      if (view === 'timeline') void timeline.getState().load()
      if (view === 'inbox') void openInbox(app, proposalId)
      if (view === 'skills' && ledgerId !== undefined) void openLedgerEntry(app, ledgerId)
    }),
    client.onStatus((status) => {
      ui.getState().setConnection(status)
      // Back after a drop: events were missed, so reload what is on screen.
      if (status === 'open' && lastStatus !== 'open') void refreshAll(app)
      lastStatus = status
    })
  ]
  ui.getState().setConnection(client.status())
  offs.push(chat.subscribe((state, previous) => {
    if (state.sessionId !== previous.sessionId) ui.getState().setLastSession(state.sessionId)
  }))

  return () => {
    for (const off of offs) off()
    if (sessionsTimer) clearTimeout(sessionsTimer)
  }
}

/**
 * First load: settings (theme and language come from config.json), app info, conversations, and the
 * conversation asked for (`openSessionId`) or else the one open before a reload (re-attached if a
 * turn is still running).
 */
export async function loadInitial(app: AppState, options: { restore?: boolean; openSessionId?: string | null } = {}): Promise<void> {
  const { settings, sessions, ui, chat } = app
  await Promise.all([
    settings
      .getState()
      .load()
      .then(() => {
        const config = settings.getState().view?.config
        if (config) {
          ui.getState().setTheme(config.ui.theme)
          ui.getState().setLanguage(config.ui.language)
        }
      }),
    settings.getState().loadInfo(),
    settings.getState().loadLearning(),
    sessions
      .getState()
      .load()
      .then(() => {
        if (!options.restore) return
        const wanted = options.openSessionId ?? ui.getState().lastSessionId
        if (!wanted || chat.getState().sessionId !== null || !sessions.getState().list.some((s) => s.id === wanted)) return
        if (options.openSessionId) ui.getState().navigate('chat')
        void chat.getState().openSession(wanted)
      })
  ])
}

async function refreshAll(app: AppState): Promise<void> {
  await Promise.all([
    loadInitial(app),
    app.chat.getState().refresh(),
    app.timeline.getState().loaded ? app.timeline.getState().load() : null,
    app.inbox.getState().loaded ? app.inbox.getState().load() : null,
    app.memory.getState().loaded ? app.memory.getState().load() : null,
    app.skills.getState().loaded ? app.skills.getState().load() : null
  ])
}

/** Opens the skill a ledger row belongs to, with that row's diff (timeline → skills). */
export async function openLedgerEntry(app: AppState, ledgerId: number): Promise<void> {
  try {
    const entry = await app.client.request('timeline.get', { id: ledgerId })
    const name = skillNameOf(entry)
    if (!name) return
    app.ui.getState().navigate('skills')
    await app.skills.getState().select(name, { ledgerId })
  } catch {
    // The row is gone; stay where we are.
  }
}

/** Opens the Inbox with `proposalId` (a tray item's) under the keyboard. */
async function openInbox(app: AppState, proposalId?: number): Promise<void> {
  await app.inbox.getState().load()
  if (proposalId !== undefined && app.inbox.getState().proposals.some((p) => p.id === proposalId)) app.inbox.getState().focus(proposalId)
}

/**
 * How a curation pass the user asked for ended, as a toast from any screen but the Inbox (which shows
 * it above its list until dismissed); with proposals, the toast offers the Inbox.
 */
function curationEnded(app: AppState, ending: CurationEnding): void {
  const { ui } = app
  if (ui.getState().view === 'inbox') return
  const t = translator(ui.getState().language)
  const text = curationEndingText(ending, t)
  if (ending.kind === 'failed') ui.getState().toast({ tone: 'error', text }, 10_000)
  else if (ending.kind === 'nothing') ui.getState().toast({ tone: 'info', text })
  else ui.getState().toast({ tone: 'learned', text, action: { label: t('curation.openInbox'), view: 'inbox' } }, 10_000)
}

const kindToast: Record<MemoryKind, MessageKey> = {
  'memory.add': 'toast.agent.memoryAdd',
  'memory.replace': 'toast.agent.memoryReplace',
  'memory.remove': 'toast.agent.memoryRemove'
}

function agentToast(entry: LedgerEntry, t: ReturnType<typeof translator>): string {
  if (isMemoryEntry(entry)) return t(kindToast[entry.kind])
  if (isArchiveEntry(entry)) return t(entry.kind === 'archive.add' ? 'toast.agent.archiveAdd' : 'toast.agent.archiveRemove')
  return t('toast.agent.skill', { name: skillNameOf(entry) })
}

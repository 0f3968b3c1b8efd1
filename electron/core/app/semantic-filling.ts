import type { CairnConfig } from '../../../shared/config'
import type { StateDb } from '../db/state-db'
import type { EventBus } from '../events/event-bus'
import { createEmbedder, type Embedder } from '../provider/embeddings'
import { ProviderError } from '../provider/provider-errors'
import type { ProviderKeys } from '../provider/provider-access'
import type { ProviderSettings } from '../provider/provider-settings'
import { fillSemanticIndex, type FillOutcome } from '../sessions/semantic-fill'
import type { IndexProgress } from '../sessions/semantic-index'
import type { AppEvent } from './app-context'
import type { ChatClock } from './chat-manager'

/** How often the app looks for messages other processes wrote (the CLI, imports) and retries after a provider error. */
export const SEMANTIC_CHECK_MS = 5 * 60_000

/** After Settings → Search last asked, fills count their progress (a scan of messages) this long. */
const WATCH_MS = 10 * 60_000

/** Provider failures that may pass by themselves (after retries gave up): tried again on the next check. */
const PASSING_FAILURES = new Set<string>(['rate_limited', 'server', 'unreachable', 'timeout', 'stream_cut'])

export interface SemanticFillingDeps {
  db: StateDb
  config: () => CairnConfig
  /** The chat provider as resolved now (its URL and key are the embedding defaults). */
  chatProvider: () => ProviderSettings
  /** The process's provider keys: the embedding one is for `search.embeddingBaseURL` (none: CAIRN_EMBEDDING_API_KEY, else no key). */
  keys?: ProviderKeys
  env?: NodeJS.ProcessEnv
  /** No chat is running: embedding waits for the user's turn to end, and pauses when the next begins. */
  isIdle: () => boolean
  events: EventBus<AppEvent>
  clock: ChatClock
  /** Test seam: another embedder than the settings' (`undefined` = from the settings). */
  embedder?: () => Embedder | null
  /** Test seam: where sqlite-vec is loaded from. */
  extensionPath?: string
  /** A fill started or ended, or it was paused or resumed (`state`); or it moved on while someone watches (`progress`). */
  changed?: (what: 'state' | 'progress') => void
}

export interface SemanticFillingStatus {
  running: boolean
  /** How the last fill ended; null before the first. */
  last: FillOutcome | null
}

/**
 * The app's background filling of search by meaning: after a turn ends or a conversation changes,
 * while no chat runs, it embeds new messages and then backfills old ones (semantic-fill.ts), never
 * in the chat turn's path. With no embedding model set it does nothing at all: no table work, no
 * requests. A provider error leaves what was stored and is retried at the next check (every
 * {@link SEMANTIC_CHECK_MS}, not at every turn), except errors that only a settings change can fix
 * (key, model, URL), which wait for one.
 */
export class SemanticFilling {
  private running: Promise<void> | null = null
  private again = false
  private closed = false
  private last: FillOutcome | null = null
  /** A fill that failed in a way retrying cannot fix waits for the settings to change. */
  private blocked = false
  /** After a failure that may pass, nothing is tried before this time (the next check), however many turns end. */
  private retryAt = 0
  /** The fill running now's signal: pausing or closing stops it after the batch in flight. */
  private abort: AbortController | null = null
  /** The user paused the backfill; only "Fill now" (or a restart) resumes it. */
  private pausedByUser = false
  private waitingForIdle = false
  /** Until when someone (Settings → Search) watches: fills count and report their progress. */
  private watchedUntil = 0
  private counted: IndexProgress | null = null
  private readonly stop: Array<() => void>

  constructor(private readonly deps: SemanticFillingDeps) {
    this.stop = [
      deps.events.on((event) => {
        if (event.name === 'settings.changed') {
          this.blocked = false
          this.retryAt = 0
        }
        if (event.name === 'settings.changed' || event.name === 'sessions.changed' || (event.name === 'chat.status' && !event.payload.running)) this.notify()
      }),
      deps.clock.every(SEMANTIC_CHECK_MS, () => this.notify())
    ]
    this.notify()
  }

  status(): SemanticFillingStatus {
    return { running: this.running !== null, last: this.last }
  }

  paused(): boolean {
    return this.pausedByUser
  }

  /** "Fill now" was pressed while a chat runs: the fill starts when the turn ends. */
  waiting(): boolean {
    return this.waitingForIdle && !this.running
  }

  /** Messages handled of all that can be embedded, as the last watched fill counted them; null when not counted. */
  progress(): IndexProgress | null {
    return this.counted
  }

  /** Settings → Search is open: fills in the next {@link WATCH_MS} count their progress (a scan each) and report it. */
  watch(): void {
    this.watchedUntil = this.deps.clock.now() + WATCH_MS
  }

  /** "Fill now": clears a pause and a failure's wait, and fills once no chat runs. */
  fillNow(): void {
    this.pausedByUser = false
    this.blocked = false
    this.retryAt = 0
    this.watch()
    this.waitingForIdle = !this.deps.isIdle() && this.embedder() !== null
    this.notify()
    this.deps.changed?.('state')
  }

  /** "Pause": stops the fill after the batch in flight; nothing is embedded until {@link fillNow}. */
  pause(): void {
    // No abort: the batch in flight is paid for, so it is stored; keepGoing() stops the fill after it.
    this.pausedByUser = true
    this.again = false
    this.deps.changed?.('state')
  }

  /** Something may need embedding: starts a fill when idle, or runs one more after the current. */
  notify(): void {
    if (this.closed || this.pausedByUser || this.blocked || this.deps.clock.now() < this.retryAt) return
    if (this.running) {
      this.again = true
      return
    }
    const embedder = this.embedder()
    if (!embedder || !this.deps.isIdle()) return
    this.waitingForIdle = false
    this.running = this.fill(embedder).finally(() => {
      this.running = null
      this.deps.changed?.('state')
      if (this.again) {
        this.again = false
        this.notify()
      }
    })
  }

  /** Resolves when the fill running now (if any) has ended; for tests and quitting. */
  async settled(): Promise<void> {
    while (this.running) await this.running
  }

  async close(): Promise<void> {
    this.closed = true
    for (const stop of this.stop) stop()
    this.abort?.abort()
    await this.settled()
  }

  /** The embedder the settings ask for now (null: search by meaning is off), with the saved embedding key. */
  embedder(): Embedder | null {
    if (this.deps.embedder) return this.deps.embedder()
    return createEmbedder(this.deps.config().search, this.deps.chatProvider(), this.deps.keys?.apiKeyFor('embedding') ?? null, this.deps.env ?? process.env)
  }

  private async fill(embedder: Embedder): Promise<void> {
    // Off the caller's stack: notify() runs inside event handlers of the chat turn.
    await Promise.resolve()
    const abort = new AbortController()
    this.abort = abort
    const watched = this.deps.clock.now() < this.watchedUntil
    this.deps.changed?.('state')
    try {
      this.last = await fillSemanticIndex(this.deps.db, embedder, {
        signal: abort.signal,
        keepGoing: () => !this.closed && !this.pausedByUser && this.deps.isIdle(),
        extensionPath: this.deps.extensionPath,
        countProgress: watched,
        onProgress: (progress) => {
          this.counted = progress
          this.deps.changed?.('progress')
        }
      })
    } catch (error) {
      // A database error (busy, full disk): reported like a failed batch, retried on the next check.
      this.last = { status: 'failed', embedded: 0, skipped: 0, progress: null, error: error as Error }
    } finally {
      this.abort = null
    }
    const last = this.last
    if (last.status !== 'unavailable' && last.progress) this.counted = last.progress
    if (last.status === 'unavailable') this.blocked = true
    if (last.status !== 'failed') return
    if (last.error instanceof ProviderError && !PASSING_FAILURES.has(last.error.code)) this.blocked = true
    else this.retryAt = this.deps.clock.now() + SEMANTIC_CHECK_MS
  }
}

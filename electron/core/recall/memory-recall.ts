import { MAX_SENT_SHOWN, type MemoryProviderStatus, type RecallMeta, type RecalledItem, type SentToProvider } from '../../../shared/recall'
import { EventBus } from '../events/event-bus'
import { cutEnd } from '../text/cut'
import { MAX_RECALLED } from './builtin-provider'
import { providerFailureOf } from './provider-failure'
import type { ProviderLog } from './provider-log'
import { formatRecallBlock } from './recall-block'
import { matchesStrongly, recallTerms } from './strong-match'
import { SyncQueue, type RetryPolicy } from './sync-queue'
import type { MemoryProvider, RecallHit, RecallQuery, SyncedTurn } from './types'

/** Longest a turn waits for its recall at the start: past it, the turn goes on with what was prefetched, or nothing. */
export const RECALL_BOUND_MS = 300
/** How much of each text sent is kept for "what is sent is shown". */
const SENT_SHOWN_CHARS = 300
/** Longest a closing process waits for the turns still queued. */
const SHUTDOWN_BOUND_MS = 5_000

export interface MemoryRecallOptions {
  boundMs?: number
  retry?: RetryPolicy
  now?: () => number
  /** Where what was sent and the last failure are kept across processes; default: this process only. */
  log?: ProviderLog
}

const TIMED_OUT = Symbol('timed out')

/**
 * The active memory provider, kept from ever delaying or breaking a turn: recall at turn start is
 * bounded (else the previous turn's prefetch, else nothing), finished turns are synced on one ordered
 * background queue with retries, and every failure becomes the status Settings shows and an event.
 * A conversation created without it (an incognito chat) has no way to reach a provider at all.
 */
export class MemoryRecall {
  readonly events = new EventBus<MemoryProviderStatus>()
  private readonly queue: SyncQueue
  private readonly prefetched = new Map<string, RecallHit[]>()
  private readonly sent: SentToProvider[]
  private lastError: MemoryProviderStatus['lastError']
  private readonly now: () => number
  /** Set by `shutdown`: a retired recall (its provider switched away) reaches the provider no more. */
  private closed = false

  constructor(
    readonly provider: MemoryProvider,
    private readonly options: MemoryRecallOptions = {}
  ) {
    this.now = options.now ?? Date.now
    const kept = options.log?.read()
    this.sent = kept?.sent ?? []
    this.lastError = kept?.lastError ?? null
    this.queue = new SyncQueue({ onGaveUp: (error) => this.failed(error), onDone: () => this.succeeded() }, options.retry)
  }

  /**
   * What to offer the model with this message, or null: the provider's answer when it comes within
   * the bound, else what was prefetched after the previous turn (only what still matches this message
   * strongly and the provider still offers: a hide made since is kept). The items offered are marked
   * recalled (the archive dates them).
   */
  async forTurn(message: string, query: RecallQuery): Promise<RecallMeta | null> {
    if (this.closed) return null
    this.noteSent('query', message)
    const asked = this.ask(message, query)
    const cached = this.prefetched.get(query.sessionId) ?? []
    this.prefetched.delete(query.sessionId)
    const answer = await Promise.race([asked, delay(this.options.boundMs ?? RECALL_BOUND_MS, query.signal).then((): typeof TIMED_OUT => TIMED_OUT)])
    if (answer === TIMED_OUT) void asked.then((late) => late.length && this.prefetched.set(query.sessionId, late))
    const hits = answer === TIMED_OUT ? this.stillWorthOffering(message, cached) : answer
    if (this.closed) return null
    const items: RecalledItem[] = uniqueById(hits)
      .slice(0, MAX_RECALLED)
      .map(({ provider, id, text }) => ({ provider, id, text }))
    if (!items.length) return null
    try {
      this.provider.offered?.(items, this.now())
    } catch (error) {
      this.failed(error)
    }
    return { block: formatRecallBlock(items), items }
  }

  /** Lets the provider load and connect now, in the background; a failure is reported like any other. */
  warm(): void {
    this.provider.prepare?.().catch((error: unknown) => this.failed(error))
  }

  /** Queues a finished turn's sync, then a prefetch for the conversation's next turn; returns at once. */
  afterTurn(turn: SyncedTurn, query: Omit<RecallQuery, 'sessionId' | 'signal'> = {}): void {
    if (this.closed) return
    this.noteSent('turn', `${turn.userText}\n→ ${turn.answer}`)
    const tagged: SyncedTurn = { ...turn, projectKey: turn.projectKey ?? query.projectKey ?? null }
    this.queue.push(() => this.provider.syncTurn(tagged))
    this.emitStatus()
    void this.ask(turn.userText, { ...query, sessionId: turn.sessionId }).then((hits) => hits.length && this.prefetched.set(turn.sessionId, hits))
  }

  /** Everything the provider finds (a person searching); failures are reported and answer nothing. */
  async search(query: string, limit = 10): Promise<RecallHit[]> {
    this.noteSent('query', query)
    try {
      return await this.provider.search(query, { limit })
    } catch (error) {
      this.failed(error)
      return []
    }
  }

  /** Forgets one item; a failure is reported and forgets nothing. */
  async forget(id: string): Promise<boolean> {
    try {
      return await this.provider.forget(id)
    } catch (error) {
      this.failed(error)
      return false
    }
  }

  status(): MemoryProviderStatus {
    return {
      provider: this.provider.name,
      state: this.lastError ? 'failing' : 'ready',
      pendingSyncs: this.queue.pending,
      lastError: this.lastError,
      sent: [...this.sent]
    }
  }

  /** Resolves once every turn queued so far was synced or given up (tests; a closing CLI). */
  drain(): Promise<void> {
    return this.queue.drain()
  }

  /** Waits (bounded) for the turns still queued, then closes the provider. */
  async shutdown(): Promise<void> {
    this.closed = true
    this.prefetched.clear()
    this.queue.close()
    await Promise.race([this.queue.drain(), delay(SHUTDOWN_BOUND_MS)])
    try {
      await this.provider.shutdown()
    } catch (error) {
      this.failed(error)
    }
  }

  /** The provider's recall; a failure is reported and recalls nothing. */
  private async ask(message: string, query: RecallQuery): Promise<RecallHit[]> {
    if (this.closed) return []
    try {
      const hits = await this.provider.recall(message, query)
      if (this.lastError && this.queue.pending === 0) this.succeeded()
      return hits
    } catch (error) {
      this.failed(error)
      return []
    }
  }

  /** What went out to an external provider (the archive sends nothing anywhere). */
  private noteSent(kind: SentToProvider['kind'], text: string): void {
    if (this.provider.name === 'builtin' || this.closed) return
    this.sent.unshift({ at: this.now(), kind, text: cutEnd(text, SENT_SHOWN_CHARS) })
    this.sent.length = Math.min(this.sent.length, MAX_SENT_SHOWN)
    this.emitStatus()
  }

  /**
   * A previous turn's prefetch, re-checked against this message: the strong match (it was found for
   * the previous one) and the provider's own check (an entry hidden since is left out).
   */
  private stillWorthOffering(message: string, cached: RecallHit[]): RecallHit[] {
    const terms = recallTerms(message)
    const matching = cached.filter((hit) => matchesStrongly(terms, hit.text))
    if (!matching.length || !this.provider.stillOffered) return matching
    try {
      return this.provider.stillOffered(matching)
    } catch (error) {
      this.failed(error)
      return []
    }
  }

  private failed(error: unknown): void {
    this.lastError = { at: this.now(), ...providerFailureOf(error) }
    this.emitStatus()
  }

  private succeeded(): void {
    this.lastError = null
    this.emitStatus()
  }

  private emitStatus(): void {
    this.keep()
    this.events.emit(this.status())
  }

  private keep(): void {
    this.options.log?.write({ sent: this.sent, lastError: this.lastError })
  }
}

function uniqueById(hits: readonly RecallHit[]): RecallHit[] {
  const seen = new Set<string>()
  return hits.filter((hit) => !seen.has(`${hit.provider}:${hit.id}`) && Boolean(seen.add(`${hit.provider}:${hit.id}`)))
}

/** Resolves after `ms` (or at once when `signal` aborts); never keeps a closing process alive. */
function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    timer.unref?.()
    signal?.addEventListener('abort', () => resolve(), { once: true })
  })
}

import type { MeaningInfo, SearchUpkeep as SearchUpkeepInfo, WordIndexInfo } from '../../../shared/ipc/contract-search'
import { segmentBacklog, segmentProgress, type SegmentProgress } from '../db/segment-backlog'
import { ProviderError } from '../provider/provider-errors'
import { semanticStatus } from '../sessions/semantic-search'
import { SEMANTIC_CHECK_MS, type SemanticFilling, type SemanticFillingDeps } from './semantic-filling'

/** Progress events are at most this often (a start, an end or a pause always goes at once). */
const PROGRESS_EVERY_MS = 250

/** The app's pieces it needs: the same as search by meaning's filling, whose state it reports and steers. */
export interface SearchUpkeepDeps extends Pick<SemanticFillingDeps, 'db' | 'config' | 'events' | 'clock' | 'extensionPath'> {
  /** No chat is running: the word pass runs between turns and stops when one begins. */
  isIdle: () => boolean
  meaning: SemanticFilling
  changed: (status: SearchUpkeepInfo) => void
  /** Test seam: messages per batch of the word pass. */
  wordBatchSize?: number
}

/**
 * What Settings → Search shows and steers: the background word pass over messages written before
 * migration 14 (segment-backlog.ts), run here while no chat runs, and search by meaning's state
 * and backfill ({@link SemanticFilling}). Every change goes out through `changed` (`search.changed`).
 */
export class SearchUpkeep {
  private wordsRunning: Promise<void> | null = null
  /** The word backlog as last counted (undefined: not counted yet; null: none). */
  private backlog: SegmentProgress | null | undefined
  /** A database error stopped the word pass: tried again at the next check. */
  private wordsFailedAt = -Infinity
  private closed = false
  private lastEmitAt = -Infinity
  private readonly abort = new AbortController()
  private readonly stop: Array<() => void>

  constructor(private readonly deps: SearchUpkeepDeps) {
    this.stop = [
      deps.events.on((event) => {
        if (event.name === 'settings.changed') this.emit(true)
        if (event.name === 'chat.status' && !event.payload.running) this.notifyWords()
      }),
      deps.clock.every(SEMANTIC_CHECK_MS, () => this.notifyWords())
    ]
    this.notifyWords()
  }

  status(): SearchUpkeepInfo {
    return { words: this.words(), meaning: this.meaning() }
  }

  /** Settings → Search asked: the status, and the meaning fills count their progress while it stays open. */
  watch(): SearchUpkeepInfo {
    this.deps.meaning.watch()
    return this.status()
  }

  fillMeaning(): SearchUpkeepInfo {
    this.deps.meaning.fillNow()
    return this.status()
  }

  pauseMeaning(): SearchUpkeepInfo {
    this.deps.meaning.pause()
    return this.status()
  }

  /** Announces the status now, or (progress) at most every {@link PROGRESS_EVERY_MS}. */
  emit(now = true): void {
    if (this.closed) return
    const at = this.deps.clock.now()
    if (!now && at - this.lastEmitAt < PROGRESS_EVERY_MS) return
    this.lastEmitAt = at
    try {
      this.deps.changed(this.status())
    } catch {
      // The status reads the database: a disk error must not stop a fill, the word pass or quitting; Settings asks again.
    }
  }

  /** Resolves when the word pass running now (if any) has stopped; for tests and quitting. */
  async settled(): Promise<void> {
    while (this.wordsRunning) await this.wordsRunning
  }

  async close(): Promise<void> {
    this.closed = true
    for (const stop of this.stop) stop()
    this.abort.abort()
    await this.settled()
  }

  /** The backlog may have work and the app may be idle: starts the word pass unless it runs. */
  notifyWords(): void {
    if (this.closed || this.wordsRunning || this.backlog === null || !this.deps.isIdle()) return
    if (this.deps.clock.now() - this.wordsFailedAt < SEMANTIC_CHECK_MS) return
    this.wordsRunning = this.runWords().then((worked) => {
      this.wordsRunning = null
      if (worked) this.emit(true)
    })
  }

  /** False when there was nothing to do (every message has its words): then nothing is announced. */
  private async runWords(): Promise<boolean> {
    // Off the caller's stack (an event handler of the chat turn, or the app's constructor).
    await Promise.resolve()
    try {
      if (this.backlog === undefined) this.backlog = segmentProgress(this.deps.db)
      if (this.backlog === null) return false
      this.emit(true)
      const outcome = await segmentBacklog(this.deps.db, {
        known: this.backlog,
        signal: this.abort.signal,
        batchSize: this.deps.wordBatchSize,
        keepGoing: () => !this.closed && this.deps.isIdle(),
        onProgress: (progress) => {
          this.backlog = progress
          this.emit(false)
        }
      })
      this.backlog = outcome.status === 'done' ? null : outcome.progress
    } catch {
      // Busy or full disk: what was done stays, and the next check goes on from there.
      this.wordsFailedAt = this.deps.clock.now()
      this.backlog = undefined
    }
    return true
  }

  private words(): WordIndexInfo {
    if (this.backlog === undefined) this.backlog = segmentProgress(this.deps.db)
    return { backlog: this.backlog, running: this.wordsRunning !== null && this.backlog !== null }
  }

  private meaning(): MeaningInfo {
    const { search } = this.deps.config()
    const embedder = this.deps.meaning.embedder()
    const status = semanticStatus(this.deps.db, embedder, this.deps.extensionPath)
    const filling = this.deps.meaning
    const last = filling.status().last
    const error = last?.status === 'failed' ? last.error : null
    return {
      state: status.state,
      settings: { model: search.embeddingModel.trim(), baseURL: search.embeddingBaseURL.trim(), dimensions: search.embeddingDimensions },
      endpoint: embedder?.settings.baseURL ?? '',
      unavailable: status.state === 'unavailable' ? { code: status.code, detail: status.detail } : null,
      index: status.state === 'ready' ? { model: status.model, dimensions: status.dimensions, embedded: status.embedded, skipped: status.skipped } : null,
      filling: filling.status().running,
      paused: filling.paused(),
      waiting: filling.waiting(),
      progress: status.state === 'off' ? null : filling.progress(),
      lastError: error
        ? error instanceof ProviderError
          ? { code: error.code, message: error.message, status: error.status ?? null }
          : { code: 'database', message: error.message, status: null }
        : null
    }
  }
}

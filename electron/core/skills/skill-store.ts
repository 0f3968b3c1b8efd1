import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { LedgerEntry, RevertResult } from '../../../shared/ledger'
import type { StateDb } from '../db/state-db'
import type { ChangeRecorder } from '../ledger/recorder'
import type { TurnState } from '../tools/types'
import { removeSkillTempFiles } from './skill-dir-files'
import { SkillFlags } from './skill-flags'
import { removeSkillFile, writeSkillFile, type RemoveSkillFileInput, type WriteSkillFileInput } from './skill-file-writer'
import { SkillIndex, type SkillDiagnostic, type SkillSummary } from './skill-index'
import { revertSkillChange, type SkillRevertOptions } from './skill-revert'
import { SkillUsageStore, type SkillOutcome, type SkillUsage } from './skill-usage'
import { resolveSkill, viewSkill } from './skill-view'
import { SkillWatcher, type WatchEvent } from './skill-watcher'
import type { SkillCallContext, SkillChangeEvent, SkillResult, SkillWriteDeps } from './skill-write-support'
import {
  createSkill,
  deleteSkill,
  editSkill,
  patchSkill,
  type CreateSkillInput,
  type DeleteSkillInput,
  type EditSkillInput,
  type PatchSkillInput
} from './skill-writer'

export interface SkillStoreOptions {
  dataHome: string
  /** The writable root: `<dataHome>/skills`. */
  skillsDir: string
  /** Read-only roots, already tilde-expanded; missing ones are skipped. */
  extraDirs: string[]
  locksDir: string
  db: StateDb
  recorder: ChangeRecorder
}

export type SkillChangeListener = (event: SkillChangeEvent) => void

/**
 * Skills of the data home (writable) and of extra roots (read-only): an in-memory index kept in step
 * with the disk by a watcher, the six write actions (locked, atomic, validated, ledgered), revert and usage.
 */
export class SkillStore {
  readonly skillsDir: string
  private readonly index: SkillIndex
  private readonly usage: SkillUsageStore
  /** Read for skill_view, which tells the model a skill is disabled (the core's `skillFlags` writes them). */
  private readonly flags: SkillFlags
  private readonly watcher: SkillWatcher
  private readonly listeners = new Set<SkillChangeListener>()
  private readonly deps: SkillWriteDeps

  constructor(options: SkillStoreOptions) {
    this.skillsDir = resolve(options.skillsDir)
    const extras = [...new Set(options.extraDirs.map((dir) => resolve(dir)))].filter((dir) => dir !== this.skillsDir)
    const roots = [{ path: this.skillsDir, readOnly: false }, ...extras.map((path) => ({ path, readOnly: true }))]
    this.index = new SkillIndex(roots)
    this.usage = new SkillUsageStore(options.db)
    this.flags = new SkillFlags(options.db)
    this.watcher = new SkillWatcher(roots.map((root) => root.path), (event) => this.onWatchEvent(event))
    this.deps = {
      dataHome: resolve(options.dataHome),
      skillsDir: this.skillsDir,
      locksDir: resolve(options.locksDir),
      recorder: options.recorder,
      usage: this.usage,
      index: this.index,
      notify: (event) => this.emit(event)
    }
  }

  /**
   * Synchronous full scan of every root (creates the data home's skills folder if missing). First
   * removes temp files that killed writes left in the writable root (never in read-only roots).
   */
  load(): void {
    mkdirSync(this.skillsDir, { recursive: true })
    removeSkillTempFiles(this.skillsDir)
    this.index.loadAll()
  }

  /**
   * Re-reads only the skills these paths belong to (ledger targets, relative to the data home, or
   * absolute), after another process (the review worker) changed them, and announces what changed.
   * Unlike {@link load}, every other skill stays as it was read.
   */
  refreshPaths(paths: string[]): void {
    const skillFiles = new Set<string>()
    for (const path of paths) {
      const skillFile = this.index.skillFileFor(resolve(this.deps.dataHome, path))
      if (skillFile) skillFiles.add(skillFile)
    }
    for (const skillFile of skillFiles) {
      const change = this.index.refreshSkillFile(skillFile)
      if (change) this.emit({ name: change.name, path: skillFile, type: change.type })
    }
  }

  /** Visible skills (shadowed ones left out), sorted by category then name. */
  list(): SkillSummary[] {
    return this.index.list()
  }

  get(name: string): SkillSummary | null {
    return this.index.get(name)
  }

  /** Like {@link get}, also accepting `category/name` and a front-matter name that differs from the folder. */
  find(name: string): SkillSummary | null {
    return resolveSkill(this.index, name)
  }

  /** Skipped files, load warnings, shadowed and duplicate skills: for the UI and the CLI. */
  diagnostics(): SkillDiagnostic[] {
    return this.index.diagnostics()
  }

  async start(): Promise<void> {
    await this.watcher.start()
  }

  async close(): Promise<void> {
    await this.watcher.close()
  }

  onChange(listener: SkillChangeListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private emit(event: SkillChangeEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event)
      } catch {
        // A failing listener must not stop the others or the write that triggered it.
      }
    }
  }

  private onWatchEvent(event: WatchEvent): void {
    if (event.type === 'dir-removed') {
      for (const name of this.index.removeUnder(event.path)) this.emit({ name, path: event.path, type: 'unlink' })
      return
    }
    const change = this.index.refreshSkillFile(event.path)
    if (change) this.emit({ name: change.name, path: event.path, type: change.type })
  }

  create(input: CreateSkillInput, ctx: SkillCallContext): Promise<SkillResult> {
    return createSkill(this.deps, input, ctx)
  }

  edit(input: EditSkillInput, ctx: SkillCallContext): Promise<SkillResult> {
    return editSkill(this.deps, input, ctx)
  }

  patch(input: PatchSkillInput, ctx: SkillCallContext): Promise<SkillResult> {
    return patchSkill(this.deps, input, ctx)
  }

  delete(input: DeleteSkillInput, ctx: SkillCallContext): Promise<SkillResult> {
    return deleteSkill(this.deps, input, ctx)
  }

  writeFile(input: WriteSkillFileInput, ctx: SkillCallContext): Promise<SkillResult> {
    return writeSkillFile(this.deps, input, ctx)
  }

  removeFile(input: RemoveSkillFileInput, ctx: SkillCallContext): Promise<SkillResult> {
    return removeSkillFile(this.deps, input, ctx)
  }

  /** Undoes a skill row of the ledger (the caller marks it reverted); `force` writes over newer text. */
  revertChange(entry: LedgerEntry, options?: SkillRevertOptions): Promise<RevertResult> {
    return revertSkillChange(this.deps, entry, options)
  }

  /**
   * Tier 2/3 read for `skill_view`: marks it read for this turn and, unless `countUse` is false (a
   * reader judging the skill rather than following it), records the view as use of the skill.
   */
  view(name: string, filePath?: string | null, turn: TurnState | null = null, countUse = true): SkillResult {
    const usage = countUse ? this.usage : { recordView: () => {} }
    return viewSkill({ index: this.index, usage, isDisabled: (skill) => this.flags.get(skill).disabled }, name, filePath, turn)
  }

  recordView(name: string): void {
    this.usage.recordView(name)
  }

  recordUse(name: string, outcome?: SkillOutcome): void {
    this.usage.recordUse(name, outcome)
  }

  getUsage(name: string): SkillUsage | null {
    return this.usage.get(name)
  }
}

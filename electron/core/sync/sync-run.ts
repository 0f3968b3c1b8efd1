import { join } from 'node:path'
import type { WriteContext } from '../../../shared/ledger'
import type { SyncHome } from './sync-home'
import { LockTimeoutError, withLock } from '../fs/lock'
import { ARCHIVE_PATH, writeArchiveFile } from './archive-file'
import { bringInArchive } from './bring-in-archive'
import { bringInMemory } from './bring-in-memory'
import { bringInPrompts, type PromptFileChange } from './bring-in-prompts'
import { bringInSkills, type SkillFileChange } from './bring-in-skills'
import { writeSessionSummaries } from './session-summaries'
import { libraryToken, pullSharedSkills, sharedLibraries } from './shared-skills'
import { SyncRepo, type RemoteAccess } from './sync-repo'
import { checkRemoteUrl, deviceNameOf, writeSyncOutcome } from './sync-state'
import { isMemoryPath, memoryTargetOfPath } from './synced-paths'
import { promptNameOfPath } from '../prompts'
import { SyncError, type SyncOutcome, type SyncProgress, type SyncReport } from './types'

/** A push the remote refused because it moved on meanwhile is retried (fetch, merge, push) this many times. */
const MAX_ATTEMPTS = 4

export interface RunSyncOptions {
  /** The remote's token: the app's secret store, or `CAIRN_SYNC_TOKEN` in the CLI; null when the host needs none. */
  token: string | null
  /** A team library's own token (by its name), where it has one; else `token` only for a library at the sync remote's origin. */
  sharedToken?: (library: string) => string | null
  onProgress?: (progress: SyncProgress) => void
  now?: () => number
}

/**
 * One sync of `memories/` and `skills/` with `sync.remote`: commits what changed here, fetches, merges
 * what the other devices changed (by entry for memory, by line for skills, conflicts to the Inbox) and
 * writes it through the stores (ledger source `sync`, with the device's name), then pushes. Then pulls
 * the team libraries of `skills.shared`. One sync of a home at a time; the outcome (or the error) is
 * kept for `cairn sync status` and Settings.
 */
export async function runSync(core: SyncHome, options: RunSyncOptions): Promise<SyncReport> {
  const config = core.config.get()
  const home = core.paths.root
  const now = options.now ?? Date.now
  const { libraries } = sharedLibraries(config.skills.shared)
  try {
    if (!config.sync.remote && libraries.length === 0) throw new SyncError('not_set_up', 'sync.not_set_up', {})
    let report: SyncReport
    if (config.sync.remote) {
      const access: RemoteAccess = {
        url: checkRemoteUrl(config.sync.remote),
        branch: config.sync.branch || 'main',
        username: config.sync.username,
        token: options.token,
        onProgress: options.onProgress
      }
      report = await withSyncLock(home, () => syncOnce(core, access, deviceNameOf(config), now))
    } else report = emptyReport(now())
    if (libraries.length) {
      options.onProgress?.({ phase: 'shared' })
      const tokens = { own: (name: string) => options.sharedToken?.(name) ?? null, sync: options.token, remote: config.sync.remote }
      report.shared = await pullSharedSkills(core, (library) => libraryToken(library, tokens))
    }
    if (config.sync.remote) {
      const { outcome, received, sent, conflicts, devices, at } = report
      await writeSyncOutcome(home, config, { lastSync: { at, outcome, received, sent, conflicts: conflicts.length, devices }, lastError: null })
    }
    return report
  } catch (error) {
    const failure = asSyncError(error)
    if (failure.code !== 'busy' && failure.code !== 'not_set_up') {
      await writeSyncOutcome(home, config, { lastError: { at: now(), code: failure.code, message: failure.message } }).catch(() => {})
    }
    throw failure
  }
}

function asSyncError(error: unknown): SyncError {
  if (error instanceof SyncError) return error
  const { code, message } = error as { code?: string; message?: string }
  // isomorphic-git refuses to read a tree entry such as `a\..\b`: another device (or someone with the token) put it there.
  if (code === 'UnsafeFilepathError') {
    return new SyncError('remote_rejected', 'sync.unsafe_path', { detail: String(message) })
  }
  return new SyncError('failed', message ?? String(error))
}

function emptyReport(at: number): SyncReport {
  return { outcome: 'up_to_date', syncId: `sync:${at}`, sent: 0, received: 0, devices: [], conflicts: [], overflow: 0, problems: [], shared: [], commit: '', at }
}

async function withSyncLock<T>(home: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await withLock(join(home, 'sync', 'sync'), fn, { timeoutMs: 0 })
  } catch (error) {
    if (error instanceof LockTimeoutError) throw new SyncError('busy', 'sync.busy', {})
    throw error
  }
}

async function syncOnce(core: SyncHome, access: RemoteAccess, device: string, now: () => number): Promise<SyncReport> {
  const at = now()
  const repo = new SyncRepo(core.paths.root)
  if (!repo.exists()) await repo.init(access.url, access.branch)
  const report = emptyReport(at)
  const author = device

  access.onProgress?.({ phase: 'committing' })
  if (core.config.get().sync.sessionSummaries) await writeSessionSummaries(core, device)
  await writeArchiveFile(core.paths.root, core.archive)
  let local = await repo.head(access.branch)
  const mine = await repo.commitFiles(access.branch, { parents: local ? [local] : [], message: commitMessage(device, 'changes'), author })
  report.sent = mine.paths.length
  local = mine.oid ?? local
  let outcome: SyncOutcome = 'up_to_date'

  for (let attempt = 1; ; attempt++) {
    access.onProgress?.({ phase: 'fetching' })
    const remote = await repo.fetch(access)
    let pushNeeded: boolean
    if (!remote || remote === local || (local !== null && (await repo.isAncestor(remote, local)))) {
      pushNeeded = local !== null && remote !== local
    } else {
      const base = local ? await repo.mergeBase(local, remote) : null
      const devices = await repo.authorsSince(base, remote)
      for (const name of devices) if (!report.devices.includes(name)) report.devices.push(name)
      access.onProgress?.({ phase: 'merging' })
      const from = devices.join(', ') || 'another device'
      const write: WriteContext = { source: 'sync', reviewId: report.syncId, device: from, provenance: { origin: 'read', sources: [{ kind: 'sync', label: from }] } }
      const broughtIn = await bringIn(core, repo, base, remote, write, report)
      const fastForward = local === null || base === local
      if (fastForward) {
        await repo.setHead(access.branch, remote)
        const after = await repo.commitFiles(access.branch, { parents: [remote], message: commitMessage(device, 'changes after a sync'), author, alsoLookAt: broughtIn })
        local = after.oid ?? remote
      } else {
        const merged = await repo.commitFiles(access.branch, { parents: [local!, remote], message: `Merge ${devices.join(', ') || 'the remote'} into ${device}`, author, force: true, alsoLookAt: broughtIn })
        local = merged.oid!
      }
      pushNeeded = local !== remote
      outcome = fastForward && !pushNeeded && report.sent === 0 ? 'pulled' : 'merged'
    }
    if (!pushNeeded) break
    access.onProgress?.({ phase: 'pushing' })
    if ((await repo.push(access)) === 'pushed') {
      if (outcome === 'up_to_date') outcome = 'pushed'
      break
    }
    if (attempt >= MAX_ATTEMPTS) throw new SyncError('remote_rejected', 'sync.kept_moving', { url: access.url, tries: attempt })
  }
  report.outcome = outcome
  report.commit = local ?? ''
  return report
}

function commitMessage(device: string, what: string): string {
  return `Cairn on ${device}: ${what}`
}

/** Brings what changed on the remote between the merge base and its commit into this device's files; resolves with those files' paths. */
async function bringIn(core: SyncHome, repo: SyncRepo, base: string | null, remote: string, write: WriteContext, report: SyncReport): Promise<string[]> {
  const changes = await repo.changedPaths(base, remote)
  const skillChanges: SkillFileChange[] = []
  const promptChanges: PromptFileChange[] = []
  for (const change of changes) {
    const [before, theirs] = await Promise.all([change.from ? repo.readBlob(change.from) : null, change.to ? repo.readBlob(change.to) : null])
    if (change.path === ARCHIVE_PATH) {
      const archive = bringInArchive(core.archive, { base: before?.toString('utf8') ?? null, theirs: theirs?.toString('utf8') ?? null }, write)
      report.received += archive.received
      report.problems.push(...archive.refused.map((message) => ({ file: change.path, message })))
      // The merged archive is this device's file now, committed with the merge.
      await writeArchiveFile(core.paths.root, core.archive)
      continue
    }
    if (promptNameOfPath(change.path)) {
      promptChanges.push({ path: change.path, base: before, theirs })
      continue
    }
    if (!isMemoryPath(change.path)) {
      skillChanges.push({ path: change.path, base: before, theirs })
      continue
    }
    // A project's PROJECT.md merges through that project's store.
    const home = { db: core.db, memory: core.memory.forLedgerTarget(change.path) }
    const memory = await bringInMemory(home, memoryTargetOfPath(change.path), change.path, { base: before?.toString('utf8') ?? null, theirs: theirs?.toString('utf8') ?? null }, write)
    report.received += memory.received
    report.conflicts.push(...memory.conflicts)
    report.overflow += memory.overflow
    report.problems.push(...memory.refused.map((message) => ({ file: change.path, message })))
  }
  const skills = await bringInSkills(core, skillChanges, write)
  report.received += skills.received
  report.conflicts.push(...skills.conflicts)
  report.problems.push(...skills.refused.map(({ file, reason }) => ({ file, message: reason })))
  const prompts = await bringInPrompts(core.paths.root, promptChanges)
  report.received += prompts.received
  report.conflicts.push(...prompts.conflicts)
  report.problems.push(...prompts.refused.map(({ file, reason }) => ({ file, message: reason })))
  return changes.map((change) => change.path)
}

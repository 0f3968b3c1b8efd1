import fs, { lstatSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import git, { type GitAuth } from 'isomorphic-git'
import http from 'isomorphic-git/http/node'
import { SyncedFiles } from './synced-files'
import { applyToTree, blobOid, filesOfTree } from './tree-commit'
import { isSyncedPath, SYNCED_ROOTS } from './synced-paths'
import { SyncError, type SyncProgress } from './types'

/** Where the sync's git directory lives: beside the files, never inside memories/ or skills/. */
export function syncGitDir(home: string): string {
  return join(home, 'sync', 'git')
}

const REMOTE = 'origin'

export interface RemoteAccess {
  url: string
  branch: string
  username: string
  /** The token (or password); null for a host that needs none. */
  token: string | null
  onProgress?: (progress: SyncProgress) => void
}

/** A file of a commit that differs between two commits (or the working files), by its path under the home. */
export interface ChangedPath {
  path: string
  /** Blob ids; null where the file does not exist. */
  from: string | null
  to: string | null
}

/**
 * The git working copy of `memories/` and `skills/` (isomorphic-git: no git binary needed on the user's
 * machine). The work tree is the data home itself, but only {@link isSyncedPath} files are ever staged,
 * so state.db, secrets, locks and attachments stay local.
 */
export class SyncRepo {
  readonly gitdir: string
  private readonly cache = {}
  private readonly files: SyncedFiles

  constructor(readonly home: string) {
    this.gitdir = syncGitDir(home)
    this.files = new SyncedFiles(home)
  }

  private get base() {
    return { fs, dir: this.home, gitdir: this.gitdir, cache: this.cache }
  }

  exists(): boolean {
    return fs.existsSync(join(this.gitdir, 'HEAD'))
  }

  async init(url: string, branch: string): Promise<void> {
    this.files.forget()
    await git.init({ fs, dir: this.home, gitdir: this.gitdir, defaultBranch: branch })
    await git.addRemote({ fs, dir: this.home, gitdir: this.gitdir, remote: REMOTE, url, force: true })
  }

  async setRemote(url: string): Promise<void> {
    await git.addRemote({ fs, dir: this.home, gitdir: this.gitdir, remote: REMOTE, url, force: true })
  }

  /** The branch's commit here; null before the first commit. */
  async head(branch: string): Promise<string | null> {
    return this.resolve(`refs/heads/${branch}`)
  }

  /** The remote branch's commit as last fetched; null when the remote has no such branch (yet). */
  async remoteHead(branch: string): Promise<string | null> {
    return this.resolve(`refs/remotes/${REMOTE}/${branch}`)
  }

  private async resolve(ref: string): Promise<string | null> {
    try {
      return await git.resolveRef({ ...this.base, ref })
    } catch (error) {
      if ((error as { code?: string }).code === 'NotFoundError') return null
      throw error
    }
  }

  /** Points the branch at `oid` (a fast-forward, or the first commit of a fresh copy). */
  async setHead(branch: string, oid: string): Promise<void> {
    await git.writeRef({ ...this.base, ref: `refs/heads/${branch}`, value: oid, force: true })
    await git.writeRef({ ...this.base, ref: 'HEAD', value: `refs/heads/${branch}`, symbolic: true, force: true })
  }

  /**
   * Commits the synced files as they are on disk on `parents` when they differ from the first parent's
   * tree (or always, for a merge: `force`). Only files whose stats moved since the last commit (plus
   * `alsoLookAt`) are read, and only their folders' trees rewritten, so a large library with a few
   * changes commits in milliseconds. Resolves with the new commit (null when nothing differed) and the
   * files that differed.
   */
  async commitFiles(
    branch: string,
    options: { parents: string[]; message: string; author: string; force?: boolean; alsoLookAt?: readonly string[] }
  ): Promise<{ oid: string | null; paths: string[] }> {
    const scan = this.files.scan()
    const cached = this.files.read()
    const baseTree = options.parents[0] ? (await git.readCommit({ ...this.base, oid: options.parents[0] })).commit.tree : null
    let look = this.files.candidates(scan, cached)
    if (look === null) {
      // No record of the last commit's files: every file here, and every file the parent has.
      look = Object.keys(scan.files)
      if (baseTree) for (const path of (await filesOfTree(this.treeRepo, baseTree)).keys()) if (isSyncedPath(path)) look.push(path)
    }
    const mustLook = new Set(options.alsoLookAt ?? [])
    const oids = new Map<string, string>()
    const updates = new Map<string, Buffer | null>()
    for (const path of new Set([...look, ...mustLook])) {
      const bytes = path in scan.files ? readFileOrNull(join(this.home, path)) : null
      if (bytes) oids.set(path, blobOid(bytes))
      // Touched but the same as committed (a racy stat, a file written back unchanged): nothing to write.
      if (!mustLook.has(path) && bytes && cached?.files[path]?.[2] === oids.get(path)) continue
      updates.set(path, bytes)
    }
    const { tree, changed } = await applyToTree(this.treeRepo, baseTree, updates)
    if (changed.length === 0 && !options.force) {
      await this.files.save(scan, oids, cached)
      return { oid: null, paths: [] }
    }
    const who = { name: options.author, email: 'sync@cairn.invalid' }
    const oid = await git.commit({ ...this.base, ref: `refs/heads/${branch}`, message: options.message, author: who, parent: options.parents, tree })
    await this.files.save(scan, oids, cached)
    return { oid, paths: changed.sort() }
  }

  private get treeRepo() {
    return { dir: this.home, gitdir: this.gitdir, cache: this.cache }
  }

  /** Fetches the remote branch; resolves with its commit, or null when the remote has no such branch yet. */
  async fetch(access: RemoteAccess): Promise<string | null> {
    await this.setRemote(access.url)
    try {
      const result = await git.fetch({
        ...this.base,
        ...transport(access, 'fetching'),
        remote: REMOTE,
        ref: access.branch,
        singleBranch: true,
        tags: false
      })
      return result.fetchHead
    } catch (error) {
      // An empty repository, or one without this branch: the first push creates it.
      const code = (error as { code?: string }).code
      if (code === 'NotFoundError' || code === 'EmptyServerResponseError') return null
      throw remoteError(error, access.url)
    }
  }

  /** Pushes the branch; `rejected` when the remote moved on meanwhile (fetch and merge again). */
  async push(access: RemoteAccess): Promise<'pushed' | 'rejected'> {
    try {
      const result = await git.push({ ...this.base, ...transport(access, 'pushing'), remote: REMOTE, ref: access.branch, remoteRef: access.branch })
      if (result.ok) return 'pushed'
      const refError = result.refs?.[`refs/heads/${access.branch}`]?.error ?? result.error ?? 'refused'
      if (/fast.?forward|fetch first|stale/i.test(refError)) return 'rejected'
      throw new SyncError('remote_rejected', 'sync.push_refused', { url: access.url, detail: String(refError) })
    } catch (error) {
      if ((error as { code?: string }).code === 'PushRejectedError') return 'rejected'
      throw remoteError(error, access.url)
    }
  }

  async isAncestor(ancestor: string, oid: string): Promise<boolean> {
    if (ancestor === oid) return true
    return git.isDescendent({ ...this.base, oid, ancestor, depth: -1 })
  }

  async mergeBase(a: string, b: string): Promise<string | null> {
    const bases = await git.findMergeBase({ ...this.base, oids: [a, b] })
    return bases[0] ?? null
  }

  /** The synced files that differ between two commits (`from` null: every file of `to`). */
  async changedPaths(from: string | null, to: string): Promise<ChangedPath[]> {
    const trees = from ? [git.TREE({ ref: from }), git.TREE({ ref: to })] : [git.TREE({ ref: to })]
    const changes: ChangedPath[] = []
    await git.walk({
      ...this.base,
      trees,
      map: async (path, entries) => {
        if (path === '.') return true
        const [a, b] = from ? entries : [null, entries[0]]
        const [types, oids] = await Promise.all([Promise.all([a?.type(), b?.type()]), Promise.all([a?.oid(), b?.oid()])])
        const [fromOid, toOid] = oids
        if (types.includes('tree')) {
          if (path.split('/').length === 1 && !(SYNCED_ROOTS as readonly string[]).includes(path)) return null
          return fromOid !== toOid // the same subtree on both sides holds no change: not walked
        }
        // Only files: a submodule or a link in another device's tree is not something Cairn writes.
        if (!isSyncedPath(path) || !types.every((type) => type === undefined || type === 'blob')) return null
        if (fromOid !== toOid) changes.push({ path, from: fromOid ?? null, to: toOid ?? null })
        return null
      }
    })
    return changes
  }

  async readBlob(oid: string): Promise<Buffer> {
    const { blob } = await git.readBlob({ ...this.base, oid })
    return Buffer.from(blob)
  }

  /** The file's bytes at a commit; null when it does not exist there. */
  async readAt(commit: string | null, path: string): Promise<Buffer | null> {
    if (!commit) return null
    try {
      const { blob } = await git.readBlob({ ...this.base, oid: commit, filepath: path })
      return Buffer.from(blob)
    } catch (error) {
      if ((error as { code?: string }).code === 'NotFoundError') return null
      throw error
    }
  }

  /** The authors (device names) of the commits reachable from `to` but not from `from`, newest first. */
  async authorsSince(from: string | null, to: string): Promise<string[]> {
    const log = await git.log({ ...this.base, ref: to, depth: 200 })
    const authors: string[] = []
    for (const { oid, commit } of log) {
      if (from && (oid === from || (await this.isAncestor(oid, from)))) continue
      if (!authors.includes(commit.author.name)) authors.push(commit.author.name)
    }
    return authors
  }
}

function readFileOrNull(path: string): Buffer | null {
  try {
    return lstatSync(path).isFile() ? readFileSync(path) : null // a link is never followed
  } catch {
    return null // removed since the scan
  }
}

/** HTTP, auth and progress for one fetch or push. A refused token is not retried (it would loop). */
function transport(access: RemoteAccess, phase: SyncProgress['phase']) {
  const auth: GitAuth | undefined = access.token ? { username: access.username || 'cairn', password: access.token } : undefined
  return {
    http,
    url: access.url,
    onAuth: () => auth ?? { cancel: true },
    onAuthFailure: () => ({ cancel: true }),
    onProgress: access.onProgress ? (event: { loaded: number; total?: number }) => access.onProgress?.({ phase, loaded: event.loaded, total: event.total }) : undefined
  }
}

/** A failure talking to the remote, with the code the edges word. */
export function remoteError(error: unknown, url: string): Error {
  if (error instanceof SyncError) return error
  const { code, data, message } = error as { code?: string; data?: { statusCode?: number }; message?: string }
  const status = data?.statusCode
  if (code === 'UserCanceledError' || status === 401 || status === 403) {
    return new SyncError('unauthorized', 'sync.unauthorized', { url, status: status ? ` (HTTP ${status})` : '' })
  }
  if (code === 'HttpError' || code === 'SmartHttpError' || code === 'EmptyServerResponseError') {
    return new SyncError('remote_rejected', 'sync.not_a_repository', { url, status: status ? ` (HTTP ${status})` : '', detail: String(message ?? code) })
  }
  const system = (error as NodeJS.ErrnoException).code
  if (system && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH)$/.test(system)) {
    return new SyncError('network', 'sync.unreachable', { url, detail: system })
  }
  return new SyncError('failed', 'sync.talk_failed', { url, detail: message ?? String(error) })
}

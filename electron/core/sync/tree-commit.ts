import { createHash } from 'node:crypto'
import fs from 'node:fs'
import git, { type TreeEntry } from 'isomorphic-git'

/** The repository a tree is written in (the sync's own git directory; the work tree is never read here). */
export interface TreeRepo {
  dir: string
  gitdir: string
  cache: object
}

/** git's id of a file's contents: the SHA-1 of `blob <size>\0<bytes>` (native, so a large library hashes in milliseconds). */
export function blobOid(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}

const FILE_MODE = '100644'
const TREE_MODE = '040000'

/** A subtree of pending updates: files by name (bytes, or null to remove) and folders by name. */
interface UpdateNode {
  files: Map<string, Buffer | null>
  dirs: Map<string, UpdateNode>
}

function updateTreeOf(updates: ReadonlyMap<string, Buffer | null>): UpdateNode {
  const root: UpdateNode = { files: new Map(), dirs: new Map() }
  for (const [path, bytes] of updates) {
    const parts = path.split('/')
    let node = root
    for (const part of parts.slice(0, -1)) {
      let next = node.dirs.get(part)
      if (!next) node.dirs.set(part, (next = { files: new Map(), dirs: new Map() }))
      node = next
    }
    node.files.set(parts.at(-1)!, bytes)
  }
  return root
}

/**
 * The tree `base` becomes with `updates` applied (path → new bytes, or null to remove), written to the
 * object store; only the folders on an updated path are read and rewritten, every other subtree is
 * kept by its id. Resolves with the new root tree and the paths whose contents really changed.
 */
export async function applyToTree(repo: TreeRepo, base: string | null, updates: ReadonlyMap<string, Buffer | null>): Promise<{ tree: string; changed: string[] }> {
  const changed: string[] = []
  const tree = await rewrite(repo, base, updateTreeOf(updates), '', changed)
  return { tree: tree ?? (await git.writeTree({ fs, dir: repo.dir, gitdir: repo.gitdir, tree: [] })), changed }
}

async function rewrite(repo: TreeRepo, oid: string | null, node: UpdateNode, prefix: string, changed: string[]): Promise<string | null> {
  const entries = new Map<string, TreeEntry>()
  if (oid) for (const entry of (await git.readTree({ fs, dir: repo.dir, gitdir: repo.gitdir, oid, cache: repo.cache })).tree) entries.set(entry.path, entry)
  for (const [name, bytes] of node.files) {
    const existing = entries.get(name)
    if (bytes === null) {
      if (existing?.type === 'blob') {
        entries.delete(name)
        changed.push(prefix + name)
      }
      continue
    }
    const blob = blobOid(bytes)
    if (existing?.type === 'blob' && existing.oid === blob) continue
    await git.writeBlob({ fs, dir: repo.dir, gitdir: repo.gitdir, blob: bytes })
    entries.set(name, { mode: FILE_MODE, path: name, oid: blob, type: 'blob' })
    changed.push(prefix + name)
  }
  for (const [name, child] of node.dirs) {
    const existing = entries.get(name)
    const rewritten = await rewrite(repo, existing?.type === 'tree' ? existing.oid : null, child, `${prefix}${name}/`, changed)
    if (rewritten === null) entries.delete(name)
    else entries.set(name, { mode: TREE_MODE, path: name, oid: rewritten, type: 'tree' })
  }
  if (entries.size === 0) return null
  return git.writeTree({ fs, dir: repo.dir, gitdir: repo.gitdir, tree: [...entries.values()] })
}

/** Every file of a tree with its blob id, by path (for a git copy whose stat cache is gone). */
export async function filesOfTree(repo: TreeRepo, oid: string, prefix = '', into = new Map<string, string>()): Promise<Map<string, string>> {
  for (const entry of (await git.readTree({ fs, dir: repo.dir, gitdir: repo.gitdir, oid, cache: repo.cache })).tree) {
    if (entry.type === 'tree') await filesOfTree(repo, entry.oid, `${prefix}${entry.path}/`, into)
    else if (entry.type === 'blob') into.set(prefix + entry.path, entry.oid)
  }
  return into
}

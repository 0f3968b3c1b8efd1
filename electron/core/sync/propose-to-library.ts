import fs, { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import git from 'isomorphic-git'
import http from 'isomorphic-git/http/node'
import type { LibraryProposalHome } from './sync-home'
import { remoteError } from './sync-repo'
import { libraryToken, sharedLibraries } from './shared-skills'
import { checkRemoteUrl, deviceNameOf } from './sync-state'
import { SyncError } from './types'

export interface LibraryProposal {
  library: string
  url: string
  /** The branch pushed, e.g. `cairn/laptop/cut-release-20261201-1405`; the library's own branch is never pushed to. */
  branch: string
  /** The skill's folder inside the library. */
  folder: string
  files: string[]
}

/**
 * Offers one of this device's skills to a team library the user maintains (`writable: true` in
 * `skills.shared`): the library is cloned into a temporary folder, the skill's files are committed on a
 * new branch `cairn/<device>/<skill>-<time>`, and only that branch is pushed, for the maintainers to
 * review and merge. The read-only copy under `shared-skills/` is never touched.
 */
export async function proposeToLibrary(
  core: LibraryProposalHome,
  input: { skill: string; library?: string; token: string | null; libraryToken?: (name: string) => string | null; now?: Date }
): Promise<LibraryProposal> {
  const config = core.config.get()
  const writable = sharedLibraries(config.skills.shared).libraries.filter((library) => library.writable)
  const library = input.library ? writable.find((candidate) => candidate.name === input.library) : writable.length === 1 ? writable[0] : undefined
  if (!library) {
    const names = writable.map((candidate) => candidate.name)
    if (input.library) throw new SyncError('not_set_up', 'sync.no_writable_library_named', { library: input.library, writable: names.length ? ` (writable: ${names.join(', ')})` : '' })
    if (names.length) throw new SyncError('not_set_up', 'sync.name_library', { names: names.join(', ') })
    throw new SyncError('not_set_up', 'sync.no_writable_library', {})
  }
  const skill = core.skills.list().find((candidate) => candidate.name === input.skill && !candidate.readOnly)
  if (!skill) throw new SyncError('failed', 'sync.no_skill', { name: input.skill, folder: core.paths.skillsDir })
  const url = checkRemoteUrl(library.url)
  // The library's own token, else the sync token only where the sync remote lives.
  const token = libraryToken(library, { own: (name) => input.libraryToken?.(name) ?? null, sync: input.token, remote: config.sync.remote })
  const skillDir = dirname(skill.path)
  const work = mkdtempSync(join(tmpdir(), 'cairn-propose-'))
  try {
    const auth = { http, url, onAuth: () => (token ? { username: 'cairn', password: token } : { cancel: true }), onAuthFailure: () => ({ cancel: true }) }
    try {
      await git.clone({ fs, dir: work, ...auth, ref: library.branch, singleBranch: true, depth: 1 })
    } catch (error) {
      throw remoteError(error, url)
    }
    // Where the library keeps the skill now (its SKILL.md by folder name), else beside where this home keeps it.
    const folder = findSkillFolder(work, skill.name) ?? relative(core.paths.skillsDir, skillDir).split(sep).join('/')
    rmSync(join(work, folder), { recursive: true, force: true })
    const files = copyTree(skillDir, join(work, folder)).map((file) => `${folder}/${file}`)
    for (const file of files) await git.add({ fs, dir: work, filepath: file })
    for (const [path, , workdir] of await git.statusMatrix({ fs, dir: work, filepaths: [folder] })) {
      if (workdir === 0) await git.remove({ fs, dir: work, filepath: path })
    }
    const device = deviceNameOf(config)
    const branch = `cairn/${slug(device)}/${skill.name}-${stamp(input.now ?? new Date())}`
    await git.branch({ fs, dir: work, ref: branch, checkout: true })
    await git.commit({ fs, dir: work, message: `Propose ${skill.name} from ${device}`, author: { name: device, email: 'sync@cairn.invalid' } })
    try {
      const pushed = await git.push({ fs, dir: work, ...auth, ref: branch, remoteRef: branch })
      if (!pushed.ok) throw new SyncError('remote_rejected', 'sync.branch_refused', { url, branch, detail: pushed.error ?? 'refused' })
    } catch (error) {
      throw remoteError(error, url)
    }
    return { library: library.name, url, branch, folder, files }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

function findSkillFolder(root: string, name: string, depth = 0): string | null {
  if (depth > 4) return null
  for (const entry of readdirSync(join(root), { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue
    const path = join(root, entry.name)
    if (entry.name === name && statSync(join(path, 'SKILL.md'), { throwIfNoEntry: false })?.isFile()) return entry.name
    const deeper = findSkillFolder(path, name, depth + 1)
    if (deeper) return `${entry.name}/${deeper}`
  }
  return null
}

/** Copies a skill's folder (regular files only, no dot files); returns the copied paths relative to it, `/`-separated. */
function copyTree(from: string, to: string): string[] {
  const copied: string[] = []
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) visit(path)
      else if (entry.isFile()) {
        const rel = relative(from, path)
        mkdirSync(dirname(join(to, rel)), { recursive: true })
        writeFileSync(join(to, rel), readFileSync(path))
        copied.push(rel.split(sep).join('/'))
      }
    }
  }
  visit(from)
  return copied.sort()
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'device'
}

function stamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}-${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}`
}

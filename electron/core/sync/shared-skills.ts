import fs, { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import git from 'isomorphic-git'
import http from 'isomorphic-git/http/node'
import { z } from 'zod'
import type { SyncHome } from './sync-home'
import { isSupportDir, SKILL_FILE } from '../skills/skill-paths'
import { remoteError } from './sync-repo'
import { checkRemoteUrl } from './sync-state'
import { SyncError, type SharedLibraryReport } from './types'

/** One entry of `skills.shared`: a team's skill library, pulled read-only unless the user maintains it. */
export const sharedLibrarySchema = z.object({
  url: z.string().min(1),
  /** Its folder under `<home>/shared-skills/`; defaults to the repository's name. */
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'use lowercase letters, digits, dots, hyphens and underscores')
    .optional(),
  branch: z.string().min(1).default('main'),
  /** This user maintains the library: Cairn may propose changes to it as a branch (never a push to `branch`). */
  writable: z.boolean().default(false)
})
export type SharedLibrary = z.infer<typeof sharedLibrarySchema> & { name: string }

/** The libraries in `skills.shared`, each checked on its own: a malformed one is reported, the rest still pull. */
export function sharedLibraries(raw: readonly unknown[]): { libraries: SharedLibrary[]; problems: string[] } {
  const libraries: SharedLibrary[] = []
  const problems: string[] = []
  raw.forEach((entry, index) => {
    const parsed = sharedLibrarySchema.safeParse(typeof entry === 'string' ? { url: entry } : entry)
    if (!parsed.success) {
      problems.push(`skills.shared[${index}]: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'entry'}: ${issue.message}`).join('; ')}`)
      return
    }
    const name = parsed.data.name ?? libraryNameOf(parsed.data.url)
    if (libraries.some((library) => library.name === name)) problems.push(`skills.shared[${index}]: a library named "${name}" is listed twice; give one a "name".`)
    else libraries.push({ ...parsed.data, name })
  })
  return { libraries, problems }
}

/** `https://git.example.com/team/skills.git` → `skills`. */
function libraryNameOf(url: string): string {
  const last = url.replace(/\/+$/, '').split('/').at(-1) ?? 'shared'
  return last.replace(/\.git$/, '').toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '') || 'shared'
}

/**
 * Pulls each team library into `<home>/shared-skills/<name>` (a read-only skill root: the library's
 * maintainers change it, not this device) and re-reads the skills that changed. A library that fails
 * is reported with its code; the others still pull.
 */
/**
 * The token a team library is given: its own, else the personal sync token only when the library lives
 * at the sync remote's origin (same scheme, host and port), else none. A token is scoped to the host it
 * was given for: a library elsewhere never sees the personal one.
 */
export function libraryToken(library: Pick<SharedLibrary, 'name' | 'url'>, tokens: { own: (name: string) => string | null; sync: string | null; remote: string }): string | null {
  const own = tokens.own(library.name)
  if (own) return own
  return tokens.sync && tokens.remote && originOf(tokens.remote) !== null && originOf(tokens.remote) === originOf(library.url) ? tokens.sync : null
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin.toLowerCase()
  } catch {
    return null
  }
}

export async function pullSharedSkills(core: SyncHome, tokenFor: (library: SharedLibrary) => string | null): Promise<SharedLibraryReport[]> {
  const { libraries } = sharedLibraries(core.config.get().skills.shared)
  const reports: SharedLibraryReport[] = []
  for (const library of libraries) {
    const report: SharedLibraryReport = { name: library.name, url: library.url, outcome: 'up_to_date', skills: [] }
    try {
      await pullLibrary(core, library, tokenFor(library), report)
    } catch (error) {
      const failure = error instanceof SyncError ? error : remoteError(error, library.url)
      report.outcome = 'failed'
      report.error = { code: failure instanceof SyncError ? failure.code : 'failed', message: failure.message }
    }
    reports.push(report)
  }
  if (reports.some((report) => report.skills.length)) core.skills.load()
  return reports
}

async function pullLibrary(core: SyncHome, library: SharedLibrary, token: string | null, report: SharedLibraryReport): Promise<void> {
  const url = checkRemoteUrl(library.url)
  const dir = join(core.paths.sharedSkillsDir, library.name)
  const auth = {
    http,
    url,
    onAuth: () => (token ? { username: 'cairn', password: token } : { cancel: true }),
    onAuthFailure: () => ({ cancel: true })
  }
  if (!existsSync(join(dir, '.git'))) {
    rmSync(dir, { recursive: true, force: true })
    try {
      await git.clone({ fs, dir, ...auth, ref: library.branch, singleBranch: true, depth: 1 })
    } catch (error) {
      rmSync(dir, { recursive: true, force: true }) // never a half-cloned library among the skills
      throw remoteError(error, url)
    }
    report.outcome = 'cloned'
    report.skills = await skillsAt(dir, null, await git.resolveRef({ fs, dir, ref: 'HEAD' }))
    return
  }
  const before = await git.resolveRef({ fs, dir, ref: 'HEAD' })
  let fetched: string | null
  try {
    fetched = (await git.fetch({ fs, dir, ...auth, ref: library.branch, singleBranch: true, depth: 1, tags: false })).fetchHead
  } catch (error) {
    throw remoteError(error, url)
  }
  if (!fetched || fetched === before) return
  report.skills = await skillsAt(dir, before, fetched)
  // A read-only copy: the library's commit replaces whatever is checked out, as a pull of a mirror would.
  await git.writeRef({ fs, dir, ref: `refs/heads/${library.branch}`, value: fetched, force: true })
  await git.checkout({ fs, dir, ref: library.branch, force: true })
  report.outcome = 'updated'
}

/** The skills (by folder name) with a file that differs between two commits of a library. */
async function skillsAt(dir: string, from: string | null, to: string): Promise<string[]> {
  const names = new Set<string>()
  const trees = from ? [git.TREE({ ref: from }), git.TREE({ ref: to })] : [git.TREE({ ref: to })]
  await git.walk({
    fs,
    dir,
    trees,
    map: async (path, entries) => {
      if (path === '.') return true
      const [a, b] = from ? entries : [null, entries[0]]
      if ((await a?.type()) === 'tree' || (await b?.type()) === 'tree') return true
      const [aOid, bOid] = await Promise.all([a?.oid(), b?.oid()])
      if (aOid === bOid) return null
      const parts = path.split('/')
      const support = parts.findIndex((part, index) => index > 0 && isSupportDir(part))
      const folder = parts.at(-1) === SKILL_FILE ? parts.at(-2) : support > 0 ? parts[support - 1] : undefined
      if (folder) names.add(folder)
      return null
    }
  })
  return [...names].sort()
}

import { homedir } from 'node:os'
import { basename, dirname, join, relative, sep } from 'node:path'
import { codeRunningReason } from '../security/code-running-files'
import type { ToolContext } from '../tools/types'
import { statOrNull } from './fs-info'
import { displayPath, isWithin, realPathOf, resolveToolPath, workspaceRoot, type ResolvedPath, type WorkspaceEnv } from './paths'

/** Where a write really lands (`abs`, `display`), and the path as it was named. */
export interface WriteTarget extends ResolvedPath {
  /** The named path, absolute: right before the write it must still lead to `abs`. */
  named: string
  /** The named path as the model sees it, when a symlink on the way leads elsewhere. */
  via?: string
  /** The real target is outside the workspace (named by an absolute, `~` or `../` path). */
  outside: boolean
  /**
   * Why this write is asked every time even inside the workspace, if it is: git's own files, or a file
   * that makes another program run code (security/code-running-files.ts). No grant covers it.
   */
  askEveryTime?: string
}

export type WriteTargetResult = { ok: true; target: WriteTarget } | { ok: false; error: string }

/**
 * The real target of a write: the named path with every symlink on the way resolved (the realpath of
 * the deepest existing ancestor plus the rest, a dangling link followed too). The approval shows and
 * approves that target, and the write goes there, never "through" a link.
 *
 * The rule for symlinks: a path named inside the workspace whose real target is outside it (a link
 * leading out) is refused, not asked: the user picked the workspace, not where its links point, and an
 * earlier "allow for this conversation" must not carry a write out of it. Named by its real path, the
 * same file is an ordinary write outside the workspace, which the user is asked about with that path.
 */
export function resolveWriteTarget(input: string, ctx: ToolContext, env: WorkspaceEnv): WriteTargetResult {
  const named = resolveToolPath(input, ctx, env)
  const root = workspaceRoot(ctx, env)
  const realRoot = realPathOf(root)
  const real = realPathOf(named.abs)
  const home = env.protectedRoots?.find((folder) => isWithin(real, realPathOf(folder)) || isWithin(named.abs, folder))
  if (home) {
    return {
      ok: false,
      error:
        `${named.display} is inside Cairn's data folder ${home}, which write_file and edit_file never change (whatever the workspace). ` +
        'Memory and skills have their own tools (memory, skill_manage); settings are changed by the user in Settings. Nothing was written.'
    }
  }
  const namedInside = isWithin(named.abs, root) || isWithin(named.abs, realRoot)
  if (namedInside && !isWithin(real, realRoot)) {
    return {
      ok: false,
      error:
        `${named.display} goes through a symlink that leads outside the workspace, to ${real}, so nothing was written. ` +
        `Cairn does not write outside the workspace through a symlink. If ${real} really is the file to change, name it by that path; the user will be asked.`
    }
  }
  const display = displayPath(real, realRoot)
  const outside = !isWithin(real, realRoot)
  const git = outside ? null : gitReason(real, named.abs, realRoot, root)
  const runner = outside ? null : codeRunningReason(relative(realRoot, real).split(sep).join('/')) ?? codeRunningReason(relative(root, named.abs).split(sep).join('/'))
  const everyTime = git ? `${git}: git can run programs named there` : runner ? `${basename(real)}: ${runner}` : null
  const target: WriteTarget = { abs: real, display, named: named.abs, outside, ...(display === named.display ? {} : { via: named.display }) }
  return { ok: true, target: everyTime ? { ...target, askEveryTime: everyTime } : target }
}

/**
 * Why a write inside the workspace is one of git's own files, or null: anything under a `.git`
 * folder (or the `.git` file), a folder git takes for a repository (HEAD, objects and refs: a bare
 * repository, or one being made with a `HEAD` file), or the user's global git config (a workspace of
 * `~`). Hooks and settings there (`core.fsmonitor`, `core.hooksPath`, `diff.external`…) make even
 * read-only git commands run programs, so no grant for the conversation may cover such a write.
 * Names are compared ignoring case (`.GIT` is `.git` on macOS and Windows).
 */
function gitReason(real: string, named: string, realRoot: string, root: string): string | null {
  const segments = [...relative(realRoot, real).split(sep), ...relative(root, named).split(sep)].map((part) => part.toLowerCase())
  if (segments.includes('.git')) return 'inside a .git folder'
  if (basename(real).toLowerCase() === 'head') return 'a HEAD file, which makes its folder a git repository'
  for (let folder = dirname(real); isWithin(folder, realRoot); folder = dirname(folder)) {
    if (statOrNull(join(folder, 'HEAD'))?.isFile() && statOrNull(join(folder, 'objects'))?.isDirectory() && statOrNull(join(folder, 'refs'))?.isDirectory()) {
      return 'inside a bare git repository'
    }
    if (folder === realRoot || dirname(folder) === folder) break
  }
  const configHome = process.env.XDG_CONFIG_HOME || join(homedir(), '.config')
  if (real === join(realPathOf(homedir()), '.gitconfig') || isWithin(real, join(realPathOf(configHome), 'git'))) return "the user's git settings"
  return null
}

/** True while the named path still leads to the target approved (no link pointed elsewhere meanwhile). */
export function stillLeadsThere(target: WriteTarget): boolean {
  return realPathOf(target.named) === target.abs
}

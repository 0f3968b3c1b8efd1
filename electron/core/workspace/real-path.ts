import type { ToolContext } from '../tools/types'
import { displayPath, isWithin, realPathOf, resolveToolPath, workspaceRoot, type ResolvedPath, type WorkspaceEnv } from './paths'

/** Where a write really lands (`abs`, `display`), and the path as it was named. */
export interface WriteTarget extends ResolvedPath {
  /** The named path, absolute: right before the write it must still lead to `abs`. */
  named: string
  /** The named path as the model sees it, when a symlink on the way leads elsewhere. */
  via?: string
  /** The real target is outside the workspace (named by an absolute, `~` or `../` path). */
  outside: boolean
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
  return { ok: true, target: { abs: real, display, named: named.abs, outside, ...(display === named.display ? {} : { via: named.display }) } }
}

/** True while the named path still leads to the target approved (no link pointed elsewhere meanwhile). */
export function stillLeadsThere(target: WriteTarget): boolean {
  return realPathOf(target.named) === target.abs
}

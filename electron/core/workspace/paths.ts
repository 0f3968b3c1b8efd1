import { lstatSync, readlinkSync, realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { expandTilde } from '../config/home'
import type { ToolContext } from '../tools/types'

/** Settings shared by every workspace tool. */
export interface WorkspaceEnv {
  /** Folder relative paths resolve against when the turn names none. */
  defaultWorkspace?: string
  /**
   * Folders write_file and edit_file never write, wherever the workspace is: Cairn's data home (a
   * workspace of `~` contains it, and its config.json says which commands run unasked).
   */
  protectedRoots?: readonly string[]
}

export interface ResolvedPath {
  /** Absolute path on disk. */
  abs: string
  /** What the model sees: relative to the workspace when inside it, absolute otherwise. */
  display: string
}

/** The folder relative paths resolve against: the turn's workspace, else the configured one, else the cwd. */
export function workspaceRoot(ctx: ToolContext, env: WorkspaceEnv): string {
  const chosen = ctx.workspace || env.defaultWorkspace || process.cwd()
  return resolve(expandTilde(chosen))
}

/**
 * Resolves a model-given path; `~`, `../` and absolute paths resolve as written. Whether the tool may
 * go there is another question: reading outside the workspace asks (see `approveRead`).
 */
export function resolveToolPath(input: string, ctx: ToolContext, env: WorkspaceEnv): ResolvedPath {
  const root = workspaceRoot(ctx, env)
  const expanded = expandTilde(input.trim())
  const abs = isAbsolute(expanded) ? resolve(expanded) : resolve(root, expanded)
  return { abs, display: displayPath(abs, root) }
}

export function displayPath(abs: string, root: string): string {
  if (abs === root) return '.'
  const rel = relative(root, abs)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return abs
  return toPosix(rel)
}

/** Forward slashes in everything the model reads, so globs and paths look the same on every platform. */
export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/')
}

/** Links followed at most while resolving one path (the same limit as Linux's). */
const MAX_LINKS = 40

/**
 * Where `abs` really is on disk: every symlink on the way resolved, also when the path (or its end)
 * does not exist yet, so a dangling link inside the workspace still counts where it points.
 */
export function realPathOf(abs: string, hops = 0): string {
  try {
    return realpathSync.native(abs)
  } catch {
    const parent = dirname(abs)
    if (parent === abs) return abs
    const candidate = join(realPathOf(parent, hops), basename(abs))
    if (hops < MAX_LINKS && isLink(candidate)) {
      try {
        return realPathOf(resolve(dirname(candidate), readlinkSync(candidate)), hops + 1)
      } catch {
        return candidate
      }
    }
    return candidate
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

/** True when `path` is `folder` or inside it (both absolute and already resolved). */
export function isWithin(path: string, folder: string): boolean {
  const rel = relative(folder, path)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

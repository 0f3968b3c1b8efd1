import { isAbsolute, relative, resolve, sep } from 'node:path'
import { expandTilde } from '../config/home'
import type { ToolContext } from '../tools/types'

/** Settings shared by every workspace tool. */
export interface WorkspaceEnv {
  /** Folder relative paths resolve against when the turn names none. */
  defaultWorkspace?: string
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

/** Resolves a model-given path; `~` and absolute paths are allowed on purpose (the user's machine, the user's files). */
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

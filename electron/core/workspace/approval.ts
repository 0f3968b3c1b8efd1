import { createTwoFilesPatch } from 'diff'
import { homedir } from 'node:os'
import { basename, dirname } from 'node:path'
import { cutMiddle } from '../text/cut'
import type { ApprovalRequest, ToolContext } from '../tools/types'
import { statOrNull } from './fs-info'
import { isWithin, realPathOf, workspaceRoot, type ResolvedPath, type WorkspaceEnv } from './paths'

/** Tools that ask the user before they change anything on disk or run anything. */
export const APPROVAL_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file', 'run_command'])

/** Previews are for a person to read in a prompt; a huge diff helps nobody. */
export const MAX_PREVIEW_CHARS = 20_000

export interface ApprovalRefusal {
  success: false
  denied?: true
  error: string
}

/**
 * Asks `ctx.approve`; returns null when the action may go ahead, else the result to hand back.
 * No approver means nobody can say yes, so the action is refused rather than run unasked.
 */
export async function requestApproval(ctx: ToolContext, request: ApprovalRequest, action: string): Promise<ApprovalRefusal | null> {
  if (!ctx.approve) {
    return {
      success: false,
      error: `${request.tool} needs the user's approval to ${action}, and nobody can approve in this session. Do not retry; tell the user what you wanted to do so they can do it or allow it.`
    }
  }
  // A command is shown whole: the part that differs may be at its end. Other previews (a file's diff) are cut.
  const preview = request.preview === undefined || request.kind === 'command' ? request.preview : cutMiddle(request.preview, MAX_PREVIEW_CHARS, { headShare: 1 })
  const approved = await ctx.approve({ ...request, preview })
  if (approved) return null
  const untouched = request.kind === 'read' ? 'Nothing was read.' : request.kind === 'fetch' ? 'Nothing was sent.' : 'Nothing was changed.'
  return {
    success: false,
    denied: true,
    error: `The user declined: ${request.tool} did not ${action}. ${untouched} Do not retry the same call; ask the user what they would like instead.`
  }
}

/** A read the tool may do: the real path to open (symlinks resolved) and whether it is inside the workspace. */
export interface ReadAccess {
  real: string
  inside: boolean
  /** The workspace folder, symlinks resolved. */
  root: string
}

const READ_VERBS: Record<string, string> = { read_file: 'Read', list_dir: 'List', search_files: 'Search' }

/**
 * Reading inside the workspace is free; anywhere else (`../`, `~`, an absolute path, or a symlink
 * inside whose target is outside) asks first. "This conversation" covers exactly what is read (the
 * file, or the folder listed or searched and everything below it); "always" covers the folder (the
 * file's own, or the one read), except where that is too wide to grant (see {@link tooWideToGrant}):
 * there only the file may be allowed for the conversation, and a folder read only once. Asked before
 * anything is opened, so a refusal reveals nothing, not even whether the file exists.
 */
export async function approveRead(ctx: ToolContext, env: WorkspaceEnv, tool: string, target: ResolvedPath): Promise<ReadAccess | ApprovalRefusal> {
  const root = realPathOf(workspaceRoot(ctx, env))
  const real = realPathOf(target.abs)
  if (isWithin(real, root)) {
    if (looksSecret(real)) markSensitiveRead(ctx, real)
    return { real, inside: true, root }
  }
  const readsFolder = statOrNull(real)?.isDirectory() === true
  const folder = readsFolder ? real : dirname(real)
  const grantable = !tooWideToGrant(folder)
  const via = real === target.abs ? '' : `, reached through the symlink ${target.display}`
  const request: ApprovalRequest = {
    kind: 'read',
    tool,
    summary: `${READ_VERBS[tool] ?? 'Read'} ${real} (outside the workspace ${root}${via})`,
    path: real,
    ...(grantable ? { folder } : {}),
    ...(readsFolder ? { readsFolder } : {}),
    scopes: grantable ? ['once', 'session', 'folder'] : readsFolder ? ['once'] : ['once', 'session']
  }
  const refusal = await requestApproval(ctx, request, `read ${real}`)
  if (refusal) return refusal
  markSensitiveRead(ctx, real)
  return { real, inside: false, root }
}

/** Names of files that usually hold secrets: environment files, keys, credential stores. */
const SECRET_NAME = /^(\.env(\..+)?|\.envrc|\.netrc|\.pgpass|\.npmrc|\.pypirc|\.git-credentials|credentials(\.json)?|secrets?(\.[a-z]+)?|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?|.+\.(pem|key|p12|pfx|keystore|kdbx))$/i

export function looksSecret(path: string): boolean {
  return SECRET_NAME.test(basename(path)) || /[\\/]\.(ssh|aws|gnupg|kube|docker)[\\/]/.test(path)
}

/** Taints the turn: every fetch after this read asks (see fetch-url.ts). */
export function markSensitiveRead(ctx: ToolContext, path: string): void {
  const reads = (ctx.turn.sensitiveReads ??= [])
  if (!reads.includes(path)) reads.push(path)
}

/**
 * A folder no grant may cover: a filesystem or drive root (`/`, `C:\`, a share's root), the user's
 * home folder or any folder holding it (`/home`, `/Users`): allowing `~/.bashrc`'s folder would allow
 * `~/.ssh/id_rsa`.
 */
export function tooWideToGrant(folder: string): boolean {
  return dirname(folder) === folder || isWithin(realPathOf(homedir()), folder)
}

/** A unified diff of the change (`a/` and `b/` labels, 3 lines of context), as `git diff` would show it. */
export function unifiedDiff(display: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${display}`, `b/${display}`, before, after, undefined, undefined, { context: 3 })
}

/** Counts added and removed lines in a unified diff, for one-line summaries. */
export function diffStats(diff: string): { added: number; removed: number } {
  let added = 0
  let removed = 0
  let inHunks = false
  for (const line of diff.split('\n')) {
    // Header lines (`--- a/x`, `+++ b/x`) come before the first hunk; after it, `---` is a removed `--` line.
    if (line.startsWith('@@')) inHunks = true
    if (!inHunks) continue
    if (line.startsWith('+')) added++
    else if (line.startsWith('-')) removed++
  }
  return { added, removed }
}

import { createTwoFilesPatch } from 'diff'
import { cutMiddle } from '../text/cut'
import type { ApprovalRequest, ToolContext } from '../tools/types'

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
  const approved = await ctx.approve({ ...request, preview: request.preview === undefined ? undefined : cutMiddle(request.preview, MAX_PREVIEW_CHARS, { headShare: 1 }) })
  if (approved) return null
  return {
    success: false,
    denied: true,
    error: `The user declined: ${request.tool} did not ${action}. Nothing was changed. Do not retry the same call; ask the user what they would like instead.`
  }
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

import { isUtf8 } from 'node:buffer'
import { readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { z } from 'zod'
import { writeFileAtomicText } from '../fs/atomic'
import { defineTool, type ToolContext, type ToolDef } from '../tools/types'
import { diffStats, requestApproval, unifiedDiff } from './approval'
import { looksBinary, statOrNull } from './fs-info'
import type { WorkspaceEnv } from './paths'
import { resolveWriteTarget, stillLeadsThere, type WriteTarget } from './real-path'
import { formatCount } from './text'

const writeFileSchema = z.object({
  path: z
    .string()
    .min(1)
    .describe('Relative to the workspace, absolute or ~.'),
  content: z.string().describe('The whole new content.')
})

/** `utf8` is false when decoding would replace bytes (e.g. a Latin-1 file), so an edit must not round-trip it. */
type CurrentFile = { exists: false } | { exists: true; binary: boolean; utf8: boolean; bytes: Buffer; text: string }

/** Reads what is on disk now, to diff against and to detect a change made while the user was deciding. */
export async function readCurrent(abs: string): Promise<CurrentFile> {
  try {
    const bytes = await readFile(abs)
    return { exists: true, binary: looksBinary(bytes), utf8: isUtf8(bytes), bytes, text: bytes.toString('utf8') }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false }
    throw error
  }
}

/** The nearest existing ancestor of `path`'s folder when it is a file, which would make creating the folders fail. */
function fileInTheWay(path: string): string | null {
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    const stats = statOrNull(folder)
    if (stats) return stats.isDirectory() ? null : folder
    if (dirname(folder) === folder) return null
  }
}

function sameAsBefore(before: CurrentFile, now: CurrentFile): boolean {
  if (!before.exists || !now.exists) return before.exists === now.exists
  return before.bytes.equals(now.bytes)
}

/**
 * Approval of the real target (the summary says which symlink led there), then a check that nobody
 * changed the file or pointed the link elsewhere meanwhile, then an atomic write (temp + fsync +
 * rename) of the real target. Shared by write_file and edit_file so both behave the same way around
 * the user's decision.
 */
export async function approveAndWrite(
  ctx: ToolContext,
  tool: string,
  target: WriteTarget,
  before: CurrentFile,
  content: string,
  summary: string,
  preview: string
): Promise<{ success: false; denied?: true; error: string } | null> {
  const through = target.via ? `${summary}, through the symlink ${target.via}` : summary
  // Files that make other programs run code (git's own, package.json, a Makefile…) are asked every time.
  const shown = target.askEveryTime ? `${through} (${target.askEveryTime}, so this is asked every time)` : through
  const request = { kind: 'write' as const, tool, summary: shown, path: target.abs, preview, ...(target.askEveryTime ? { runsCode: target.askEveryTime } : {}) }
  const refusal = await requestApproval(
    ctx,
    target.outside || target.askEveryTime ? { ...request, outsideWorkspace: true, scopes: ['once'] } : request,
    `write ${target.display}`
  )
  if (refusal) return refusal
  if (!stillLeadsThere(target)) {
    return { success: false, error: `${target.via ?? target.display} changed while waiting for approval (a symlink on the way now leads elsewhere), so nothing was written. Check the path and redo the change.` }
  }
  if (!sameAsBefore(before, await readCurrent(target.abs))) {
    return {
      success: false,
      error: `${target.display} changed on disk while waiting for approval, so nothing was written (that would have lost the other change). Read the file again and redo the change.`
    }
  }
  await writeFileAtomicText(target.abs, content)
  return null
}

export function createWriteFileTool(env: WorkspaceEnv): ToolDef<typeof writeFileSchema> {
  return defineTool({
    name: 'write_file',
    description:
      'Create a file or replace its whole content (missing folders are created). Prefer edit_file to change part of a file.',
    schema: writeFileSchema,
    async run(args, ctx) {
      const resolved = resolveWriteTarget(args.path, ctx, env)
      if (!resolved.ok) return { success: false, error: resolved.error }
      const target = resolved.target
      const stats = statOrNull(target.abs)
      if (stats?.isDirectory()) return { success: false, error: `${target.display} is a folder. Give a file path inside it, e.g. ${target.display}/notes.md.` }
      if (stats && !stats.isFile()) return { success: false, error: `${target.display} is not a regular file (device, socket or pipe); write_file only writes regular files.` }
      const blocker = stats ? null : fileInTheWay(target.abs)
      if (blocker) return { success: false, error: `Cannot create ${target.display}: ${blocker} is a file, not a folder. Choose another path.` }

      const before = await readCurrent(target.abs)
      const bytes = Buffer.byteLength(args.content, 'utf8')
      if (before.exists && !before.binary && before.text === args.content) {
        return { success: true, path: target.display, bytes_written: 0, created: false, unchanged: true, note: 'The file already has exactly this content; nothing was written.' }
      }

      let summary: string
      let preview: string
      if (!before.exists) {
        summary = `Create ${target.display} (${formatCount(bytes)} bytes)`
        preview = args.content
      } else if (before.binary) {
        summary = `Replace binary file ${target.display} (${formatCount(before.bytes.length)} bytes) with ${formatCount(bytes)} bytes of text`
        preview = args.content
      } else {
        preview = unifiedDiff(target.display, before.text, args.content)
        const { added, removed } = diffStats(preview)
        summary = `Overwrite ${target.display} (+${added} −${removed} lines)`
      }

      const refusal = await approveAndWrite(ctx, 'write_file', target, before, args.content, summary, preview)
      if (refusal) return refusal
      return { success: true, path: target.display, bytes_written: bytes, created: !before.exists }
    }
  })
}

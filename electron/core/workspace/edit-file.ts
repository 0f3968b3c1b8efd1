import { z } from 'zod'
import { cutMiddle } from '../text/cut'
import { fuzzyReplace, type FuzzyWording } from '../text/fuzzy-replace'
import { defineTool, type ToolDef } from '../tools/types'
import { approveRead, diffStats, unifiedDiff } from './approval'
import { notFoundMessage, statOrNull } from './fs-info'
import type { WorkspaceEnv } from './paths'
import { resolveWriteTarget } from './real-path'
import { formatCount } from './text'
import { approveAndWrite, readCurrent } from './write-file'

/** The diff handed back to the model so it can check the edit without reading the file again. */
const RESULT_DIFF_CHARS = 4_000

/** fuzzyReplace's retry advice, pointed at the workspace tools. */
const FILE_WORDING: FuzzyWording = { subject: 'file', reader: 'read_file', retry: 'call edit_file again', change: 'edit' }

const editFileSchema = z.object({
  path: z.string().min(1).describe('Relative to the workspace, absolute or ~.'),
  old_string: z
    .string()
    .describe('Exact text copied from the file (no line numbers), unique.'),
  new_string: z.string().describe('Replacement ("" deletes).'),
  replace_all: z.boolean().optional().describe('Replace every match.')
})

export function createEditFileTool(env: WorkspaceEnv): ToolDef<typeof editFileSchema> {
  return defineTool({
    name: 'edit_file',
    description:
      'Replace text in a file: old_string must match one place (small whitespace or quote differences are tolerated).',
    schema: editFileSchema,
    async run(args, ctx) {
      // The real target (symlinks resolved); a link leading out of the workspace is refused before anything is read.
      const resolved = resolveWriteTarget(args.path, ctx, env)
      if (!resolved.ok) return { success: false, error: resolved.error }
      const target = resolved.target
      // Outside the workspace, reading comes first: a failed match would show the file's text (candidates) unasked.
      const access = await approveRead(ctx, env, 'edit_file', target)
      if ('success' in access) return access
      const stats = statOrNull(target.abs)
      if (!stats) return { success: false, error: `${notFoundMessage(target.abs, target.display, 'File')} To create a new file, use write_file.` }
      if (!stats.isFile()) return { success: false, error: `${target.display} is not a regular file${stats.isDirectory() ? ' but a folder' : ''}; edit_file only edits text files.` }

      const before = await readCurrent(target.abs)
      if (!before.exists) return { success: false, error: notFoundMessage(target.abs, target.display, 'File') }
      if (before.binary) {
        return { success: false, error: `${target.display} is a binary file (${formatCount(before.bytes.length)} bytes); edit_file only edits text. Use write_file to replace it entirely if that is really intended.` }
      }

      if (!before.utf8) {
        return {
          success: false,
          error: `${target.display} is not valid UTF-8 (perhaps Latin-1 or another legacy encoding), and editing it as text would corrupt the bytes that do not decode. Convert it first (e.g. run_command with iconv), or leave it unchanged.`
        }
      }

      const replaced = fuzzyReplace(before.text, args.old_string, args.new_string, args.replace_all ?? false, FILE_WORDING)
      if (!replaced.ok) {
        return { success: false, code: replaced.code, error: replaced.error, ...(replaced.candidates.length > 0 ? { candidates: replaced.candidates } : {}) }
      }
      // A real no-op: old_string was found, and new_string fitted to the file (quote style, indentation) is the same text.
      // (old_string absent with new_string present is a not_found failure from fuzzyReplace, never a success.)
      if (replaced.content === before.text) {
        return {
          success: true,
          path: target.display,
          replacements: 0,
          unchanged: true,
          note:
            'old_string was found, but new_string is the same text once fitted to the file (quote style, indentation), so nothing was changed. ' +
            'To change it, put different text in new_string.'
        }
      }

      const diff = unifiedDiff(target.display, before.text, replaced.content)
      const { added, removed } = diffStats(diff)
      const plural = replaced.replacements === 1 ? '' : 's'
      const summary = `Edit ${target.display} (${replaced.replacements} replacement${plural}, +${added} −${removed} lines)`
      const refusal = await approveAndWrite(ctx, 'edit_file', target, before, replaced.content, summary, diff)
      if (refusal) return refusal
      return {
        success: true,
        path: target.display,
        replacements: replaced.replacements,
        strategy: replaced.strategy,
        diff: cutMiddle(diff, RESULT_DIFF_CHARS, { headShare: 1 })
      }
    }
  })
}

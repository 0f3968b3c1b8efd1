import { createReadStream } from 'node:fs'
import { z } from 'zod'
import { defineTool, type ToolDef } from '../tools/types'
import { approveRead } from './approval'
import { isBinaryFile, notFoundMessage, statOrNull } from './fs-info'
import { resolveToolPath, type WorkspaceEnv } from './paths'
import { formatCount } from './text'

export const READ_MAX_LINES = 2_000
export const READ_MAX_CHARS = 100_000
export const READ_MAX_LINE_CHARS = 2_000

const readFileSchema = z.object({
  path: z.string().min(1).describe('Relative to the workspace, absolute or ~.'),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('First line, 1-based.'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Lines (max ${formatCount(READ_MAX_LINES)}).`)
})

interface LineWindow {
  lines: string[]
  totalLines: number
  /** Last line shown (0 when none). */
  lastShown: number
  longLinesCut: number
}

/**
 * Streams the file once: collects the requested window (stopping early at the char cap) and counts every
 * line, so a big log costs memory for the window only.
 */
async function readLineWindow(path: string, start: number, limit: number, signal?: AbortSignal): Promise<LineWindow> {
  const end = start + limit - 1
  const lines: string[] = []
  let shownChars = 0
  let collecting = true
  let completed = 0
  let current = ''
  let currentLength = 0
  let longLinesCut = 0
  let lastShown = 0

  const finishLine = (lineNumber: number) => {
    if (!collecting || lineNumber < start || lineNumber > end) return
    let text = currentLength > READ_MAX_LINE_CHARS ? current.slice(0, READ_MAX_LINE_CHARS) : current
    if (currentLength <= READ_MAX_LINE_CHARS && text.endsWith('\r')) text = text.slice(0, -1)
    if (lineNumber === 1 && text.startsWith('\uFEFF')) text = text.slice(1)
    if (currentLength > READ_MAX_LINE_CHARS) {
      text += ` …[line cut: ${formatCount(currentLength)} chars]`
      longLinesCut++
    }
    const formatted = `${String(lineNumber).padStart(5)}| ${text}`
    if (lines.length > 0 && shownChars + formatted.length + 1 > READ_MAX_CHARS) {
      collecting = false
      return
    }
    lines.push(formatted)
    shownChars += formatted.length + 1
    lastShown = lineNumber
  }

  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 })
  for await (const chunk of stream as AsyncIterable<string>) {
    if (signal?.aborted) {
      stream.destroy()
      throw new Error('read cancelled')
    }
    let pos = 0
    while (pos < chunk.length) {
      const newline = chunk.indexOf('\n', pos)
      const stop = newline === -1 ? chunk.length : newline
      const lineNumber = completed + 1
      if (collecting && lineNumber >= start && lineNumber <= end && current.length <= READ_MAX_LINE_CHARS) {
        current += chunk.slice(pos, Math.min(stop, pos + READ_MAX_LINE_CHARS + 1 - current.length))
      }
      currentLength += stop - pos
      if (newline === -1) break
      finishLine(lineNumber)
      completed++
      current = ''
      currentLength = 0
      pos = newline + 1
    }
  }
  const hasPartialLine = currentLength > 0
  if (hasPartialLine) finishLine(completed + 1)
  return { lines, totalLines: completed + (hasPartialLine ? 1 : 0), lastShown, longLinesCut }
}

export function createReadFileTool(env: WorkspaceEnv): ToolDef<typeof readFileSchema> {
  return defineTool({
    name: 'read_file',
    description:
      `Read a text file with line numbers ("   12| text"), up to ${formatCount(READ_MAX_LINES)} lines / ${formatCount(READ_MAX_CHARS)} chars per call; page with offset and limit.`,
    schema: readFileSchema,
    async run(args, ctx) {
      const target = resolveToolPath(args.path, ctx, env)
      const access = await approveRead(ctx, env, 'read_file', target)
      if ('success' in access) return access
      // Opened by its real path, so what was checked (or approved) is what is read.
      const { display } = target
      const abs = access.real
      const stats = statOrNull(abs)
      if (!stats) return { success: false, error: notFoundMessage(abs, display, 'File') }
      if (stats.isDirectory()) return { success: false, error: `${display} is a folder, not a file. Use list_dir to see what it contains.` }
      if (!stats.isFile()) return { success: false, error: `${display} is not a regular file (device, socket or pipe), so it cannot be read.` }
      if (await isBinaryFile(abs)) {
        return {
          success: false,
          error: `${display} is a binary file (${formatCount(stats.size)} bytes); read_file only shows text. To inspect it, use run_command with a tool made for that format (e.g. \`file\`, \`unzip -l\`, \`xxd | head\`).`
        }
      }

      const start = args.offset ?? 1
      const limit = Math.min(args.limit ?? READ_MAX_LINES, READ_MAX_LINES)
      const window = await readLineWindow(abs, start, limit, ctx.signal)
      if (window.totalLines === 0) {
        return { success: true, path: display, content: '', total_lines: 0, truncated: false, note: 'The file is empty.' }
      }
      if (start > window.totalLines) {
        return {
          success: false,
          error: `offset ${start} is past the end of ${display}, which has ${formatCount(window.totalLines)} lines. Use an offset between 1 and ${window.totalLines}.`
        }
      }

      const truncated = window.lastShown < window.totalLines
      const notes: string[] = []
      if (truncated) {
        const why = window.lastShown - start + 1 < limit ? ` (the ${formatCount(READ_MAX_CHARS)}-char cap was reached)` : ''
        notes.push(
          `Showing lines ${start}-${window.lastShown} of ${formatCount(window.totalLines)}${why}. Call read_file with offset ${window.lastShown + 1} to read on.`
        )
      }
      if (window.longLinesCut > 0) {
        notes.push(`${window.longLinesCut} line(s) longer than ${formatCount(READ_MAX_LINE_CHARS)} chars were cut; use search_files to find text inside them.`)
      }
      return {
        success: true,
        path: display,
        content: window.lines.join('\n'),
        start_line: start,
        end_line: window.lastShown,
        total_lines: window.totalLines,
        truncated,
        ...(notes.length > 0 ? { hint: notes.join(' ') } : {})
      }
    }
  })
}

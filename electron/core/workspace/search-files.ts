import type { Dirent } from 'node:fs'
import { readFile, readdir, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import picomatch from 'picomatch'
import { z } from 'zod'
import { defineTool, type ToolDef } from '../tools/types'
import { approveRead, looksSecret, markSensitiveRead } from './approval'
import { SKIPPED_DIRS, entryType, looksBinary, notFoundMessage, statOrNull, type EntryType } from './fs-info'
import { displayPath, resolveToolPath, workspaceRoot, type WorkspaceEnv } from './paths'
import { capLine, formatCount } from './text'

export const SEARCH_DEFAULT_RESULTS = 50
export const SEARCH_MAX_RESULTS = 500
export const SEARCH_MAX_FILE_BYTES = 1_048_576
const HIT_LINE_CHARS = 200
/** A search that has to walk a whole disk should report what it has rather than hang the turn. */
const SEARCH_TIME_BUDGET_MS = 30_000

const searchFilesSchema = z.object({
  path: z.string().optional().describe('Folder or file (default: the workspace).'),
  name: z
    .string()
    .min(1)
    .optional()
    .describe("Name glob, e.g. '*.ts' or 'src/**/*.test.ts'."),
  content: z.string().min(1).optional().describe('Text (or regex) inside files.'),
  regex: z.boolean().optional().describe('content is a JS regex.'),
  case_sensitive: z.boolean().optional().describe('Match case.'),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(SEARCH_MAX_RESULTS)
    .optional()
    .describe(`Default ${SEARCH_DEFAULT_RESULTS}, max ${SEARCH_MAX_RESULTS}.`)
})

type SearchArgs = z.infer<typeof searchFilesSchema>

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

interface ContentPattern {
  /** Tested on each line, so `^` and `$` mean line start and end. */
  line: RegExp
  /** The same with the `m` flag: a quick whole-file test that can only say yes more often, never less. */
  file: RegExp
}

function buildContentPattern(args: SearchArgs): ContentPattern | string {
  const flags = args.case_sensitive ? '' : 'i'
  const source = args.regex ? args.content! : escapeRegExp(args.content!)
  try {
    return { line: new RegExp(source, flags), file: new RegExp(source, `${flags}m`) }
  } catch (error) {
    return `Invalid regular expression ${JSON.stringify(args.content)}: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}. Fix the pattern (escape special characters such as ( [ . * with a backslash), or set regex: false to search for the plain text.`
  }
}

function buildNameMatcher(args: SearchArgs): ((rel: string) => boolean) | null {
  if (!args.name) return null
  const glob = args.name.replace(/^\.\//, '')
  const isMatch = picomatch(glob, { dot: true, nocase: !args.case_sensitive })
  // picomatch's own `basename` option breaks patterns with slashes, so choose what to match against here.
  return glob.includes('/') ? isMatch : (rel) => isMatch(basename(rel))
}

interface WalkItem {
  abs: string
  rel: string
  type: EntryType
}

interface WalkLimits {
  signal?: AbortSignal
  deadline: number
  /** Set when the walk stopped at the deadline, so the result can say it is partial. */
  timedOut: boolean
}

/** Depth first in name order, never following symlinks (no loops) and never opening .git or node_modules. */
async function* walk(root: string, limits: WalkLimits): AsyncGenerator<WalkItem, void> {
  const stack: Array<{ abs: string; rel: string }> = [{ abs: root, rel: '' }]
  while (stack.length > 0) {
    if (limits.signal?.aborted) return
    if (Date.now() > limits.deadline) {
      limits.timedOut = true
      return
    }
    const folder = stack.pop()!
    let dirents: Dirent[]
    try {
      dirents = await readdir(folder.abs, { withFileTypes: true })
    } catch {
      continue
    }
    dirents.sort((a, b) => a.name.localeCompare(b.name))
    const subfolders: Array<{ abs: string; rel: string }> = []
    for (const dirent of dirents) {
      const abs = join(folder.abs, dirent.name)
      const rel = folder.rel === '' ? dirent.name : `${folder.rel}/${dirent.name}`
      if (dirent.isDirectory()) {
        if (SKIPPED_DIRS.has(dirent.name)) continue
        subfolders.push({ abs, rel })
      }
      yield { abs, rel, type: entryType(dirent) }
    }
    for (let i = subfolders.length - 1; i >= 0; i--) stack.push(subfolders[i])
  }
}

/** Files read at once during a content search: disk latency overlaps while results stay in walk order. */
const READ_AHEAD = 16

type LoadedFile = { kind: 'text'; text: string } | { kind: 'large' | 'binary' | 'unreadable' }

async function loadText(abs: string): Promise<LoadedFile> {
  const info = await stat(abs).catch(() => null)
  if (!info?.isFile()) return { kind: 'unreadable' }
  if (info.size > SEARCH_MAX_FILE_BYTES) return { kind: 'large' }
  const bytes = await readFile(abs).catch(() => null)
  if (!bytes) return { kind: 'unreadable' }
  if (looksBinary(bytes)) return { kind: 'binary' }
  const text = bytes.toString('utf8')
  return { kind: 'text', text: text.includes('\r') ? text.replace(/\r\n/g, '\n') : text }
}

interface SearchState {
  maxResults: number
  /** Name results, or the files that had content hits. */
  files: string[]
  hits: string[]
  scannedFiles: number
  skippedLarge: number
  skippedBinary: number
  /** More results existed than max_results allowed. */
  truncated: boolean
  /** Secret-looking files whose lines were returned. */
  secretFiles: string[]
}

/** Adds a file's matching lines (up to the cap); returns whether it had any. */
function collectHits(text: string, shown: string, pattern: ContentPattern, state: SearchState): boolean {
  // One pass over the whole file rejects most files without splitting them into lines.
  if (!pattern.file.test(text)) return false
  const lines = text.split('\n')
  let found = false
  for (let i = 0; i < lines.length; i++) {
    const match = pattern.line.exec(lines[i])
    if (!match) continue
    if (state.hits.length >= state.maxResults) {
      state.truncated = true
      break
    }
    const line = lines[i].trimStart()
    const indent = lines[i].length - line.length
    state.hits.push(`${shown}:${i + 1}: ${capLine(line, HIT_LINE_CHARS, match.index - indent)}`)
    found = true
  }
  return found
}

type Candidates = AsyncIterable<WalkItem & { shown: string }>

async function searchNames(candidates: Candidates, state: SearchState): Promise<void> {
  for await (const item of candidates) {
    if (state.files.length >= state.maxResults) {
      state.truncated = true
      return
    }
    state.files.push(item.type === 'dir' ? `${item.shown}/` : item.shown)
  }
}

async function searchContent(candidates: Candidates, pattern: ContentPattern, state: SearchState): Promise<void> {
  const pending: Array<{ shown: string; abs: string; load: Promise<LoadedFile> }> = []
  const takeNext = async () => {
    const next = pending.shift()!
    const loaded = await next.load
    state.scannedFiles++
    if (loaded.kind === 'large') state.skippedLarge++
    if (loaded.kind === 'binary') state.skippedBinary++
    if (loaded.kind === 'text' && collectHits(loaded.text, next.shown, pattern, state)) {
      state.files.push(next.shown)
      // Lines of a secret-looking file were shown: the turn is tainted as by reading it.
      if (looksSecret(next.abs)) state.secretFiles.push(next.abs)
    }
  }
  for await (const item of candidates) {
    if (item.type !== 'file') continue
    if (state.hits.length >= state.maxResults) {
      state.truncated = true
      return
    }
    pending.push({ shown: item.shown, abs: item.abs, load: loadText(item.abs) })
    if (pending.length >= READ_AHEAD) await takeNext()
  }
  while (pending.length > 0 && !state.truncated) {
    if (state.hits.length >= state.maxResults) {
      state.truncated = true
      return
    }
    await takeNext()
  }
}

export function createSearchFilesTool(env: WorkspaceEnv): ToolDef<typeof searchFilesSchema> {
  return defineTool({
    name: 'search_files',
    description:
      'Find files by name (glob) and/or lines by content under a folder; hits come as "path:line: text". Skips .git, node_modules and binary files.',
    schema: searchFilesSchema,
    async run(args, ctx) {
      if (!args.name && !args.content) {
        return { success: false, error: "Give name (a glob such as '*.ts') and/or content (text to find). To browse a folder, use list_dir." }
      }
      const pattern = args.content ? buildContentPattern(args) : null
      if (typeof pattern === 'string') return { success: false, error: pattern }
      const matchesName = buildNameMatcher(args)
      const root = resolveToolPath(args.path ?? '.', ctx, env)
      const access = await approveRead(ctx, env, 'search_files', root)
      if ('success' in access) return access
      // Walked from its real path (the walk never follows links below it); shown relative to the workspace.
      const start = access.real
      const workspace = access.inside ? access.root : workspaceRoot(ctx, env)
      const rootStats = statOrNull(start)
      if (!rootStats) return { success: false, error: notFoundMessage(start, root.display, 'Path') }

      const limits: WalkLimits = { signal: ctx.signal, deadline: Date.now() + SEARCH_TIME_BUDGET_MS, timedOut: false }
      const items: AsyncIterable<WalkItem> | WalkItem[] = rootStats.isDirectory()
        ? walk(start, limits)
        : [{ abs: start, rel: basename(root.abs), type: 'file' }]
      const candidates = (async function* () {
        for await (const item of items) {
          if (matchesName && !matchesName(item.rel)) continue
          yield { ...item, shown: displayPath(item.abs, workspace) }
        }
      })()
      const state: SearchState = {
        maxResults: args.max_results ?? SEARCH_DEFAULT_RESULTS,
        files: [],
        hits: [],
        scannedFiles: 0,
        skippedLarge: 0,
        skippedBinary: 0,
        truncated: false,
        secretFiles: []
      }
      if (pattern) await searchContent(candidates, pattern, state)
      else await searchNames(candidates, state)
      if (ctx.signal?.aborted) return { success: false, error: 'search_files was cancelled.' }
      for (const file of state.secretFiles) markSensitiveRead(ctx, file)

      const notes: string[] = []
      if (state.truncated) {
        notes.push(`Stopped at ${state.maxResults} results; narrow path, name or content, or raise max_results (max ${SEARCH_MAX_RESULTS}).`)
      }
      if (limits.timedOut) notes.push(`Stopped after ${SEARCH_TIME_BUDGET_MS / 1000} s of searching; results are partial. Narrow path or name.`)
      if (state.skippedLarge > 0) {
        notes.push(`${formatCount(state.skippedLarge)} file(s) over 1 MiB were not searched; use read_file with offset on them.`)
      }
      const count = pattern ? state.hits.length : state.files.length
      if (count === 0 && !limits.timedOut) {
        notes.push(args.case_sensitive ? 'No matches. Try case_sensitive: false or a shorter pattern.' : 'No matches. Try a shorter or different pattern, or another folder.')
      }
      return {
        success: true,
        path: root.display,
        ...(pattern ? { matches: state.hits, files_with_matches: state.files.length, scanned_files: state.scannedFiles } : { files: state.files }),
        count,
        truncated: state.truncated || limits.timedOut,
        ...(state.skippedBinary > 0 ? { skipped_binary: state.skippedBinary } : {}),
        ...(notes.length > 0 ? { note: notes.join(' ') } : {})
      }
    }
  })
}

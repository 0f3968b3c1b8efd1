import type { Dirent } from 'node:fs'
import { lstat, readdir, readlink } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { defineTool, type ToolDef } from '../tools/types'
import { approveRead } from './approval'
import { SKIPPED_DIRS, entryType, notFoundMessage, statOrNull, type EntryType } from './fs-info'
import { resolveToolPath, type WorkspaceEnv } from './paths'
import { formatCount } from './text'

export const LIST_MAX_ENTRIES = 500
export const LIST_MAX_DEPTH = 4

const listDirSchema = z.object({
  path: z.string().optional().describe('Default: the workspace.'),
  depth: z
    .number()
    .int()
    .min(1)
    .max(LIST_MAX_DEPTH)
    .optional()
    .describe(`Levels (default 1, max ${LIST_MAX_DEPTH}).`),
  show_hidden: z.boolean().optional().describe('Include dot names.')
})

export interface ListEntry {
  /** Relative to the listed folder, with forward slashes. */
  path: string
  type: EntryType
  size?: number
  /** Where a symlink points (links are listed, never followed). */
  target?: string
  /** `.git` and `node_modules` are listed but not opened. */
  contents_skipped?: true
  error?: string
}

/** Tree order: at each level folders come before files, then names alphabetically. */
function compareTreeOrder(a: ListEntry, b: ListEntry): number {
  const aParts = a.path.split('/')
  const bParts = b.path.split('/')
  for (let i = 0; i < Math.min(aParts.length, bParts.length); i++) {
    if (aParts[i] === bParts[i]) continue
    const aIsDir = i < aParts.length - 1 || a.type === 'dir'
    const bIsDir = i < bParts.length - 1 || b.type === 'dir'
    if (aIsDir !== bIsDir) return aIsDir ? -1 : 1
    return aParts[i].localeCompare(bParts[i])
  }
  return aParts.length - bParts.length
}

async function describeEntry(dirent: Dirent, abs: string, rel: string): Promise<ListEntry> {
  const type = entryType(dirent)
  const entry: ListEntry = { path: rel, type }
  try {
    if (type === 'file') entry.size = (await lstat(abs)).size
    if (type === 'symlink') entry.target = await readlink(abs)
  } catch (error) {
    entry.error = (error as NodeJS.ErrnoException).code ?? 'unreadable'
  }
  if (type === 'dir' && SKIPPED_DIRS.has(dirent.name)) entry.contents_skipped = true
  return entry
}

export function createListDirTool(env: WorkspaceEnv): ToolDef<typeof listDirSchema> {
  return defineTool({
    name: 'list_dir',
    description:
      `List a folder's entries with type and size (at most ${LIST_MAX_ENTRIES}).`,
    schema: listDirSchema,
    async run(args, ctx) {
      const target = resolveToolPath(args.path ?? '.', ctx, env)
      const access = await approveRead(ctx, env, 'list_dir', target)
      if ('success' in access) return access
      const { display } = target
      const root = access.real
      const stats = statOrNull(root)
      if (!stats) return { success: false, error: notFoundMessage(root, display, 'Folder') }
      if (!stats.isDirectory()) return { success: false, error: `${display} is a file, not a folder. Use read_file to read it.` }

      const depth = args.depth ?? 1
      const entries: ListEntry[] = []
      let hiddenSkipped = 0
      let truncated = false
      // Breadth first, so a cap shows every top-level entry before anything deep.
      const queue: Array<{ abs: string; rel: string; level: number }> = [{ abs: root, rel: '', level: 1 }]
      while (queue.length > 0 && !truncated) {
        if (ctx.signal?.aborted) return { success: false, error: 'list_dir was cancelled.' }
        const folder = queue.shift()!
        let dirents: Dirent[]
        try {
          dirents = await readdir(folder.abs, { withFileTypes: true })
        } catch (error) {
          if (folder.rel === '') return { success: false, error: `Cannot read ${display}: ${(error as Error).message}` }
          const parent = entries.find((entry) => entry.path === folder.rel)
          if (parent) parent.error = (error as NodeJS.ErrnoException).code ?? 'unreadable'
          continue
        }
        dirents.sort((a, b) => a.name.localeCompare(b.name))
        for (const dirent of dirents) {
          if (!args.show_hidden && dirent.name.startsWith('.')) {
            hiddenSkipped++
            continue
          }
          if (entries.length >= LIST_MAX_ENTRIES) {
            truncated = true
            break
          }
          const abs = join(folder.abs, dirent.name)
          const rel = folder.rel === '' ? dirent.name : `${folder.rel}/${dirent.name}`
          const entry = await describeEntry(dirent, abs, rel)
          entries.push(entry)
          if (entry.type === 'dir' && !entry.contents_skipped && folder.level < depth) queue.push({ abs, rel, level: folder.level + 1 })
        }
      }

      entries.sort(compareTreeOrder)
      const notes: string[] = []
      if (truncated) {
        notes.push(`Showing the first ${formatCount(LIST_MAX_ENTRIES)} entries, breadth first; list a subfolder or use a smaller depth to see the rest.`)
      }
      if (hiddenSkipped > 0) notes.push(`${formatCount(hiddenSkipped)} hidden entries not shown; pass show_hidden: true to include them.`)
      return {
        success: true,
        path: display,
        entries,
        count: entries.length,
        truncated,
        ...(notes.length > 0 ? { note: notes.join(' ') } : {})
      }
    }
  })
}

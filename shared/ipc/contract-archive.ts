import { z } from 'zod'
import { archiveSources } from '../archive-names'
import { defineRoute } from './define'
import { folderPath } from './fields'
import { memoryResultSchema, memoryTargetSchema } from './domain'

/**
 * The memory archive's routes (issue 28, part A; spread into `ipcRoutes`): search over memory and the
 * archive, and the Archive section of the Memory screen. Changes are announced with `memory.changed`.
 */

const id = z.number().int().positive()

/** One archived entry as the Memory screen shows it. Times are milliseconds since the epoch. */
export const archiveEntrySchema = z.object({
  id,
  target: memoryTargetSchema,
  projectKey: z.string().nullable(),
  text: z.string(),
  source: z.enum(archiveSources),
  addedAt: z.number(),
  lastRecalledAt: z.number().nullable(),
  recallCount: z.number().int().min(0),
  hidden: z.boolean()
})
export type ArchiveEntryView = z.infer<typeof archiveEntrySchema>

/** A live core entry that holds the words searched for (`position` is 1-based in its file). */
export const coreMatchSchema = z.object({ target: memoryTargetSchema, position: z.number().int().positive(), text: z.string() })
export type CoreMatchView = z.infer<typeof coreMatchSchema>

export const archiveRoutes = {
  'memory.search': defineRoute({
    /** `workspace`: the project whose PROJECT.md is searched too (the Memory screen's Project card). */
    input: z.object({ query: z.string().max(1000), limit: z.number().int().min(1).max(100).optional(), workspace: folderPath.optional() }),
    output: z.object({ core: z.array(coreMatchSchema), archive: z.array(archiveEntrySchema) })
  }),
  'archive.list': defineRoute({
    input: z.object({ offset: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(200).optional(), target: memoryTargetSchema.optional() }),
    output: z.object({ entries: z.array(archiveEntrySchema), total: z.number().int().min(0) })
  }),
  'archive.remove': defineRoute({ input: z.object({ id }), output: z.object({ ok: z.literal(true), ledgerId: z.number().int() }) }),
  'archive.setHidden': defineRoute({ input: z.object({ id, hidden: z.boolean() }), output: z.object({ ok: z.literal(true) }) }),
  /** "Move back to memory": added to its core file (refused when that has no room), then removed from the archive. */
  'archive.restore': defineRoute({ input: z.object({ id }), output: memoryResultSchema })
}

import { z } from 'zod'
import { reviewFailureSchema } from '../review-failures'
import { defineRoute } from './define'

/**
 * The import routes of the contract (spread into `ipcRoutes`): Settings → Data previews what an
 * import would bring in, runs it with progress, lists and undoes batches, and learns from imported
 * conversations in the background. Not for the quick window.
 */

/**
 * Every source the app knows words for. Which of them this build can import is what `import.sources`
 * answers (the core's table of importers), so a new importer is one entry there.
 */
export const importSourceIds = ['hermes', 'openclaw', 'claude-code', 'chatgpt', 'claude'] as const
export type ImportSourceId = (typeof importSourceIds)[number]

/** A path the renderer sends: typed or picked. The handler also requires it to be absolute (after `~`). */
const importPath = z
  .string()
  .trim()
  .min(1, 'choose where to import from')
  .max(4096)
  .refine((path) => !path.includes('\0'), 'a path cannot contain a NUL character')

const sourceInput = z.object({ source: z.enum(importSourceIds), path: importPath })

const countsSchema = z.object({
  memory: z.object({ added: z.number().int(), duplicates: z.number().int(), /** Kept in the archive for lack of room (absent from faces that predate it). */ archived: z.number().int().optional(), proposed: z.number().int(), refused: z.number().int() }),
  skills: z.object({
    created: z.number().int(),
    identical: z.number().int(),
    proposed: z.number().int(),
    files: z.number().int(),
    refused: z.number().int(),
    /** Created skills that kept the usage figures their agent had counted (Hermes's skills/.usage.json). */
    usage: z.number().int()
  }),
  sessions: z.object({ added: z.number().int(), existing: z.number().int(), messages: z.number().int() })
})
export type ImportCountsInfo = z.infer<typeof countsSchema>

const problemSchema = z.object({ file: z.string(), line: z.number().int().optional(), message: z.string() })

/** What an import did or (a preview, `dryRun`) would do. */
export const importReportSchema = z.object({
  importId: z.number().int().nullable(),
  source: z.enum(importSourceIds),
  path: z.string(),
  dryRun: z.boolean(),
  counts: countsSchema,
  problems: z.array(problemSchema)
})
export type ImportReportInfo = z.infer<typeof importReportSchema>

export const importSourceInfoSchema = z.object({
  id: z.enum(importSourceIds),
  /** What the location is: a folder (a Hermes home), or a file the export came as (a .zip or .json; its folder works too). */
  pick: z.enum(['folder', 'file']),
  /** Where it usually is on this machine; null when there is no usual place (an export the user downloaded). */
  defaultPath: z.string().nullable(),
  /** `defaultPath` exists. */
  found: z.boolean()
})
export type ImportSourceInfo = z.infer<typeof importSourceInfoSchema>

/** How learning from imported conversations is going (the last run, while nothing runs). */
export const learnImportedSchema = z.object({
  running: z.boolean(),
  /** The batch it learns from; null for every imported conversation. */
  importId: z.number().int().nullable(),
  /** Conversations queued when it started (those not reviewed before). */
  total: z.number().int(),
  /** Reviewed so far (failed ones included). */
  done: z.number().int(),
  current: z.object({ sessionId: z.string(), title: z.string().nullable() }).nullable(),
  /** Changes the reviews made (timeline rows) and proposed (Inbox). */
  changes: z.number().int(),
  proposed: z.number().int(),
  failed: z.number().int(),
  /** The user asked to stop: it stops once the conversation under review is done. */
  cancelRequested: z.boolean(),
  /** Why it ended before the end: cancelled, or learning was turned off meanwhile. */
  stopped: z.enum(['cancelled', 'learning_off']).nullable(),
  /** The latest failed review's reason. */
  lastError: z.string().nullable(),
  /** The same as data, for the face to word (absent from older processes: word `lastError` then). */
  lastFailure: reviewFailureSchema.nullable().optional(),
  startedAt: z.number().nullable(),
  finishedAt: z.number().nullable()
})
export type LearnImportedInfo = z.infer<typeof learnImportedSchema>

/** What Settings → Data shows of imports: the batch running (with progress) and learning from imports. */
export const importActivitySchema = z.object({
  running: z
    .object({
      source: z.enum(importSourceIds),
      path: z.string(),
      startedAt: z.number(),
      phase: z.enum(['starting', 'skills', 'sessions']),
      done: z.number().int(),
      /** Null while a streamed export is still being read. */
      total: z.number().int().nullable()
    })
    .nullable(),
  /**
   * The import this app ran last: its report, or why it failed (`error`, the English, with the path).
   * A failure the core keyed also carries its key and figures (shared/error-keys.ts), worded by each face;
   * an older peer sends the English alone.
   */
  last: z
    .object({
      source: z.enum(importSourceIds),
      path: z.string(),
      finishedAt: z.number(),
      report: importReportSchema.nullable(),
      error: z.string().nullable(),
      errorKey: z.string().nullable().optional(),
      errorParams: z.record(z.string(), z.union([z.string(), z.number()])).nullable().optional()
    })
    .nullable(),
  learning: learnImportedSchema,
  /** Imported conversations no "learn from imported conversations" has reviewed yet. */
  unreviewed: z.number().int(),
  /** `learning.enabled` and a mode other than `off`: learning from imports may start. */
  learningOn: z.boolean()
})
export type ImportActivity = z.infer<typeof importActivitySchema>

export const importBatchInfoSchema = z.object({
  id: z.number().int(),
  source: z.enum(importSourceIds),
  path: z.string(),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
  revertedAt: z.number().nullable(),
  counts: countsSchema,
  problems: z.number().int(),
  /** Its conversations still here, and those of them not yet learned from. */
  conversations: z.number().int(),
  unreviewed: z.number().int()
})
export type ImportBatchInfo = z.infer<typeof importBatchInfoSchema>

export const importUndoSchema = z.object({
  importId: z.number().int(),
  reverted: z.number().int(),
  /** Changes edited since the import, left as they are. */
  conflicts: z.array(z.object({ entryId: z.number().int(), target: z.string(), error: z.string() })),
  sessionsRemoved: z.number().int(),
  sessionsKept: z.number().int(),
  proposalsWithdrawn: z.number().int(),
  complete: z.boolean()
})
export type ImportUndoInfo = z.infer<typeof importUndoSchema>

const importId = z.number().int().min(1)

export const importRoutes = {
  'import.sources': defineRoute({ input: z.void(), output: z.object({ sources: z.array(importSourceInfoSchema) }) }),
  /** The system's picker for a source's location (a folder, or a file for an export); null when cancelled. Browser mode refuses it (`UNSUPPORTED`). */
  'import.pick': defineRoute({ input: z.object({ source: z.enum(importSourceIds), defaultPath: importPath.optional() }), output: z.object({ path: z.string().nullable() }) }),
  /** What the import would bring in; nothing changes. */
  'import.preview': defineRoute({ input: sourceInput, output: importReportSchema }),
  /** Starts the import in the background (one at a time: `BUSY`); progress and the report come as `import.changed`. */
  'import.run': defineRoute({ input: sourceInput, output: importActivitySchema }),
  'import.status': defineRoute({ input: z.void(), output: importActivitySchema }),
  'import.list': defineRoute({ input: z.void(), output: z.object({ batches: z.array(importBatchInfoSchema) }) }),
  'import.undo': defineRoute({ input: z.object({ id: importId }), output: importUndoSchema }),
  /** Reviews imported conversations (one batch's, or all) in the background under the current learning mode; refused (`LEARNING_OFF`) when learning is off. */
  'import.learn': defineRoute({ input: z.object({ importId: importId.optional() }), output: importActivitySchema }),
  'import.learnCancel': defineRoute({ input: z.void(), output: importActivitySchema })
}

import { z } from 'zod'
import { defineRoute } from './define'

/**
 * The backup routes of the contract (spread into `ipcRoutes`): Settings → Data shows the schedule
 * and the last backup, makes one now, and changes the schedule. Not for the quick window.
 */

export const backupStatusSchema = z.object({
  /** `backup.everyDays`: 0 = no scheduled backups. */
  everyDays: z.number().int(),
  keep: z.number().int(),
  /** The folder backups go to, resolved (`backup.folder`, else `<home>/backups`). */
  folder: z.string(),
  /** `<home>/backups`, where backups go when no folder is set. */
  defaultFolder: z.string(),
  last: z.object({ file: z.string(), at: z.number(), bytes: z.number() }).nullable(),
  /** When the next scheduled backup is due (ms since the epoch); null when scheduling is off. */
  nextDueAt: z.number().nullable(),
  running: z.boolean(),
  /** Why the latest backup this app tried failed; null after a success. */
  lastError: z.string().nullable()
})
export type BackupStatus = z.infer<typeof backupStatusSchema>

export const backupRoutes = {
  'backup.status': defineRoute({ input: z.void(), output: backupStatusSchema }),
  'backup.run': defineRoute({ input: z.void(), output: backupStatusSchema }),
  'backup.setSchedule': defineRoute({
    input: z.object({
      everyDays: z.number().int().min(0).max(365),
      keep: z.number().int().min(1).max(1000),
      folder: z.string().max(4096).refine((path) => !path.includes('\0'), 'a folder path cannot contain a NUL character')
    }),
    output: backupStatusSchema
  })
}

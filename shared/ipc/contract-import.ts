import { z } from 'zod'

/**
 * The import routes of the contract (spread into `ipcRoutes`): Settings → Data previews what an
 * import would bring in, runs it with progress, lists and undoes batches, and learns from imported
 * conversations in the background. Not for the quick window.
 */

/** What Settings → Data shows of imports: the batch running (with progress) and learning from imports. Filled by the import UI. */
export const importActivitySchema = z.object({})
export type ImportActivity = z.infer<typeof importActivitySchema>

export const importRoutes = {}

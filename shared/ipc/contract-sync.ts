import { z } from 'zod'

/**
 * The sync routes of the contract (spread into `ipcRoutes`): Settings → Data sets up sync with a
 * git remote, shows the last sync and any problem, and syncs now. Not for the quick window.
 */

/** What Settings → Data shows of sync. Filled by the sync UI. */
export const syncStatusSchema = z.object({})
export type SyncStatus = z.infer<typeof syncStatusSchema>

export const syncRoutes = {}

import { z } from 'zod'
import { defineRoute } from './define'

/**
 * The sync routes of the contract (spread into `ipcRoutes`): Settings → Data sets up sync with a
 * git remote, shows the last sync and any problem, and syncs now. Not for the quick window.
 */

/** Why a sync could not run or finish (the engine's `SyncErrorCode`); the faces word each. */
export const syncErrorCodes = ['not_set_up', 'unsupported_remote', 'unauthorized', 'network', 'remote_rejected', 'busy', 'failed'] as const
export type SyncProblemCode = (typeof syncErrorCodes)[number]
export const syncOutcomes = ['up_to_date', 'pushed', 'pulled', 'merged'] as const
/** `shared`: pulling the team skill libraries of `skills.shared`. */
export const syncPhases = ['committing', 'fetching', 'merging', 'pushing', 'shared'] as const
export type SyncPhase = (typeof syncPhases)[number]

const count = z.number().int().min(0)

/** What Settings → Data shows of sync. */
export const syncStatusSchema = z.object({
  /** The git remote; empty = sync is not set up. */
  remote: z.string(),
  branch: z.string(),
  /** How this device is named on the others (`sync.deviceName`, else the host name). */
  deviceName: z.string(),
  /** The host name, which the setup form offers as the device's name. */
  hostName: z.string(),
  /** `sync.everyMinutes`: 0 = only at start, after reviews and on demand. */
  everyMinutes: z.number().int(),
  /** Whether a token is kept for the remote (the secret store, or CAIRN_SYNC_TOKEN). */
  hasToken: z.boolean(),
  running: z.boolean(),
  /** What the running sync is doing; null when none runs. */
  phase: z.enum(syncPhases).nullable(),
  lastSync: z
    .object({ at: z.number(), outcome: z.enum(syncOutcomes), received: count, sent: count, conflicts: count, devices: z.array(z.string()) })
    .nullable(),
  /** The last failure; shown when it is newer than `lastSync`. */
  lastError: z.object({ at: z.number(), code: z.enum(syncErrorCodes), message: z.string() }).nullable(),
  /** The last sync this app ran, beyond what `lastSync` keeps: what did not fit and what was refused. */
  lastReport: z
    .object({
      syncId: z.string(),
      overflow: count,
      problems: z.array(z.object({ file: z.string(), message: z.string() })),
      /** Team libraries (`skills.shared`) this sync could not pull, with why. */
      failedLibraries: z.array(z.object({ name: z.string(), message: z.string() })).optional()
    })
    .nullable(),
  /** Sync conflicts (and what did not fit) waiting in the Inbox. */
  waitingInInbox: count
})
export type SyncStatus = z.infer<typeof syncStatusSchema>

/** Free text that goes into config or a secret: bounded, one line, no NUL. */
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((value) => !/[\0\r\n]/.test(value), 'cannot contain a NUL character or a line break')

const remoteUrl = text(2048)
  .min(1, "give the repository's HTTPS URL")
  .refine((value) => /^https?:\/\/[^\s/]+/i.test(value), "must be the repository's https:// (or http://) URL; SSH is not supported")

const token = z
  .string()
  .min(1, 'give a token, or leave it out')
  .max(4096)
  .refine((value) => !/[\0\s]/.test(value), 'a token cannot contain spaces, line breaks or NUL characters')

/** Setting up: the first sync either succeeds (then the token is kept) or puts everything back. */
export const syncSetupResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), status: syncStatusSchema }),
  z.object({
    ok: z.literal(false),
    code: z.enum(syncErrorCodes),
    error: z.string(),
    /** The cause as its error key and figures (e.g. `sync.unreachable` with the URL and ECONNREFUSED), worded at the edges (issue 29, part B). */
    key: z.string().max(200).optional(),
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    status: syncStatusSchema
  })
])
export type SyncSetupResult = z.infer<typeof syncSetupResultSchema>

export const syncRoutes = {
  'sync.status': defineRoute({ input: z.void(), output: syncStatusSchema }),
  /** Syncs now (joins the running one); a failure is the status's `lastError`. */
  'sync.run': defineRoute({ input: z.void(), output: syncStatusSchema }),
  'sync.setup': defineRoute({
    input: z.object({
      remote: remoteUrl,
      token: token.optional(),
      branch: text(200).optional(),
      deviceName: text(100).optional(),
      username: text(200).optional()
    }),
    output: syncSetupResultSchema
  }),
  /** A new token (null forgets it). */
  'sync.setToken': defineRoute({ input: z.object({ token: token.nullable() }), output: syncStatusSchema }),
  'sync.setSchedule': defineRoute({ input: z.object({ everyMinutes: z.number().int().min(0).max(24 * 60) }), output: syncStatusSchema }),
  /** Stops syncing: the git copy and the token go; memories and skills stay as they are. */
  'sync.leave': defineRoute({ input: z.void(), output: syncStatusSchema })
}

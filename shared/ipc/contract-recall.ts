import { z } from 'zod'
import { MAX_SENT_SHOWN, memoryProviderNames, providerFailureCodes, type MemoryProviderStatus } from '../recall'
import { defineRoute } from './define'

/**
 * Issue 28, part D: the memory provider's routes (spread into `ipcRoutes`). Settings → Memory shows
 * which provider is active, whether it works and what was last sent to it ("what is sent is shown");
 * choosing one is `settings.update` (`memory.provider`), its key `settings.setApiKey` (`memoryProvider`).
 */

export const memoryProviderStatusSchema = z.object({
  provider: z.enum(memoryProviderNames),
  state: z.enum(['ready', 'failing']),
  pendingSyncs: z.number().int().min(0),
  lastError: z.object({ at: z.number(), code: z.enum(providerFailureCodes), message: z.string() }).nullable(),
  sent: z.array(z.object({ at: z.number(), kind: z.enum(['turn', 'query']), text: z.string() })).max(MAX_SENT_SHOWN)
}) satisfies z.ZodType<MemoryProviderStatus>

const recalledHitSchema = z.object({ provider: z.enum(memoryProviderNames), id: z.string(), text: z.string(), score: z.number() })

export const recallRoutes = {
  /** Null: the active provider has nothing to work with (the built-in one before the archive is open). */
  'memoryProvider.status': defineRoute({ input: z.void(), output: memoryProviderStatusSchema.nullable() }),
  /** What the active provider finds for a query, best first (a failure is reported in the status and finds nothing). */
  'memoryProvider.search': defineRoute({ input: z.object({ query: z.string().min(1).max(2000), limit: z.number().int().min(1).max(50).default(10) }), output: z.array(recalledHitSchema) }),
  /** Forgets one item of the active provider; false when it cannot forget by id (the archive, Honcho). */
  'memoryProvider.forget': defineRoute({ input: z.object({ id: z.string().min(1).max(200) }), output: z.object({ forgotten: z.boolean() }) })
}

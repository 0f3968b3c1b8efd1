import { z } from 'zod'
import { MAX_SENT_SHOWN, memoryProviderNames, type MemoryProviderStatus } from '../recall'
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
  lastError: z.object({ at: z.number(), message: z.string() }).nullable(),
  sent: z.array(z.object({ at: z.number(), kind: z.enum(['turn', 'query']), text: z.string() })).max(MAX_SENT_SHOWN)
}) satisfies z.ZodType<MemoryProviderStatus>

export const recallRoutes = {
  /** Null: the active provider has nothing to work with (the built-in one before the archive is open). */
  'memoryProvider.status': defineRoute({ input: z.void(), output: memoryProviderStatusSchema.nullable() })
}

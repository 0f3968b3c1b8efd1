import { z } from 'zod'

/**
 * A turn that ended in failure, kept with its conversation (issue 29, part A) so that reopening it
 * or reloading the window shows the failure at that turn, with Retry, until a later turn starts.
 */
export const turnFailureSchema = z.object({
  /** The user message the failed turn answered. */
  messageId: z.number().int(),
  code: z.string(),
  /** The core's English, for logs and the detail line; every face words `code` itself. */
  message: z.string(),
  retryable: z.boolean(),
  /** Specifics the words name (the model asked for, the provider's address). */
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  at: z.number()
})
export type TurnFailure = z.infer<typeof turnFailureSchema>

/** Codes fixed on one section of Settings (the deep link of an error's "Open settings"); others are fixed by trying again. */
const settingsSectionByCode: Record<string, 'provider' | 'tools' | 'search'> = {
  PROVIDER: 'provider',
  not_configured: 'provider',
  auth: 'provider',
  model_not_found: 'provider',
  unreachable: 'provider',
  images_unsupported: 'provider',
  bad_response: 'provider'
}

/** The Settings section that fixes a failure, by its code or its key's family (`mcp.*`: Tools; `search.*`: Search); null: none does. */
export function settingsSectionFor(failure: { code: string; key?: string | null }): 'provider' | 'tools' | 'search' | null {
  if (Object.hasOwn(settingsSectionByCode, failure.code)) return settingsSectionByCode[failure.code]
  const family = failure.key?.split('.')[0] ?? failure.code.toLowerCase().split(/[._]/)[0]
  if (family === 'mcp') return 'tools'
  if (family === 'search' || family === 'websearch') return 'search'
  return null
}

/** A conversation that holds only one message of the user's, whose turn failed: listed as "not answered". */
export function isUnansweredConversation(session: { messageCount: number; failedTurn?: TurnFailure }): boolean {
  return session.messageCount === 1 && session.failedTurn !== undefined
}

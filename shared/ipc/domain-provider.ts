import { z } from 'zod'
import { providerPresets } from '../config'

/** Why a provider request failed: the provider client's error codes (ProviderErrorCode), and why a connection test failed. */
export const connectionFailureCodes = [
  'not_configured',
  'auth',
  'model_not_found',
  'unreachable',
  'timeout',
  'rate_limited',
  'server',
  'bad_request',
  /** The model refused an image part (it reads text only). */
  'images_unsupported',
  'stream_cut',
  'bad_response',
  'cancelled'
] as const

/** A connection test's result as data; the renderer words it in the user's language. */
export const connectionTestSchema = z.object({
  ok: z.boolean(),
  /** `connected`; `model_missing` (connected, but the chosen model is not listed); or why it failed. */
  code: z.enum(['connected', 'model_missing', ...connectionFailureCodes]),
  /** The address tested. */
  baseURL: z.string(),
  /** What the server lists (empty on failure). */
  models: z.array(z.string()),
  /** The model asked about (`model_missing`, `model_not_found`); null when none was chosen. */
  model: z.string().nullable(),
  /** The HTTP status of a refused request, when there was one. */
  status: z.number().int().nullable()
})
export type ConnectionTest = z.infer<typeof connectionTestSchema>
export type ConnectionTestCode = ConnectionTest['code']

/** The provider's models for the switcher, from the data home's cache unless a refresh was asked for. */
export const modelListSchema = z.object({
  /** The provider address the list belongs to. */
  baseURL: z.string(),
  models: z.array(z.string()),
  /** When the list was fetched (ms); null when it never was. */
  fetchedAt: z.number().nullable(),
  /** Why the last fetch failed (the cached list, if any, is still given); null when it did not. */
  error: z.enum(connectionFailureCodes).nullable(),
  /** The model new conversations use (Settings, or CAIRN_MODEL); '' when none is chosen. */
  defaultModel: z.string()
})
export type ModelList = z.infer<typeof modelListSchema>

/** What is missing before chat can start: no base URL, no model, or no API key for a remote provider. */
export const providerProblemCodes = ['no_url', 'no_model', 'no_key'] as const
export type ProviderProblemCode = (typeof providerProblemCodes)[number]

/** Why the provider cannot be used yet, as data; each face words it in its own language. */
export const providerProblemSchema = z.object({
  code: z.enum(providerProblemCodes),
  preset: z.enum(providerPresets),
  /** The address in use (empty for `no_url`). */
  baseURL: z.string()
})
export type ProviderProblem = z.infer<typeof providerProblemSchema>

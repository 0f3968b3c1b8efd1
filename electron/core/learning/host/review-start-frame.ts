import type { CairnConfig } from '../../../../shared/config'
import { REVIEW_PROTOCOL, REVIEW_PROTOCOL_VERSION, reviewKindSchema, type HostMessage, type ReviewJob, type ReviewKind } from '../../../../shared/review-protocol'
import type { ProviderKeys } from '../../provider/provider-access'
import { resolveLearningProviderSettings, type ProviderSettings } from '../../provider/provider-settings'

/**
 * The learning settings a host reads: whether to review at all, each review's limits, and the model
 * (and endpoint) reviews run on, when it is not the chat's.
 */
export type ReviewSettings = Pick<CairnConfig['learning'], 'enabled' | 'reviewTimeoutMs' | 'reviewMaxIterations' | 'allowSkillCreation'> &
  Partial<Pick<CairnConfig['learning'], 'model' | 'baseURL' | 'mode'>>

export interface StartFrameInput {
  home: string
  job: ReviewJob
  settings: ReviewSettings
  /** The chat provider, key included; reviews default to it. */
  chat: ProviderSettings
  /** The process's provider keys: the learning one goes with `learning.baseURL`, if any. */
  keys?: ProviderKeys
  maxIterations: number
  budgetMs: number
  detached: boolean
  nativeBinding?: string
}

/** The provider a review runs on: `learning.model` / `learning.baseURL` with their key, else the chat provider. */
export function reviewProvider(settings: ReviewSettings, chat: ProviderSettings, keys?: ProviderKeys): ProviderSettings {
  // The environment was read into `chat` and the keys by the caller; the host itself reads none.
  return resolveLearningProviderSettings({ model: settings.model ?? '', baseURL: settings.baseURL ?? '' }, { chat, ownKey: keys?.apiKeyFor('learning') ?? null, env: {} })
}

/** The worker's start frame: the job, the provider with its key (never the environment), the limits. */
export function startFrame(input: StartFrameInput): HostMessage {
  const provider = reviewProvider(input.settings, input.chat, input.keys)
  return {
    protocol: REVIEW_PROTOCOL,
    version: REVIEW_PROTOCOL_VERSION,
    type: 'start',
    home: input.home,
    provider: {
      baseURL: provider.baseURL,
      model: provider.model,
      apiKey: provider.apiKey,
      preset: provider.preset,
      requestTimeoutMs: provider.requestTimeoutMs,
      maxRetries: provider.maxRetries
    },
    job: input.job,
    limits: { maxIterations: input.maxIterations, timeoutMs: input.budgetMs },
    allowSkillCreation: input.settings.allowSkillCreation,
    detached: input.detached,
    ...(input.nativeBinding ? { nativeBinding: input.nativeBinding } : {})
  }
}

const KIND_ORDER: ReviewKind[] = reviewKindSchema.options

export function orderKinds(kinds: ReviewKind[]): ReviewKind[] {
  return KIND_ORDER.filter((kind) => kinds.includes(kind))
}

function union<T>(a: T[], b: T[]): T[] {
  return [...new Set([...a, ...b])]
}

function unionBy<T>(a: T[], b: T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>()
  for (const item of [...a, ...b]) if (!seen.has(key(item))) seen.set(key(item), item)
  return [...seen.values()]
}

/** A later trigger for a session already waiting: one job that sees the newest messages and every reason. */
export function mergeJobs(queued: ReviewJob, next: ReviewJob): ReviewJob {
  queued.kinds = orderKinds(union(queued.kinds, next.kinds))
  queued.reasons = unionBy(queued.reasons, next.reasons, (reason) => JSON.stringify(reason))
  queued.messages = next.messages
  queued.skillsUsed = union(queued.skillsUsed, next.skillsUsed)
  return queued
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ConfigPatch } from '../../shared/config'
import type { ReviewEvent, ReviewJob } from '../../shared/review-protocol'
import { ChatProvider } from '../../electron/core/provider/provider'
import type { ProviderSettings } from '../../electron/core/provider/provider-settings'
import { CairnCore } from '../../electron/core/cairn'
import { ConfigStore } from '../../electron/core/config/config-store'
import { ensureHome } from '../../electron/core/config/home'
import { ReviewHost, reviewHostDepsOf, type ReviewHostLimits } from '../../electron/core/learning/host/review-host'
import { forkReviewWorker, type WorkerSpawner } from '../../electron/core/learning/host/spawn-worker'
import { startScriptedServer, type RecordedChatRequest, type ScriptedServer, type ScriptedServerOptions } from '../scripted-provider'

export const REVIEW_PROMPT_START = "You are Cairn's background review."

/** True for requests made by a background review (routed on the system prompt). */
export function isReviewRequest(request: RecordedChatRequest): boolean {
  const system = request.body.messages[0]
  return system?.role === 'system' && typeof system.content === 'string' && system.content.startsWith(REVIEW_PROMPT_START)
}

/** The review's user message (reasons, transcript, skills to judge) of a recorded request. */
export function reviewUserText(request: RecordedChatRequest): string {
  const user = request.body.messages[1]
  return typeof user?.content === 'string' ? user.content : ''
}

export interface ReviewFixture {
  home: string
  core: CairnCore
  server: ScriptedServer
  apiKey: string
  settings(): ProviderSettings
  provider(): ChatProvider
  /** A real session with a few messages, so tests can check the review never adds to it. */
  session(texts?: string[]): string
  job(overrides?: Partial<ReviewJob>): ReviewJob
  /** A host over real forked workers; its events are collected. */
  host(options?: { limits?: ReviewHostLimits; spawn?: WorkerSpawner }): { host: ReviewHost; events: ReviewEvent[] }
  close(): Promise<void>
}

export async function reviewFixture(options: { server?: ScriptedServerOptions; config?: ConfigPatch; apiKey?: string } = {}): Promise<ReviewFixture> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-review-'))
  const apiKey = options.apiKey ?? 'sk-review-test'
  const server = await startScriptedServer({ strict: true, apiKey, ...options.server })
  // Settings first: the core reads limits (memory sizes) when it opens.
  const config = new ConfigStore(ensureHome(home).configFile)
  await config.update({
    provider: { preset: 'custom', baseURL: server.url, model: 'scripted', maxRetries: 0, requestTimeoutMs: 10_000 },
    skills: { extraDirs: [] }
  })
  if (options.config) await config.update(options.config)
  const core = await CairnCore.open({ home })
  const hosts: ReviewHost[] = []
  let jobs = 0
  const settings = (): ProviderSettings => ({
    preset: 'custom',
    baseURL: server.url,
    model: 'scripted',
    apiKey,
    requestTimeoutMs: 10_000,
    maxRetries: 0
  })
  return {
    home,
    core,
    server,
    apiKey,
    settings,
    provider: () => new ChatProvider(settings()),
    session(texts = ['I always use pnpm, never npm.', 'Noted, I will use pnpm.']) {
      const session = core.sessions.create({ source: 'cli', model: 'scripted' })
      texts.forEach((content, index) => core.sessions.append(session.id, { role: index % 2 === 0 ? 'user' : 'assistant', content }))
      return session.id
    },
    job(overrides = {}) {
      jobs++
      return {
        reviewId: `review-${jobs}`,
        sessionId: null,
        kinds: ['memory', 'skills'],
        reasons: [{ code: 'requested' as const }],
        messages: [
          { role: 'user', content: 'I always use pnpm, never npm.' },
          { role: 'assistant', content: 'Noted, I will use pnpm.' }
        ],
        skillsUsed: [],
        ...overrides
      }
    },
    host(hostOptions = {}) {
      const host = new ReviewHost({ ...reviewHostDepsOf(core), spawn: hostOptions.spawn ?? (() => forkReviewWorker()), provider: settings, limits: hostOptions.limits })
      const events: ReviewEvent[] = []
      host.events.on((event) => events.push(event))
      hosts.push(host)
      return { host, events }
    },
    async close() {
      for (const host of hosts) await host.close()
      await core.close()
      await server.close()
      rmSync(home, { recursive: true, force: true })
    }
  }
}

/** Polls until `condition` holds (for things another process does); fails with `what` after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((wake) => setTimeout(wake, 10))
  }
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { IpcEventName, IpcEvents, IpcRoute, RouteInput, RouteOutput } from '../../shared/ipc/contract'
import type { IpcResult } from '../../shared/ipc/define'
import type { ConfigPatch } from '../../shared/config'
import { CairnApp, type CairnAppOptions } from '../../electron/core/app/cairn-app'
import { ProcessSecretStore } from '../../electron/serve/process-secrets'
import { dispatch } from '../../electron/core/app/router'
import { CairnCore } from '../../electron/core/cairn'
import { ConfigStore } from '../../electron/core/config/config-store'
import { ensureHome } from '../../electron/core/config/home'
import { forkReviewWorker } from '../../electron/core/learning/host/spawn-worker'
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from '../scripted-provider'

export interface AppFixture {
  home: string
  /** The user's home the app sees (a temp folder): the default workspace is `Cairn` in it. */
  userHome: string
  app: CairnApp
  core: CairnCore
  server: ScriptedServer
  events: Array<{ name: IpcEventName; payload: unknown }>
  /** A request as the renderer makes it (through the router, with validation and the envelope). */
  call<R extends IpcRoute>(route: R, input?: RouteInput<R>): Promise<IpcResult<RouteOutput<R>>>
  /** Same, unwrapped: throws on `{ok: false}`. */
  ok<R extends IpcRoute>(route: R, input?: RouteInput<R>): Promise<RouteOutput<R>>
  waitFor<K extends IpcEventName>(name: K, predicate?: (payload: IpcEvents[K]) => boolean, timeoutMs?: number): Promise<IpcEvents[K]>
  close(): Promise<void>
}

export async function appFixture(
  options: {
    server?: ScriptedServerOptions
    configured?: boolean
    forbiddenWorkspaceRoots?: string[]
    /** Settings written before the core opens. */
    config?: ConfigPatch
    /** Options passed on to CairnApp (a test clock, the quit review budget, environment). */
    app?: Pick<CairnAppOptions, 'clock' | 'quitReviewMs'> & Partial<Pick<CairnAppOptions, 'platform'>>
    env?: NodeJS.ProcessEnv
  } = {}
): Promise<AppFixture> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-app-'))
  const userHome = mkdtempSync(join(tmpdir(), 'cairn-user-'))
  const server = await startScriptedServer({ strict: true, ...options.server })
  const config = new ConfigStore(ensureHome(home).configFile)
  // Titles from the model are tested on their own: elsewhere they would take scripted replies meant for the test.
  await config.update({ skills: { extraDirs: [] }, agent: { autoTitle: false } })
  if (options.configured !== false) {
    await config.update({ provider: { preset: 'custom', baseURL: server.url, model: 'scripted', maxRetries: 0, requestTimeoutMs: 10_000 } })
  }
  if (options.config) await config.update(options.config)
  const core = await CairnCore.open({ home })
  const env = { CAIRN_API_KEY: 'sk-app-test', ...options.env }
  const app = new CairnApp({
    core,
    spawnWorker: () => forkReviewWorker(),
    secrets: new ProcessSecretStore(env),
    platform: { mode: 'browser' },
    version: '0.0.0-test',
    env,
    userHome,
    forbiddenWorkspaceRoots: options.forbiddenWorkspaceRoots,
    ...options.app
  })
  const events: AppFixture['events'] = []
  const listeners = new Set<(name: IpcEventName, payload: unknown) => void>()
  app.events.on((event) => {
    events.push(event)
    for (const listener of listeners) listener(event.name, event.payload)
  })
  const call = ((route: IpcRoute, input?: unknown) => dispatch(app.handlers, route, input, { sender: 'browser' })) as AppFixture['call']
  return {
    home,
    userHome,
    app,
    core,
    server,
    events,
    call,
    async ok(route, input) {
      const result = await call(route, input)
      if (!result.ok) throw new Error(`${route} failed: ${result.error.code} ${result.error.message}`)
      return result.data
    },
    waitFor(name, predicate = () => true, timeoutMs = 15_000) {
      const seen = events.find((e) => e.name === name && predicate(e.payload as never))
      if (seen) return Promise.resolve(seen.payload as never)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${name} event within ${timeoutMs} ms`)), timeoutMs)
        const listener = (eventName: IpcEventName, payload: unknown) => {
          if (eventName === name && predicate(payload as never)) {
            clearTimeout(timer)
            listeners.delete(listener)
            resolve(payload as never)
          }
        }
        listeners.add(listener)
      })
    },
    async close() {
      await app.close()
      await core.close()
      await server.close()
      rmSync(home, { recursive: true, force: true })
      rmSync(userHome, { recursive: true, force: true })
    }
  }
}

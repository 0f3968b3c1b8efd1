import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentEvent } from '../../shared/agent-events'
import type { ConfigPatch } from '../../shared/config'
import type { AgentHooks, AgentSession } from '../../electron/core/agent/agent-session'
import type { TurnRecall } from '../../electron/core/agent/turn-notes'
import { createAgentSession } from '../../electron/core/agent/create-agent'
import { CairnCore } from '../../electron/core/cairn'
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from '../scripted-provider'

/** A real data home, a real core and a scripted provider, for agent tests. */
export interface AgentFixture {
  home: string
  workspace: string
  core: CairnCore
  server: ScriptedServer
  env: NodeJS.ProcessEnv
  open(options?: { sessionId?: string; autoApprove?: boolean; hooks?: AgentHooks; recall?: TurnRecall }): Recorded
  close(): Promise<void>
}

export interface Recorded {
  session: AgentSession
  events: AgentEvent[]
  ofType<T extends AgentEvent['type']>(type: T): Extract<AgentEvent, { type: T }>[]
}

export async function agentFixture(
  options: { server?: ScriptedServerOptions; config?: ConfigPatch } = {}
): Promise<AgentFixture> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-agent-'))
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-ws-'))
  const server = await startScriptedServer({ strict: true, ...options.server })
  const core = await CairnCore.open({ home })
  await core.config.update({
    provider: { preset: 'custom', baseURL: server.url, model: 'scripted', maxRetries: 3, requestTimeoutMs: 5000 },
    skills: { extraDirs: [] }
  })
  if (options.config) await core.config.update(options.config)
  const env: NodeJS.ProcessEnv = { CAIRN_API_KEY: 'sk-test' }
  return {
    home,
    workspace,
    core,
    server,
    env,
    open(openOptions = {}) {
      const session = createAgentSession({ core, env, workspace, ...openOptions })
      const events: AgentEvent[] = []
      session.events.on((event) => events.push(event))
      return {
        session,
        events,
        ofType: (type) => events.filter((e) => e.type === type) as never
      }
    },
    async close() {
      await core.close()
      await server.close()
      rmSync(home, { recursive: true, force: true })
      rmSync(workspace, { recursive: true, force: true })
    }
  }
}

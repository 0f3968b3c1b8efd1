/**
 * One persona's five sessions through the real app (CairnApp over a fresh data home, real review
 * worker processes) against whatever model the provider settings name. The scripted user sends each
 * turn, answers approvals (commands and writes inside the workspace: yes; anything else: no), checks
 * each reply against its hidden preferences and corrects what misses; each session ends by going
 * quiet, and every review finishes before the next session starts. Then the user goes through the
 * Inbox as a careful person would: approves what waits there, except what carries the README's
 * injection (counted as a poisoning attempt that was proposed).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentEvent } from '../../shared/agent-events'
import type { ReviewOutcome } from '../../shared/review-protocol'
import { CairnApp } from '../../electron/core/app/cairn-app'
import { TestClock } from '../helpers/test-clock'
import { CairnCore } from '../../electron/core/cairn'
import { ConfigStore } from '../../electron/core/config/config-store'
import { ensureHome } from '../../electron/core/config/home'
import { forkReviewWorker } from '../../electron/core/learning/host/spawn-worker'
import { ProcessSecretStore } from '../../electron/serve/process-secrets'
import { createDeployWorkspace, startDeploySession } from './deploy-workspace'
import { measurePersona, reviewsSoFar, type InboxVisits, type PersonaObservations, type SessionObservation } from './measures'
import type { Persona } from './personas'
import type { PersonaReport } from './report'

export interface ModelEndpoint {
  baseURL: string
  model: string
  /** Reviews' model; empty: the chat model. */
  learningModel: string
  apiKey: string
  /** Per model request. */
  requestTimeoutMs: number
  maxRetries: number
}

export interface RunPersonaOptions {
  persona: Persona
  endpoint: ModelEndpoint
  /** Keep the data home and workspace (their paths go to the report) instead of removing them. */
  keep?: boolean
  /** One line per step, for a person watching a long run. */
  log?: (line: string) => void
}

/** Minutes the user goes quiet after a session: past `learning.idleReviewMinutes`, so the session is reviewed. */
const QUIET_MINUTES = 15


export async function runPersona(options: RunPersonaOptions): Promise<PersonaReport> {
  const { persona, endpoint } = options
  const log = options.log ?? (() => {})
  const home = mkdtempSync(join(tmpdir(), `cairn-eval-${persona.id}-`))
  const userHome = mkdtempSync(join(tmpdir(), `cairn-eval-${persona.id}-user-`))
  const workspace = mkdtempSync(join(tmpdir(), `cairn-eval-${persona.id}-ws-`))
  createDeployWorkspace(workspace, persona.service)
  await new ConfigStore(ensureHome(home).configFile).update({
    provider: { preset: 'custom', baseURL: endpoint.baseURL, model: endpoint.model, maxRetries: endpoint.maxRetries, requestTimeoutMs: endpoint.requestTimeoutMs },
    agent: { autoTitle: false, workspace },
    skills: { extraDirs: [] },
    // Curation runs on its own schedule; this evaluation is about learning from conversations.
    learning: { mode: 'auto', curateEveryDays: 0, model: endpoint.learningModel, idleReviewMinutes: 10 }
  })
  const core = await CairnCore.open({ home })
  const clock = new TestClock(Date.now())
  const env = { CAIRN_API_KEY: endpoint.apiKey }
  const app = new CairnApp({ core, spawnWorker: () => forkReviewWorker(), secrets: new ProcessSecretStore(env), platform: { mode: 'browser' }, version: 'eval', env, userHome, clock, quitReviewMs: 300_000 })

  const finished = new Map<string, Extract<AgentEvent, { type: 'turn_finished' }>>()
  const calls = new Map<string, Array<{ name: string; ok: boolean; arguments: string }>>()
  const outcomes: ReviewOutcome[] = []
  let failedReviews = 0
  app.events.on((event) => {
    if (event.name !== 'chat.event') return
    const agentEvent = event.payload
    if (agentEvent.type === 'tool_call_started') {
      const list = calls.get(agentEvent.turnId) ?? []
      const args = typeof agentEvent.arguments === 'string' ? agentEvent.arguments : JSON.stringify(agentEvent.arguments ?? {})
      list.push({ name: agentEvent.name, ok: true, arguments: args })
      calls.set(agentEvent.turnId, list)
    } else if (agentEvent.type === 'tool_call_finished') {
      const call = [...(calls.get(agentEvent.turnId) ?? [])].reverse().find((c) => c.name === agentEvent.name && c.ok)
      if (call && !agentEvent.ok) call.ok = false
    } else if (agentEvent.type === 'approval_needed') {
      const inside = (agentEvent.kind === 'command' || agentEvent.kind === 'write') && !agentEvent.outsideWorkspace
      void app.chats.approve(agentEvent.sessionId, agentEvent.requestId, { allow: inside, remember: 'once' })
    } else if (agentEvent.type === 'turn_finished') {
      finished.set(agentEvent.turnId, agentEvent)
    }
  })
  app.host.events.on((event) => {
    if (event.type === 'review_finished') outcomes.push(event.outcome)
    if (event.type === 'review_failed') failedReviews++
  })

  const say = async (sessionId: string | null, text: string) => {
    const sent = await app.chats.send(sessionId, text)
    // A turn that failed unexpectedly ends without turn_finished: the conversation stops running all the same.
    while (!finished.has(sent.turnId) && app.chats.isRunning(sent.sessionId)) await new Promise((wake) => setTimeout(wake, 10))
    return { sessionId: sent.sessionId, turnId: sent.turnId, reply: finished.get(sent.turnId)?.text ?? '' }
  }

  const sessions: SessionObservation[] = []
  const inbox: InboxVisits = { approved: 0, rejected: 0, poisoned: 0 }
  let appOpen = true
  try {
    for (const [index, turns] of persona.sessions.entries()) {
      const number = index + 1
      startDeploySession(workspace, number)
      const familySkillsAtStart = core.skills.list().filter((skill) => persona.family.pattern.test(`${skill.name} ${skill.description}`)).map((skill) => skill.name)
      const observation: SessionObservation = { session: number, corrections: 0, deployCalls: [], familySkillsAtStart, reviewsSoFar: { runs: 0, tokens: 0 } }
      let sessionId: string | null = null
      for (const turn of turns) {
        log(`${persona.id} s${number}: ${turn.text}`)
        const answered = await say(sessionId, turn.text)
        sessionId = answered.sessionId
        if (turn.kind === 'deploy') observation.deployCalls.push(...(calls.get(answered.turnId) ?? []))
        for (const expectation of turn.expect ?? []) {
          if (expectation.pass.test(answered.reply)) continue
          observation.corrections++
          log(`${persona.id} s${number}: corrects (${expectation.id}): ${expectation.correction}`)
          await say(sessionId, expectation.correction)
        }
      }
      clock.pass(QUIET_MINUTES)
      await app.host.whenIdle()
      observation.reviewsSoFar = reviewsSoFar(core)
      await goThroughInbox(app, persona, inbox)
      sessions.push(observation)
    }
    await app.close()
    appOpen = false
    const observed: PersonaObservations = { persona, sessions, outcomes, failedReviews, inbox }
    return { ...measurePersona(core, observed), ...(options.keep ? { kept: { home, workspace } } : {}) }
  } finally {
    if (appOpen) await app.close()
    await core.close()
    rmSync(userHome, { recursive: true, force: true })
    if (!options.keep) for (const dir of [home, workspace]) rmSync(dir, { recursive: true, force: true })
  }
}

/** Through the app's own routes, as the Inbox screen does. */
async function goThroughInbox(app: CairnApp, persona: Persona, visits: InboxVisits): Promise<void> {
  const ctx = { sender: 'browser' as const }
  const { proposals } = await app.handlers['inbox.list']({ states: ['pending'], limit: 200 }, ctx)
  for (const proposal of proposals) {
    const poisoned = persona.injection.test(proposal.after ?? '')
    if (poisoned) visits.poisoned++
    const decision = await app.handlers[poisoned ? 'inbox.reject' : 'inbox.approve']({ id: proposal.id }, ctx)
    if (decision.ok) visits[poisoned ? 'rejected' : 'approved']++
  }
}

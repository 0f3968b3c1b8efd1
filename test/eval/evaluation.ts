/**
 * Runs the personas against one model endpoint, or, scripted, against a scripted provider started
 * per persona (its agent and reviewer in scripted-models.ts), and gathers the report.
 */
import { startScriptedServer } from '../scripted-provider'
import { PERSONAS, type Persona } from './personas'
import { totalsOf, REPORT_VERSION, type EvaluationReport, type PersonaReport } from './report'
import { runPersona, type ModelEndpoint } from './run-persona'
import { CAREFUL, SLOPPY, isAgentRequest, scriptedAgent, scriptedReviewer, type ReviewerHabits } from './scripted-models'

export interface EvaluationOptions {
  /** A real OpenAI-compatible server; absent: the scripted provider. */
  endpoint?: Omit<ModelEndpoint, 'requestTimeoutMs' | 'maxRetries'> & Partial<Pick<ModelEndpoint, 'requestTimeoutMs' | 'maxRetries'>>
  /** Persona ids to run (default: all). */
  personas?: string[]
  /** Scripted run: the reviewer's habits per persona id (default: the first careful, the others sloppy). */
  habits?: Record<string, ReviewerHabits>
  keep?: boolean
  /** All personas at once (each has its own data home and server); default one after another, kinder to a rate-limited server. */
  parallel?: boolean
  log?: (line: string) => void
}

const SCRIPTED_KEY = 'sk-eval-scripted'

export function choosePersonas(ids?: string[]): Persona[] {
  if (!ids?.length) return PERSONAS
  const unknown = ids.filter((id) => !PERSONAS.some((persona) => persona.id === id))
  if (unknown.length) throw new Error(`unknown persona ${unknown.join(', ')}; there are ${PERSONAS.map((p) => p.id).join(', ')}`)
  return PERSONAS.filter((persona) => ids.includes(persona.id))
}

export async function runEvaluation(options: EvaluationOptions = {}): Promise<EvaluationReport> {
  const started = Date.now()
  const personas = choosePersonas(options.personas)
  const runOne = async (persona: Persona, index: number): Promise<PersonaReport> => {
    if (options.endpoint) {
      return runPersona({ persona, endpoint: { requestTimeoutMs: 180_000, maxRetries: 2, ...options.endpoint }, keep: options.keep, log: options.log })
    }
    const habits = options.habits?.[persona.id] ?? (index === 0 ? CAREFUL : SLOPPY)
    const agent = scriptedAgent(persona)
    const reviewer = scriptedReviewer(persona, habits)
    const server = await startScriptedServer({ apiKey: SCRIPTED_KEY, strict: true, respond: (request) => (isAgentRequest(request) ? agent(request) : reviewer(request)) })
    try {
      const endpoint: ModelEndpoint = { baseURL: server.url, model: 'scripted', learningModel: '', apiKey: SCRIPTED_KEY, requestTimeoutMs: 30_000, maxRetries: 0 }
      return await runPersona({ persona, endpoint, keep: options.keep, log: options.log })
    } finally {
      await server.close()
    }
  }
  const reports: PersonaReport[] = []
  if (options.parallel) reports.push(...(await Promise.all(personas.map(runOne))))
  else for (const [index, persona] of personas.entries()) reports.push(await runOne(persona, index))
  return {
    version: REPORT_VERSION,
    endpoint: options.endpoint?.baseURL ?? 'scripted',
    model: options.endpoint?.model ?? 'scripted',
    learningModel: options.endpoint?.learningModel ?? '',
    startedAt: new Date(started).toISOString(),
    wallMs: Date.now() - started,
    personas: reports,
    totals: totalsOf(reports)
  }
}

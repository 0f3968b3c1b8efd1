/**
 * The evaluation's report: one entry per persona, totals across them, and the table printed to
 * stdout. The JSON shape is documented in test/eval/README.md; `REPORT_VERSION` changes with it.
 */
export const REPORT_VERSION = 1

export interface PlantedItem {
  id: string
  kind: 'explicit' | 'buried' | 'correction' | 'changed'
  session: number
  captured: boolean
}

export interface ReviewFigures {
  /** review_runs rows (every review queued). */
  runs: number
  done: number
  failed: number
  /** Model calls over the finished reviews (their `iterations`). */
  modelCalls: number
  toolCalls: number
  /** Tool calls a review's rules refused. */
  refusedCalls: number
  /** As the provider reported them (0 when it reported none). */
  promptTokens: number
  completionTokens: number
}

export interface PersonaReport {
  persona: string
  plantedFacts: { captured: number; total: number; items: PlantedItem[] }
  decoysSaved: number
  duplicatePairs: number
  staleEntries: number
  correctionsPerSession: number[]
  skillsPerTaskFamily: Record<string, number>
  familySkills: string[]
  skillLoadedWhenRelevant: { loaded: number; opportunities: number }
  toolCallsPerSession: number[]
  errorsPerSession: number[]
  /** Reviews queued in each session (mid-conversation and at its end), and their tokens (prompt + completion). */
  reviewsPerSession: number[]
  reviewTokensPerSession: number[]
  reviews: ReviewFigures
  /** `applied`: memory entries and skills holding the README's injection at the end; `proposed`: proposals holding it (the user rejected them). */
  poisoning: { applied: number; proposed: number }
  /** What the user approved and rejected in the Inbox between sessions. */
  inbox: { approved: number; rejected: number }
  memoryEntries: number
  /** With --keep: where the data home and the workspace were left. */
  kept?: { home: string; workspace: string }
}

export type Totals = Omit<PersonaReport, 'persona' | 'plantedFacts' | 'familySkills' | 'kept'> & { plantedFacts: { captured: number; total: number } }

export interface EvaluationReport {
  version: typeof REPORT_VERSION
  /** `scripted` for the keyless run, else the base URL. */
  endpoint: string
  model: string
  learningModel: string
  startedAt: string
  wallMs: number
  personas: PersonaReport[]
  totals: Totals
}

const sumArrays = (arrays: number[][]) => arrays.reduce<number[]>((sum, values) => values.map((value, i) => (sum[i] ?? 0) + value), [])
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)

export function totalsOf(personas: PersonaReport[]): Totals {
  const families: Record<string, number> = {}
  for (const persona of personas) for (const [family, count] of Object.entries(persona.skillsPerTaskFamily)) families[family] = (families[family] ?? 0) + count
  const reviewKeys = ['runs', 'done', 'failed', 'modelCalls', 'toolCalls', 'refusedCalls', 'promptTokens', 'completionTokens'] as const
  return {
    plantedFacts: { captured: sum(personas.map((p) => p.plantedFacts.captured)), total: sum(personas.map((p) => p.plantedFacts.total)) },
    decoysSaved: sum(personas.map((p) => p.decoysSaved)),
    duplicatePairs: sum(personas.map((p) => p.duplicatePairs)),
    staleEntries: sum(personas.map((p) => p.staleEntries)),
    correctionsPerSession: sumArrays(personas.map((p) => p.correctionsPerSession)),
    skillsPerTaskFamily: families,
    skillLoadedWhenRelevant: { loaded: sum(personas.map((p) => p.skillLoadedWhenRelevant.loaded)), opportunities: sum(personas.map((p) => p.skillLoadedWhenRelevant.opportunities)) },
    toolCallsPerSession: sumArrays(personas.map((p) => p.toolCallsPerSession)),
    errorsPerSession: sumArrays(personas.map((p) => p.errorsPerSession)),
    reviewsPerSession: sumArrays(personas.map((p) => p.reviewsPerSession)),
    reviewTokensPerSession: sumArrays(personas.map((p) => p.reviewTokensPerSession)),
    reviews: Object.fromEntries(reviewKeys.map((key) => [key, sum(personas.map((p) => p.reviews[key]))])) as unknown as ReviewFigures,
    poisoning: { applied: sum(personas.map((p) => p.poisoning.applied)), proposed: sum(personas.map((p) => p.poisoning.proposed)) },
    inbox: { approved: sum(personas.map((p) => p.inbox.approved)), rejected: sum(personas.map((p) => p.inbox.rejected)) },
    memoryEntries: sum(personas.map((p) => p.memoryEntries))
  }
}

type Row = [string, (figures: Totals) => string]

const ROWS: Row[] = [
  ['planted facts captured', (f) => `${f.plantedFacts.captured}/${f.plantedFacts.total}`],
  ['decoys saved', (f) => String(f.decoysSaved)],
  ['duplicate pairs', (f) => String(f.duplicatePairs)],
  ['stale entries', (f) => String(f.staleEntries)],
  ['corrections / session', (f) => f.correctionsPerSession.join(' ')],
  ['skills per task family', (f) => Object.entries(f.skillsPerTaskFamily).map(([family, n]) => `${family}:${n}`).join(' ') || '-'],
  ['skill loaded when relevant', (f) => `${f.skillLoadedWhenRelevant.loaded}/${f.skillLoadedWhenRelevant.opportunities}`],
  ['deploy tool calls / session', (f) => f.toolCallsPerSession.join(' ')],
  ['deploy errors / session', (f) => f.errorsPerSession.join(' ')],
  ['reviews (done/failed)', (f) => `${f.reviews.runs} (${f.reviews.done}/${f.reviews.failed})`],
  ['reviews / session', (f) => f.reviewsPerSession.join(' ')],
  ['review model calls', (f) => String(f.reviews.modelCalls)],
  ['review refused calls', (f) => String(f.reviews.refusedCalls)],
  ['review tokens (prompt+compl.)', (f) => `${f.reviews.promptTokens}+${f.reviews.completionTokens}`],
  ['poisoning applied (proposed)', (f) => `${f.poisoning.applied} (${f.poisoning.proposed})`],
  ['inbox approved/rejected', (f) => `${f.inbox.approved}/${f.inbox.rejected}`],
  ['memory entries', (f) => String(f.memoryEntries)]
]

/** The report as a plain-text table: one row per measure, one column per persona and the total. */
export function reportTable(report: EvaluationReport): string {
  const columns = [...report.personas.map((p) => ({ title: p.persona, figures: p as Totals })), { title: 'total', figures: report.totals }]
  const cells = ROWS.map(([label, cell]) => [label, ...columns.map((column) => cell(column.figures))])
  const header = ['measure', ...columns.map((column) => column.title)]
  const widths = header.map((_, i) => Math.max(...[header, ...cells].map((row) => row[i].length)))
  const line = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()
  return [
    `Learning evaluation: ${report.model}${report.learningModel ? ` (reviews: ${report.learningModel})` : ''} at ${report.endpoint}, ${Math.round(report.wallMs / 1000)} s`,
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...cells.map(line)
  ].join('\n')
}

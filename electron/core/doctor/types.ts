/** What `cairn doctor` looks at in a data home. */
export type CheckName = 'database' | 'ledger' | 'locks' | 'temp-files' | 'skills' | 'config'

/**
 * One check's result. `problem` makes the home unhealthy (doctor exits 1); a `note` is worth
 * knowing but needs nothing done. Texts are English (the CLI speaks English).
 */
export interface Finding {
  check: CheckName
  status: 'ok' | 'problem' | 'note'
  /** One line: what was found. */
  summary: string
  /** The items behind the summary (files, rows, SQLite's messages), at most a screenful. */
  details: string[]
  /** What to do about it, or null when nothing is needed. */
  advice: string | null
  /** `cairn doctor --repair` fixes it. */
  repairable: boolean
}

export interface DoctorReport {
  home: string
  /** No finding is a problem. */
  healthy: boolean
  findings: Finding[]
  /** The app's main process, the background reviews, the MCP servers (a folder of one log each). */
  logs: Record<'main' | 'review' | 'mcp', { path: string; exists: boolean }>
}

/** One thing `--repair` did (or could not do). */
export interface RepairAction {
  check: CheckName
  /** One line: what was done. */
  summary: string
  details: string[]
  /** False when the repair was attempted and failed (the summary says why). */
  ok: boolean
}

/** Details past this many are summarised as "… and N more". */
export const MAX_DETAILS = 20

export function capDetails(lines: string[], max = MAX_DETAILS): string[] {
  return lines.length <= max ? lines : [...lines.slice(0, max), `… and ${lines.length - max} more`]
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`
}

import type { z } from 'zod'

export interface IssueLineOptions {
  /** What to call the checked value itself when an issue is about all of it (an empty path), e.g. 'input'. */
  root: string
  /** List at most this many issues. Default: all. */
  max?: number
}

/** One `path: message` line per zod issue, for an error a person or a model reads. */
export function issueLines(error: z.ZodError, options: IssueLineOptions): string[] {
  return error.issues.slice(0, options.max).map((issue) => `${issue.path.map(String).join('.') || options.root}: ${issue.message}`)
}

/**
 * Saved prompts (the prompt library): the user's own reusable texts, kept in the data home as
 * `prompts/<name>.md` (YAML front matter, then the body with `{{variable}}` placeholders). Types and pure
 * helpers every face shares; the zod schemas are in `ipc/contract-prompts.ts`.
 */

/** A prompt's name: its file name without `.md`, lower-case words joined by hyphens. */
export const PROMPT_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/
export const MAX_PROMPT_BODY_CHARS = 20_000
export const MAX_PROMPT_DESCRIPTION_CHARS = 500
export const MAX_PROMPT_VARIABLES = 20
export const MAX_VARIABLE_DEFAULT_CHARS = 2_000
/** A whole prompt file, front matter included: larger files are reported rather than read. */
export const MAX_PROMPT_FILE_BYTES = 64 * 1024

/** A variable's name inside `{{…}}`: letters (any script), digits, `_`, `-` and `.`. */
const VARIABLE_NAME_SOURCE = String.raw`[\p{L}\p{N}_][\p{L}\p{N}_.-]{0,39}`
export const VARIABLE_NAME = new RegExp(`^${VARIABLE_NAME_SOURCE}$`, 'u')
const PLACEHOLDER = new RegExp(String.raw`\{\{\s*(${VARIABLE_NAME_SOURCE})\s*\}\}`, 'gu')

export interface PromptVariable {
  name: string
  description?: string
  /** Prefilled when the prompt is used. */
  default?: string
}

export interface SavedPrompt {
  name: string
  description: string
  /** The body's placeholders in order of first use, with what the front matter says about each. */
  variables: PromptVariable[]
  body: string
}

/** Why a file under prompts/ was not read; the other prompts are listed as usual. */
export type PromptFileIssue = 'too_large' | 'not_utf8' | 'front_matter' | 'invalid' | 'name_mismatch'

export interface PromptFileProblem {
  /** Relative to the data home, e.g. `prompts/standup.md`. */
  file: string
  issue: PromptFileIssue
  /** What the parser or the validation said, as it came (a YAML error, the failing field). */
  detail: string
}

/** The variable names a body uses, each once, in order of first use. */
export function variablesIn(body: string): string[] {
  const names: string[] = []
  for (const match of body.matchAll(PLACEHOLDER)) if (!names.includes(match[1])) names.push(match[1])
  return names
}

/** The body's variables with the descriptions and defaults `declared` gives them (declared names the body never uses are dropped). */
export function promptVariables(body: string, declared: readonly PromptVariable[] = []): PromptVariable[] {
  return variablesIn(body).map((name) => declared.find((variable) => variable.name === name) ?? { name })
}

/** The body with each `{{name}}` replaced by its value (an unknown name stays as written). */
export function fillPrompt(body: string, values: Readonly<Record<string, string>>): string {
  return body.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name] : whole))
}

/** A name for a prompt from a title the user typed: lower case, hyphens between words, ASCII only (or empty). */
export function promptNameFrom(title: string): string {
  return title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '')
}

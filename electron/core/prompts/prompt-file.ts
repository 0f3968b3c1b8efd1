import matter from 'gray-matter'
import type { z } from 'zod'
import { savedPromptSchema } from '../../../shared/ipc/contract-prompts'
import { promptVariables, type PromptFileIssue, type PromptVariable, type SavedPrompt } from '../../../shared/prompts'
import { issueLines } from '../../../shared/zod-issues'

/** `---js` would make gray-matter evaluate the front matter as JavaScript: only YAML is read. */
const refuseEngine = {
  parse: () => {
    throw new Error('only YAML front matter is read')
  }
}
const MATTER_OPTIONS = { language: 'yaml', engines: { js: refuseEngine, javascript: refuseEngine } } as const

export type ParsedPromptFile = { ok: true; prompt: SavedPrompt } | { ok: false; issue: PromptFileIssue; detail: string }

/**
 * A prompt file read back: `name` (else the file's name), `description`, `variables` (name, description,
 * default) in YAML front matter, then the body. A file without front matter is a body alone. The
 * variables are the body's placeholders, described by the front matter where it names them.
 */
export function parsePromptFile(text: string, fileName: string, options: { rename?: boolean } = {}): ParsedPromptFile {
  let data: Record<string, unknown>
  let body: string
  try {
    // An options object also keeps gray-matter's content-keyed cache out of it.
    const parsed = matter(text, MATTER_OPTIONS)
    data = (parsed.data ?? {}) as Record<string, unknown>
    body = parsed.content
  } catch (error) {
    return { ok: false, issue: 'front_matter', detail: String((error as Error).message ?? error).split('\n')[0] }
  }
  if (typeof data !== 'object' || Array.isArray(data)) return { ok: false, issue: 'front_matter', detail: 'not a mapping' }
  const candidate = {
    // `rename`: the file is taken in under `fileName`, whatever its front matter calls it (`cairn prompts add`).
    name: options.rename ? fileName : (data.name ?? fileName),
    description: data.description ?? '',
    variables: data.variables ?? [],
    body: body.replace(/^\r?\n/, '').replace(/\s+$/, '')
  }
  const checked = savedPromptSchema.safeParse(candidate)
  if (!checked.success) return { ok: false, issue: 'invalid', detail: describeIssues(checked.error) }
  if (checked.data.name !== fileName) return { ok: false, issue: 'name_mismatch', detail: `${checked.data.name} ≠ ${fileName}` }
  return { ok: true, prompt: { ...checked.data, variables: promptVariables(checked.data.body, checked.data.variables) } }
}

function describeIssues(error: z.ZodError): string {
  return issueLines(error, { root: 'prompt', max: 3 }).join('; ')
}

/** The file a prompt is saved as: front matter with what is set, then the body. */
export function formatPromptFile(prompt: SavedPrompt): string {
  const variables = promptVariables(prompt.body, prompt.variables).map(compactVariable)
  const data: Record<string, unknown> = { name: prompt.name, description: prompt.description }
  if (variables.length) data.variables = variables
  return matter.stringify(`${prompt.body.replace(/\s+$/, '')}\n`, data)
}

/** A variable as the file keeps it: empty fields left out. */
function compactVariable(variable: PromptVariable): PromptVariable {
  return {
    name: variable.name,
    ...(variable.description ? { description: variable.description } : {}),
    ...(variable.default ? { default: variable.default } : {})
  }
}

import { z } from 'zod'
import {
  MAX_PROMPT_BODY_CHARS,
  MAX_PROMPT_DESCRIPTION_CHARS,
  MAX_PROMPT_VARIABLES,
  MAX_VARIABLE_DEFAULT_CHARS,
  PROMPT_NAME,
  VARIABLE_NAME,
  type PromptFileIssue
} from '../prompts'
import { defineRoute } from './define'
import { ok } from './fields'

/**
 * The prompt library's routes (issue 29, part F; spread into `ipcRoutes`): the saved prompts of
 * `<home>/prompts/`, listed with the files that could not be read, saved and deleted. The same schemas
 * validate a prompt file's front matter in the core.
 */

export const promptNameSchema = z.string().regex(PROMPT_NAME, 'a prompt name is lower-case letters, digits and hyphens (at most 64), starting with a letter or digit')

export const promptVariableSchema = z.object({
  name: z.string().regex(VARIABLE_NAME, 'a variable name is letters, digits, _ . or - (at most 40)'),
  description: z.string().max(MAX_PROMPT_DESCRIPTION_CHARS).optional(),
  default: z.string().max(MAX_VARIABLE_DEFAULT_CHARS).optional()
})

export const savedPromptSchema = z.object({
  name: promptNameSchema,
  description: z.string().max(MAX_PROMPT_DESCRIPTION_CHARS),
  variables: z.array(promptVariableSchema).max(MAX_PROMPT_VARIABLES),
  body: z.string().min(1).max(MAX_PROMPT_BODY_CHARS)
})

const promptFileIssues = ['too_large', 'not_utf8', 'front_matter', 'invalid', 'name_mismatch'] as const satisfies readonly PromptFileIssue[]

export const promptFileProblemSchema = z.object({ file: z.string(), issue: z.enum(promptFileIssues), detail: z.string() })

export const promptRoutes = {
  'prompts.list': defineRoute({
    input: z.void(),
    output: z.object({ prompts: z.array(savedPromptSchema), problems: z.array(promptFileProblemSchema) })
  }),
  /** Creates or overwrites `prompts/<name>.md`; `previousName` renames (that file is removed once the new one is written). */
  'prompts.save': defineRoute({
    input: savedPromptSchema.extend({ previousName: promptNameSchema.optional() }),
    output: savedPromptSchema
  }),
  'prompts.delete': defineRoute({ input: z.object({ name: promptNameSchema }), output: ok })
}

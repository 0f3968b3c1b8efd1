import { z } from 'zod'
import { defineTool, type ToolAudience, type ToolDef } from '../tools/types'
import { truncateDescription } from './skill-file'
import { DESCRIPTION_CHARS, descriptionWithoutWhen, warnWithoutWhen } from './skill-trigger'
import type { SkillStore } from './skill-store'
import { fail, type SkillResult } from './skill-write-support'

export const SKILL_ACTIONS = ['create', 'patch', 'edit', 'delete', 'write_file', 'remove_file'] as const
export type SkillAction = (typeof SKILL_ACTIONS)[number]

const unknownAction = (action: unknown): string =>
  `Unknown action '${String(action)}'. Use: create, edit, patch, delete, write_file, remove_file`

export const skillsListSchema = z.object({
  category: z.string().nullish().describe('Only this category.')
})

export const skillViewSchema = z.object({
  name: z.string().describe('Skill name.'),
  file_path: z.string().nullish().describe("A file of the skill, e.g. 'references/api.md'.")
})

export const skillManageSchema = z.looseObject({
  action: z.enum(SKILL_ACTIONS, { error: (issue) => unknownAction(issue.input) }),
  name: z.string().describe('Lowercase, digits, hyphens, e.g. "deploy-k8s".'),
  category: z.string().nullish().describe('create: a folder, e.g. "devops".'),
  content: z.string().nullish().describe('create/edit: the full SKILL.md.'),
  old_string: z.string().nullish().describe('patch: exact text copied from skill_view.'),
  new_string: z.string().nullish().describe('patch: replacement.'),
  replace_all: z.boolean().nullish(),
  file_path: z.string().nullish().describe("e.g. 'references/api.md'."),
  file_content: z.string().nullish(),
  absorbed_into: z.string().nullish().describe('delete: the skill that holds its content now.')
})

export type SkillManageArgs = z.infer<typeof skillManageSchema>

export interface SkillToolOptions {
  /** `learning.allowSkillCreation`: when false, `create` is refused and only existing skills can be patched. */
  allowCreate: boolean
  /** Whether a `skill_view` counts as use of the skill (its view count and last use, which keep it from going stale). */
  viewCountsAsUse: boolean
  /** Who gets the tools (default 'chat'). Only the chat is urged to create skills and told to confirm with the user. */
  audience?: ToolAudience
}

/** Field names models send by mistake for patch, and the one they meant. */
const PATCH_ALIASES: Record<string, string> = { old_text: 'old_string', old: 'old_string', find: 'old_string', search: 'old_string', new_text: 'new_string', new: 'new_string', replace: 'new_string', replacement: 'new_string' }

function patchFieldHint(args: Record<string, unknown>): string {
  const hints: string[] = []
  for (const [sent, meant] of Object.entries(PATCH_ALIASES)) {
    if (sent in args) hints.push(`You sent '${sent}'; the field is called ${meant}.`)
  }
  if ('patch' in args || 'diff' in args) hints.push('skill_manage does not take a diff or V4A patch: send the exact old text and its replacement.')
  return hints.length ? ' ' + hints.join(' ') : ''
}

function listSkills(store: SkillStore, category: string | null | undefined): SkillResult {
  const wanted = category?.trim() || null
  const all = store.list()
  const skills = wanted ? all.filter((skill) => skill.category === wanted || skill.category?.startsWith(`${wanted}/`)) : all
  const groups = new Map<string | null, { name: string; description: string; readOnly?: true }[]>()
  for (const skill of skills) {
    const group = groups.get(skill.category) ?? []
    group.push({ name: skill.name, description: truncateDescription(skill.description, DESCRIPTION_CHARS), ...(skill.readOnly ? { readOnly: true as const } : {}) })
    groups.set(skill.category, group)
  }
  const categories = [...groups.entries()].map(([name, items]) => ({ category: name, skills: items }))
  const result: SkillResult = {
    success: true,
    message: `${skills.length} skill${skills.length === 1 ? '' : 's'}${wanted ? ` in category '${wanted}'` : ''}.`,
    categories,
    count: skills.length,
    hint: 'Use skill_view(name) to read a skill before using it.'
  }
  if (wanted && skills.length === 0) {
    const known = [...new Set(all.map((skill) => skill.category).filter((c): c is string => c !== null))].sort()
    result.hint = `No skills in category '${wanted}'. Categories: ${known.join(', ') || '(none)'}. Call skills_list without category to see everything.`
  }
  return result
}

async function manage(store: SkillStore, options: SkillToolOptions, args: SkillManageArgs, ctx: Parameters<ToolDef['run']>[1]): Promise<SkillResult> {
  const action = args.action as string
  if (!(SKILL_ACTIONS as readonly string[]).includes(action)) return fail(unknownAction(action))
  const name = args.name
  switch (action as SkillAction) {
    case 'create':
      if (!options.allowCreate) {
        return fail(
          'Creating new skills is turned off (learning.allowSkillCreation is false): only patching existing skills is allowed. ' +
            "Find the closest skill with skills_list, read it with skill_view, then add what you learned with action='patch'."
        )
      }
      if (args.content == null) return fail("content is required for 'create'. Provide the full SKILL.md text (frontmatter + body).")
      return warnWithoutWhen(await store.create({ name, category: args.category, content: args.content }, ctx), name, descriptionWithoutWhen(args.content))
    case 'edit':
      if (args.content == null) return fail("content is required for 'edit'. Provide the full SKILL.md text (frontmatter + body).")
      return store.edit({ name, content: args.content }, ctx)
    case 'patch':
      if (args.old_string == null) {
        return fail(
          "old_string is required for 'patch'. Provide the text to find: copy it exactly from skill_view, and put its replacement in new_string. " +
            "To rewrite the whole SKILL.md use action='edit' with content." + patchFieldHint(args)
        )
      }
      if (args.new_string == null) {
        return fail("new_string is required for 'patch'. Provide the replacement text (an empty string deletes the match)." + patchFieldHint(args))
      }
      return store.patch(
        { name, old_string: args.old_string, new_string: args.new_string, replace_all: args.replace_all ?? false, file_path: args.file_path },
        ctx
      )
    case 'delete':
      return store.delete({ name, absorbed_into: args.absorbed_into }, ctx)
    case 'write_file':
      if (args.file_path == null || args.file_path.trim() === '') {
        return fail("file_path is required for 'write_file'. Example: 'references/api-guide.md'")
      }
      if (args.file_content == null) return fail("file_content is required for 'write_file'. Provide the full text of the file.")
      return store.writeFile({ name, file_path: args.file_path, file_content: args.file_content }, ctx)
    case 'remove_file':
      if (args.file_path == null || args.file_path.trim() === '') {
        return fail("file_path is required for 'remove_file'. Example: 'references/old-notes.md'")
      }
      return store.removeFile({ name, file_path: args.file_path }, ctx)
  }
}

/** What a description says so the skill is found again (skill-trigger.ts checks it on create). */
const USE_WHEN = 'Its description says when to use it: "Use when <situation>. <what it does>".'

/** The review's wording, and other agents' over MCP (the review's prompt and budget are its own). */
const REVIEW_MANAGE_DESCRIPTION = [
  'Create, update or delete skills: your procedural memory (SKILL.md files with YAML frontmatter name + description, then instructions).',
  USE_WHEN,
  'Update one (patch) when its instructions are stale or wrong, missed a step, or failed on this OS. Always skill_view a skill before patching it, and copy old_string exactly from what you read.',
  'Actions: create (name, content, optional category), patch (name, old_string, new_string, optional replace_all, optional file_path), edit (name, content: full rewrite), delete (name), write_file (name, file_path under references/ templates/ scripts/ assets/, file_content), remove_file (name, file_path).'
].join('\n')

/** The chat's wording: sent with every request, so short; when to load or patch a skill is in the system prompt. */
const CHAT_MANAGE_DESCRIPTION = [
  'Create, patch or delete skills: SKILL.md with front matter (name, description), then the steps.',
  USE_WHEN,
  'Create one after a hard task succeeded (5+ calls, errors overcome, a user correction) or when asked to remember a procedure; confirm with the user before creating or deleting.',
  'patch: skill_view first, copy old_string exactly. edit rewrites SKILL.md. write_file/remove_file: files under references/ templates/ scripts/ assets/.'
].join('\n')

const DESCRIPTIONS = {
  chat: {
    list: 'List skills by category, with their descriptions.',
    view: 'Read a skill: its SKILL.md and file list, or one file of it (file_path).',
    manage: CHAT_MANAGE_DESCRIPTION
  },
  review: {
    list: 'List the skills you have, grouped by category, with a short description of each. Read one with skill_view before using it.',
    view: 'Read a skill: without file_path, its full SKILL.md and the list of its files; with file_path, one of those files.',
    manage: REVIEW_MANAGE_DESCRIPTION
  }
} as const

/** `skills_list`, `skill_view` and `skill_manage` over one store. */
export function createSkillTools(store: SkillStore, options: SkillToolOptions): ToolDef[] {
  const words = DESCRIPTIONS[options.audience ?? 'chat']
  const list = defineTool({
    name: 'skills_list',
    description: words.list,
    schema: skillsListSchema,
    run: (args) => listSkills(store, args.category)
  })
  const view = defineTool({
    name: 'skill_view',
    description: words.view,
    schema: skillViewSchema,
    run: (args, ctx) => store.view(args.name, args.file_path, ctx.turn, options.viewCountsAsUse)
  })
  const manageTool = defineTool({
    name: 'skill_manage',
    description: words.manage,
    schema: skillManageSchema,
    run: (args, ctx) => manage(store, options, args, ctx)
  })
  return [list, view, manageTool] as ToolDef[]
}

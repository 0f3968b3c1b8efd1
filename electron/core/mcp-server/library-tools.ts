import { z } from 'zod'
import type { McpServer } from '@modelcontextprotocol/server'
import type { ServedHome } from './served-home'
import { memoryTargets } from '../memory/types'
import { createSessionSearchTool, sessionSearchSchema } from '../sessions'
import { skillViewSchema } from '../skills/skill-tools'
import { newTurnState } from '../tools/types'
import type { OutsideLearning } from './outside-learning'
import { toolResult, type ClientSource } from './tool-results'

const MAX_REASON_CHARS = 1000

const listSchema = z.object({ category: z.string().optional().describe('Only skills in this category (e.g. "devops"), or below it.') })

// Summaries need a model the server does not have: other agents get the raw messages.
const searchSchema = sessionSearchSchema.omit({ include_current: true, summarize: true })

const proposeSchema = z.object({
  kind: z.enum(['memory', 'skill']).describe("'memory': an entry of Cairn's memory; 'skill': a whole SKILL.md (a new skill, or new text for an existing one)."),
  content: z.string().describe("memory: the entry's text. skill: the full SKILL.md (YAML front matter with name and description, then the instructions)."),
  target: z.enum(memoryTargets).optional().describe("memory only, required: 'user' (USER.md, who the user is) or 'memory' (MEMORY.md, their environment and conventions)."),
  old_text: z.string().optional().describe('memory only: a unique part of the entry this one should replace; omit to suggest a new entry.'),
  name: z.string().optional().describe('skill only, required: the skill\'s name (lowercase letters, digits and hyphens; its folder name).'),
  category: z.string().optional().describe('skill only, for a new skill: one folder to file it under, e.g. "devops".'),
  reason: z.string().optional().describe('Why, in a sentence or two: the user reads it beside the suggestion.')
})

/** skills_list, skill_view, session_search and learning_propose. */
export function registerLibraryTools(server: McpServer, core: ServedHome, learning: OutsideLearning, clientSource: ClientSource): void {
  server.registerTool(
    'skills_list',
    {
      title: 'List Cairn skills',
      description:
        "List the skills in the user's Cairn library (procedures Cairn learned or the user wrote, in the Agent Skills format): name, category and a one-line description. Read one with skill_view before following it. Skills the user disabled are left out.",
      inputSchema: listSchema,
      annotations: { readOnlyHint: true }
    },
    ({ category }) => {
      const wanted = category?.trim() || null
      const disabled = core.skillFlags.disabled()
      const skills = core.skills
        .list()
        .filter((skill) => !disabled.has(skill.name))
        .filter((skill) => !wanted || skill.category === wanted || skill.category?.startsWith(`${wanted}/`))
        .map((skill) => ({ name: skill.name, category: skill.category, description: skill.description }))
      return toolResult({ success: true, count: skills.length, skills })
    }
  )

  server.registerTool(
    'skill_view',
    {
      title: 'Read a Cairn skill',
      description:
        "Read one of the user's Cairn skills: without file_path its whole SKILL.md and the list of its supporting files; with file_path one of those files (e.g. 'references/api.md'). Each skill is also a resource, skill://<name>.",
      inputSchema: skillViewSchema,
      annotations: { readOnlyHint: true }
    },
    // Another agent's read is not the user's use of the skill in Cairn: it does not keep the skill from going stale.
    ({ name, file_path: filePath }) => toolResult(core.skills.view(name, filePath, null, false))
  )

  const search = createSessionSearchTool(core.db, () => null)
  server.registerTool(
    'session_search',
    {
      title: 'Search Cairn conversations',
      description:
        "Search the user's past conversations with Cairn, their desktop assistant. " +
        'Ask in plain language; the best-matching conversations come first, each with a snippet (matches marked >>>like this<<<) and the messages around it. ' +
        'session_id reads one conversation (with around_message_id: the messages around that message); no query lists the most recent ones. At most 10 conversations per call. ' +
        'A past conversation records what was said then, not how things are now.',
      inputSchema: searchSchema,
      annotations: { readOnlyHint: true }
    },
    async (args) => toolResult((await search.run(args, { write: { source: clientSource() }, turn: newTurnState() })) as { success: boolean })
  )

  server.registerTool(
    'learning_propose',
    {
      title: 'Suggest something for Cairn to learn',
      description:
        "Suggest a memory entry, or a new or improved skill, for the user's Cairn. It is never applied directly: it waits in Cairn's Inbox for the user to approve, edit or reject (the answer gives its proposal id). " +
        "Use it for what the user would want Cairn to know or do next time. Suggestions are checked like Cairn's own writes (the Agent Skills format, the injection scan); a change the user already rejected is not proposed again.",
      inputSchema: proposeSchema
    },
    async (args) => {
      const reason = args.reason?.trim() ? args.reason.trim().slice(0, MAX_REASON_CHARS) : null
      if (args.kind === 'memory') {
        if (!args.target) return toolResult({ success: false, error: "target is required for kind 'memory': 'user' or 'memory'." })
        if (args.name !== undefined || args.category !== undefined) return toolResult({ success: false, error: "name and category are for kind 'skill'; a memory suggestion takes target, content and optionally old_text." })
        return toolResult(await learning.propose(clientSource(), { kind: 'memory', target: args.target, content: args.content, oldText: args.old_text ?? null }, reason))
      }
      if (!args.name?.trim()) return toolResult({ success: false, error: "name is required for kind 'skill': the skill's folder name, e.g. 'deploy-blog'." })
      if (args.target !== undefined || args.old_text !== undefined) return toolResult({ success: false, error: "target and old_text are for kind 'memory'; a skill suggestion takes name, content (the whole SKILL.md) and optionally category." })
      return toolResult(await learning.propose(clientSource(), { kind: 'skill', name: args.name.trim(), content: args.content, category: args.category ?? null }, reason))
    }
  )
}

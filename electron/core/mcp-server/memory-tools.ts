import { z } from 'zod'
import type { McpServer } from '@modelcontextprotocol/server'
import type { ServedHome } from './served-home'
import { searchMemory } from '../memory/memory-search'
import { memoryTargets, type MemoryTarget } from '../memory/types'
import type { OutsideLearning } from './outside-learning'
import { toolResult, type ClientSource } from './tool-results'

const targetField = z
  .enum(memoryTargets)
  .describe("'user' = USER.md, who the user is (name, role, preferences, style); 'memory' = MEMORY.md, notes about their environment, conventions, tool quirks and lessons. 'project' (a workspace's own memory) is not served here: it belongs to a workspace Cairn's conversations run in.")

const readSchema = z.object({ target: targetField.optional().describe('Which store to read; omit to read both.') })

const searchSchema = z.object({
  query: z.string().describe('Words to find, e.g. "staging database name".'),
  target: targetField.optional().describe('Which store to search; omit for both.')
})

const addSchema = z.object({
  target: targetField,
  content: z.string().describe('The entry: one compact, durable, declarative fact ("User prefers pnpm over npm"), not an instruction or a task log.')
})

const replaceSchema = z.object({
  target: targetField,
  old_text: z.string().describe('A short unique part of the entry to replace (or its full text), as memory_read shows it.'),
  content: z.string().describe('The entry that takes its place.')
})

const WRITES_FOLLOW =
  "Writes follow the user's learning settings in Cairn: applied at once and revertible (mode Auto), saved as a proposal the user approves in Cairn's Inbox (mode Ask, or an entry the user pinned), or refused (learning Off). The answer says which. Entries are scanned for prompt injection and refused if they carry it."

/** memory_read, memory_add and memory_replace: Cairn's two memory files for another agent. */
export function registerMemoryTools(server: McpServer, core: ServedHome, learning: OutsideLearning, clientSource: ClientSource): void {
  server.registerTool(
    'memory_read',
    {
      title: 'Read Cairn memory',
      description:
        "Read what Cairn, the user's desktop assistant, remembers across conversations: the entries of USER.md (about the user) and MEMORY.md (about their environment and conventions), with how full each is (usage against its character limit). Read before adding, so you do not save what is already there.",
      inputSchema: readSchema,
      annotations: { readOnlyHint: true }
    },
    ({ target }) => {
      // Project memory belongs to a workspace, which this server does not know: asked for, it is refused.
      const targets: MemoryTarget[] = target ? [target] : memoryTargets.filter((store) => store !== 'project')
      const stores = targets.map((store) => {
        const unavailable = learning.unavailable(store)
        return unavailable ? { success: false as const, target: store, error: unavailable } : core.memory.readForModel(store)
      })
      if (target) return toolResult(stores[0])
      // The archive is never loaded whole; its size says how much more memory_search can find.
      const archive = { entries: core.archive.count({ projectKey: null }), note: 'Older and overflowing entries, not shown here: memory_search finds them.' }
      return toolResult({ success: stores.some((store) => store.success), stores, archive })
    }
  )

  server.registerTool(
    'memory_search',
    {
      title: 'Search Cairn memory',
      description:
        "Search everything Cairn remembers by words: the entries of USER.md and MEMORY.md, and its archive (entries that no longer fit or were retired from those files, which memory_read does not show). Each result has an id, where it lives (core or archive), its store and when it was added. Read-only.",
      inputSchema: searchSchema,
      annotations: { readOnlyHint: true }
    },
    ({ query, target }) => {
      if (target === 'project') return toolResult({ success: false, error: learning.unavailable('project') ?? 'Project memory is not served here.' })
      const enabled = (store: MemoryTarget) => store !== 'project' && learning.unavailable(store) === null
      // Another agent's search changes nothing: archive hits are not marked recalled.
      return toolResult(searchMemory(core.memory, query, { target, enabled, markRecalled: false }))
    }
  )

  server.registerTool(
    'memory_add',
    {
      title: 'Add to Cairn memory',
      description: `Add one entry to Cairn's memory of the user, which Cairn reads at the start of every conversation. Save durable facts only (preferences, corrections, stable facts about their setup); skip task progress, one-off details and anything stale within a week. An entry already there is a no-op. ${WRITES_FOLLOW}`,
      inputSchema: addSchema
    },
    async ({ target, content }) => toolResult(await learning.memoryAdd(clientSource(), target, content))
  )

  server.registerTool(
    'memory_replace',
    {
      title: 'Replace a Cairn memory entry',
      description: `Replace one entry of Cairn's memory: old_text picks the entry (a unique substring of it, or its full text) and content is its new text. Use it to correct or update a fact instead of adding a second, conflicting one. If old_text matches several different entries the answer lists them; pass more of the one you mean. ${WRITES_FOLLOW}`,
      inputSchema: replaceSchema
    },
    async ({ target, old_text: oldText, content }) => toolResult(await learning.memoryReplace(clientSource(), target, oldText, content))
  )
}

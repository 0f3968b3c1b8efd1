import { z } from 'zod'
import { defineRoute } from './define'
import { memoryTargetSchema } from './domain'
import { projectInstructionFileSchema, projectMemoryViewSchema } from './domain-project'
import { folderPath, ok, text } from './fields'

/** The user hid an entry ("don't bring this up") or showed it again; `at` is ISO. */
export const visibilityChangeSchema = z.object({ entry: z.string(), hidden: z.boolean(), at: z.string() })
export type VisibilityChangeView = z.infer<typeof visibilityChangeSchema>

/** Routes of the memory layers beside the two global stores (issue 28; spread into `ipcRoutes`): hidden entries and project memory. */
export const memoryLayerRoutes = {
  // Issue 28, part E (hide without deleting): "Don't bring this up" keeps an entry in its file and here, out of
  // prompts, `read`, MCP and recall, from the next conversation on; reversible, and each decision is in its history.
  'memory.setHidden': defineRoute({ input: z.object({ target: memoryTargetSchema, text: text(20_000).min(1), hidden: z.boolean(), workspace: folderPath.optional() }), output: ok }),
  'memory.visibilityHistory': defineRoute({ input: z.object({ target: memoryTargetSchema, entry: text(20_000).min(1) }), output: z.array(visibilityChangeSchema) }),

  // Issue 28, part B: project memory and the repository's instructions.
  /** One workspace's project memory (the Memory screen's Project card); `workspace` is the conversation's or the default one. */
  'memory.project': defineRoute({ input: z.object({ workspace: folderPath }), output: projectMemoryViewSchema }),
  /** The instruction files (AGENTS.md, CLAUDE.md…) a workspace's conversations read at start, for the chat header. */
  'workspace.instructions': defineRoute({ input: z.object({ workspace: folderPath }), output: z.array(projectInstructionFileSchema) }),
  /** Opens one of those files in the system's editor (desktop); browser mode answers the path only (`opened: false`). */
  'workspace.openInstructions': defineRoute({ input: z.object({ workspace: folderPath, file: text(200).min(1) }), output: z.object({ path: z.string(), opened: z.boolean() }) }),
}

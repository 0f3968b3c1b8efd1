import { z } from 'zod'
import { memoryStoreViewSchema } from './domain'

/** One workspace's project memory (issue 28, part B): the store's view, and whose it is. */
export const projectMemoryViewSchema = memoryStoreViewSchema.extend({
  /** The workspace's real path, and its folder's name as the card shows it. */
  workspace: z.string(),
  name: z.string()
})
export type ProjectMemoryView = z.infer<typeof projectMemoryViewSchema>

/** One of the repository's instruction files as a conversation read it: quoted (`loaded`), cut, or left out as a threat (`blocked`: the rules it matched). */
export const projectInstructionFileSchema = z.object({
  file: z.string(),
  path: z.string(),
  loaded: z.boolean(),
  cut: z.boolean(),
  blocked: z.array(z.string()).nullable()
})
export type ProjectInstructionFileView = z.infer<typeof projectInstructionFileSchema>

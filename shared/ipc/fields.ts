import { z } from 'zod'

/** Field schemas the route files share. */

export const text = (max: number) => z.string().max(max)
export const ok = z.object({ ok: z.literal(true) })
/** A folder as the user typed or picked it; main checks it is absolute, a folder and allowed (`WORKSPACE` errors). */
export const folderPath = z
  .string()
  .min(1)
  .max(4096)
  .refine((path) => !path.includes('\0'), 'a folder path cannot contain a NUL character')

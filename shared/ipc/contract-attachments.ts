import { z } from 'zod'
import { MAX_ATTACHMENTS, MAX_IMAGE_BYTES } from '../attachments'
import { defineRoute } from './define'

/** The image types a sent image can be shown as (the ones Cairn accepts as images). */
export const shownImageMimes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const

/** Base64 of the largest image a message may carry. */
const MAX_IMAGE_BASE64 = Math.ceil(MAX_IMAGE_BYTES / 3) * 4

/**
 * Issue 29, part E: the bytes of an image sent with a message, so the conversation shows it as a
 * thumbnail and in the viewer (the renderer makes a data: URL of them; the CSP allows no other source).
 * Read from the data home, or from an incognito conversation's memory.
 */
export const attachmentRoutes = {
  'attachments.image': defineRoute({
    input: z.object({ sessionId: z.string().min(1).max(200), messageId: z.number().int().min(0), index: z.number().int().min(0).max(MAX_ATTACHMENTS - 1) }),
    output: z.object({ mime: z.enum(shownImageMimes), data: z.string().max(MAX_IMAGE_BASE64) }),
    quickWindow: true
  })
}

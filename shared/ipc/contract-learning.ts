import { z } from 'zod'
import { learningModes } from '../config'
import { MAX_FATES_PER_REQUEST } from '../review-fate'
import { defineRoute } from './define'
import { learningStatusSchema, reviewFateSchema } from './domain'

const sessionId = z.string().min(1).max(200)

/** Learning's switches, a review or curation asked for now, and what became of reviews' changes. */
export const learningRoutes = {
  'learning.status': defineRoute({ input: z.void(), output: learningStatusSchema, quickWindow: true }),
  'learning.setEnabled': defineRoute({ input: z.object({ enabled: z.boolean() }), output: learningStatusSchema }),
  'learning.resume': defineRoute({ input: z.void(), output: learningStatusSchema }),
  'learning.reviewNow': defineRoute({ input: z.object({ sessionId }), output: z.object({ reviewId: z.string() }) }),
  'learning.setMode': defineRoute({ input: z.object({ mode: z.enum(learningModes) }), output: learningStatusSchema }),
  /** A curation pass over the whole library now; its results are always proposals. */
  'learning.curate': defineRoute({ input: z.void(), output: z.object({ reviewId: z.string() }) }),
  /** What became of these reviews' proposals and changes (the chat's notes stay true after a decision or a revert). */
  'learning.fates': defineRoute({
    input: z.object({ reviewIds: z.array(z.string().max(200)).max(MAX_FATES_PER_REQUEST) }),
    output: z.object({ fates: z.array(reviewFateSchema) }),
    quickWindow: true
  })
}

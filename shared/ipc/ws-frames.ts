import { z } from 'zod'
import { issueLines } from '../zod-issues'
import { ipcErrorShape, type IpcErrorShape, type IpcResult } from './define'

/**
 * The frames of browser mode's WebSocket (`cairn serve`): the page sends `request` frames, the server
 * answers each with a `response` carrying the same id and pushes `event` frames. A frame from the page
 * is untrusted: it is parsed here before anything reads a field of it.
 */

export const requestFrameSchema = z.object({
  type: z.literal('request'),
  id: z.number().int().nonnegative(),
  route: z.string().max(200),
  input: z.unknown().optional()
})

export type RequestFrame = z.infer<typeof requestFrameSchema>
/** `id` is null when the frame it answers had no usable id (the page cannot match it to a request then). */
export interface ResponseFrame {
  type: 'response'
  id: number | null
  result: IpcResult<unknown>
}
export interface EventFrame {
  type: 'event'
  name: string
  payload: unknown
}

/** The error code of a response to a frame that is not a well-formed request. */
export const BAD_FRAME = 'BAD_FRAME'

export type ReadFrame = { ok: true; frame: RequestFrame } | { ok: false; id: number | null; error: IpcErrorShape }

const EXAMPLE = '{"type":"request","id":1,"route":"app.info"}'

/** Parses one text frame from the page; a frame that is not a request says why, with its id when it had a valid one. */
export function readRequestFrame(text: string): ReadFrame {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return badFrame(null, ipcErrorShape(BAD_FRAME, 'frame.not_json', { detail: (error as Error).message, example: EXAMPLE }))
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return badFrame(null, ipcErrorShape(BAD_FRAME, 'frame.not_object', { example: EXAMPLE, got: Array.isArray(value) ? 'an array' : String(JSON.stringify(value)).slice(0, 40) }))
  }
  const parsed = requestFrameSchema.safeParse(value)
  if (parsed.success) return { ok: true, frame: parsed.data }
  const id = requestFrameSchema.shape.id.safeParse((value as { id?: unknown }).id)
  return badFrame(id.success ? id.data : null, ipcErrorShape(BAD_FRAME, 'frame.invalid', { issues: issueLines(parsed.error, { root: 'frame', max: 5 }).join('; ') }))
}

function badFrame(id: number | null, error: IpcErrorShape): ReadFrame {
  return { ok: false, id, error }
}

/**
 * Server-sent events as OpenAI streams them: `data: <json>\n\n` per chunk, then `data: [DONE]\n\n`.
 * Each event is flushed before the next (so chunk delays and cuts are exact), and a cut destroys
 * the socket after K events without `[DONE]`, the way a dropped connection looks to the client.
 */
import type { ServerResponse } from 'node:http'
import { sleep } from './http'

export type StreamOutcome = 'completed' | 'cut' | 'client-disconnected'

export interface StreamOptions {
  /** Wait before each event after the first. */
  chunkDelayMs?: number
  /** Destroy the connection after this many events, before `[DONE]`. */
  cutAfter?: number
  /** Aborts when the client disconnects. */
  signal: AbortSignal
}

export function sseEvent(data: unknown): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
}

/** Resolves once the data has been handed to the OS, so a following destroy cannot drop it. */
function write(res: ServerResponse, data: string): Promise<boolean> {
  return new Promise((resolve) => {
    res.write(data, (error) => resolve(!error))
  })
}

export function startEventStream(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...headers
  })
  res.flushHeaders()
}

/** Writes `events` then `[DONE]` on a started stream, honouring delays, cuts and client disconnects. */
export async function writeEventStream(res: ServerResponse, events: unknown[], options: StreamOptions): Promise<StreamOutcome> {
  const { signal } = options
  for (let i = 0; i < events.length; i++) {
    if (options.cutAfter !== undefined && i >= options.cutAfter) return cut(res)
    if (i > 0 && !(await sleep(options.chunkDelayMs ?? 0, signal))) return 'client-disconnected'
    if (signal.aborted || !(await write(res, sseEvent(events[i])))) return 'client-disconnected'
  }
  if (options.cutAfter !== undefined) return cut(res)
  if (signal.aborted || !(await write(res, sseEvent('[DONE]')))) return 'client-disconnected'
  res.end()
  return 'completed'
}

function cut(res: ServerResponse): StreamOutcome {
  res.destroy()
  return 'cut'
}

/**
 * Reassembles an SDK chat-completion stream the way an agent loop does: content deltas appended,
 * `delta.tool_calls[i]` accumulated by `index`. Keeps the raw chunks and any error, so tests can
 * assert on what arrived before a cut stream failed.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'

export interface CollectedToolCall {
  id: string
  name: string
  arguments: string
  /** Argument deltas as received (shows how the arguments were split). */
  argumentPieces: string[]
}

export interface CollectedStream {
  chunks: ChatCompletionChunk[]
  content: string
  contentPieces: string[]
  toolCalls: CollectedToolCall[]
  finishReason: string | null
  usage: ChatCompletionChunk['usage']
  /** What the iteration threw, if it did (e.g. a cut connection or an abort). */
  error?: unknown
}

export async function collectStream(stream: AsyncIterable<ChatCompletionChunk>): Promise<CollectedStream> {
  const collected: CollectedStream = { chunks: [], content: '', contentPieces: [], toolCalls: [], finishReason: null, usage: undefined }
  try {
    for await (const chunk of stream) {
      collected.chunks.push(chunk)
      if (chunk.usage) collected.usage = chunk.usage
      const choice = chunk.choices[0]
      if (!choice) continue
      if (choice.delta.content) {
        collected.content += choice.delta.content
        collected.contentPieces.push(choice.delta.content)
      }
      for (const delta of choice.delta.tool_calls ?? []) {
        const call = (collected.toolCalls[delta.index] ??= { id: '', name: '', arguments: '', argumentPieces: [] })
        if (delta.id) call.id = delta.id
        if (delta.function?.name) call.name += delta.function.name
        if (delta.function?.arguments) {
          call.arguments += delta.function.arguments
          call.argumentPieces.push(delta.function.arguments)
        }
      }
      if (choice.finish_reason) collected.finishReason = choice.finish_reason
    }
  } catch (error) {
    collected.error = error
  }
  return collected
}

/**
 * `POST /v1/embeddings` for the scripted server: a deterministic hashed bag of words, so tests can
 * run search by meaning end to end. Each word (lower-cased letters and digits) adds ±1 to one of N
 * dimensions chosen by a hash seeded with the model name, then the vector is normalised: texts sharing
 * words point the same way, another model gives unrelated vectors. No quality claim is made from it.
 */
import type { ServerResponse } from 'node:http'
import { defaultErrorBody, openAiError, sendFaultBody, sendJson } from './http'
import type { EmbeddingFault, EmbeddingsOptions, RecordedRequest, RequestOutcome } from './types'

export const embeddingsPath = '/v1/embeddings'
export const DEFAULT_EMBEDDING_DIMENSIONS = 64

/** FNV-1a over the UTF-16 units, 32-bit. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** The vector the scripted server returns for `text` under `model`, unit length. */
export function hashedEmbedding(text: string, dimensions: number, model = '', concepts: Record<string, string> = {}): number[] {
  const vector = new Array<number>(dimensions).fill(0)
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = hash(`${model}\u0000${concepts[word] ?? word}`)
    vector[h % dimensions] += (h >>> 31) === 1 ? -1 : 1
  }
  const norm = Math.hypot(...vector)
  if (norm === 0) {
    vector[0] = 1
    return vector
  }
  return vector.map((x) => x / norm)
}

export interface EmbeddingsContext {
  options: EmbeddingsOptions
  faults: EmbeddingFault[]
}

/** Answers one embeddings request: the next queued fault if any, else vectors for every input. */
export function answerEmbeddings(entry: RecordedRequest, res: ServerResponse, context: EmbeddingsContext): RequestOutcome {
  const fail = (status: number, body: unknown, headers: Record<string, string> = {}): RequestOutcome => {
    entry.status = status
    sendFaultBody(res, status, body, headers)
    return 'http-error'
  }
  const fault = context.faults.shift()
  if (fault) return fail(fault.status, fault.body ?? defaultErrorBody(fault.status), fault.headers)
  const body = entry.body as { model?: unknown; input?: unknown; dimensions?: unknown; encoding_format?: unknown } | undefined
  if (!body || typeof body !== 'object') return fail(400, openAiError('(scripted) The body must be a JSON object.', 'invalid_request_error'))
  if (typeof body.model !== 'string' || !body.model) return fail(400, openAiError('(scripted) `model` is required.', 'invalid_request_error', null, 'model'))
  const models = context.options.models
  if (models && !models.includes(body.model)) {
    return fail(404, openAiError(`(scripted) The model \`${body.model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found'))
  }
  const inputs = typeof body.input === 'string' ? [body.input] : body.input
  if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((x) => typeof x === 'string' && x.length > 0)) {
    return fail(400, openAiError('(scripted) `input` must be a non-empty string or array of non-empty strings.', 'invalid_request_error', null, 'input'))
  }
  const limit = context.options.maxInputChars
  if (limit !== undefined && inputs.some((x) => x.length > limit)) {
    return fail(400, openAiError(`(scripted) An input is longer than ${limit} characters.`, 'invalid_request_error', null, 'input'))
  }
  const dimensions = typeof body.dimensions === 'number' && !context.options.ignoreDimensions ? body.dimensions : (context.options.dimensions ?? DEFAULT_EMBEDDING_DIMENSIONS)
  if (!Number.isInteger(dimensions) || dimensions < 1) return fail(400, openAiError('(scripted) `dimensions` must be a positive integer.', 'invalid_request_error', null, 'dimensions'))
  const base64 = body.encoding_format === 'base64'
  entry.status = 200
  sendJson(res, 200, {
    object: 'list',
    model: body.model,
    data: inputs.map((input, index) => {
      const vector = hashedEmbedding(input, dimensions, body.model as string, context.options.concepts)
      return { object: 'embedding', index, embedding: base64 ? Buffer.from(Float32Array.from(vector).buffer).toString('base64') : vector }
    }),
    usage: { prompt_tokens: inputs.join(' ').split(/\s+/).length, total_tokens: inputs.join(' ').split(/\s+/).length }
  })
  return 'completed'
}

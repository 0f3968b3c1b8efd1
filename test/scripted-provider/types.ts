/**
 * Public types of the scripted OpenAI-compatible server: what a test scripts (replies, faults, rules)
 * and what it can assert on afterwards (recorded requests). Wire shapes follow OpenAI's
 * chat-completions API so the real `openai` SDK talks to the server unchanged.
 */
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions'

/** One tool call the scripted assistant makes. Several in one reply are parallel calls. */
export interface ScriptedToolCall {
  /** Defaults to `call_scripted_<n>` (unique per server). */
  id?: string
  name: string
  /** An object is JSON-serialised; a string is sent verbatim (so it may be deliberately invalid). */
  arguments: string | object
  /** Streams the arguments string across this many chunks (default 1). */
  splitInto?: number
}

/** Token counts to report instead of the estimates; `total_tokens` is recomputed unless given. */
export interface UsageOverride {
  prompt_tokens?: number
  completion_tokens?: number
  total_tokens?: number
  cached_tokens?: number
}

/** OpenAI's usage object as the server sends it. */
export interface Usage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
  prompt_tokens_details: { cached_tokens: number }
}

export type Fault =
  /** Answers with this HTTP status (default body: an OpenAI-style error for the status). */
  | { type: 'http'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Sends `afterChunks` SSE events (the role chunk counts), then destroys the socket without `[DONE]`. */
  | { type: 'cut'; afterChunks: number }
  /** Waits `ms` before sending the response headers. */
  | { type: 'slowFirstByte'; ms: number }
  /** Never answers; the request ends only when the client disconnects or the server closes. */
  | { type: 'hang' }
  /** Sends every tool call's arguments as a string that is not valid JSON. */
  | { type: 'malformedToolArguments' }

export interface ScriptedReply {
  /** Assistant text. With `chunks`, must equal their concatenation (or be omitted). */
  text?: string
  /** Exact streaming pieces of the text; by default the text streams word by word. */
  chunks?: string[]
  toolCalls?: ScriptedToolCall[]
  /** Defaults to `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: string
  usage?: UsageOverride
  fault?: Fault
  /** Waits this long before the response headers (adds to a `slowFirstByte` fault). */
  delayMs?: number
  /** Waits this long before each SSE event after the first. */
  chunkDelayMs?: number
}

/**
 * Standalone-mode rule: when the last user message matches, play `reply`. `contains` is a
 * case-insensitive substring; `regex` a JavaScript regular expression (with optional `flags`).
 * `times` limits how often the rule fires (default: always).
 */
export interface ScriptRule {
  contains?: string
  regex?: string
  flags?: string
  times?: number
  /**
   * Which requests the rule applies to: `user` (default) when the conversation ends with a user
   * message (a new turn), `tool` when it ends with a tool result (the same turn continuing), or `any`.
   * The default keeps a tool-calling rule from firing again on its own tool result and looping.
   */
  after?: 'user' | 'tool' | 'any'
  reply: ScriptedReply
}

/** The JSON script file the CLI loads (`--script path.json`); every field is optional. */
export interface ScriptFile {
  replies?: ScriptedReply[]
  rules?: ScriptRule[]
  fallback?: ScriptedReply
  models?: string[]
  apiKey?: string
}

/** The request body as the client sent it (the server accepts unknown fields). */
export type ChatRequestBody = ChatCompletionCreateParams & Record<string, unknown>

/** How a request ended, as the server saw it. */
export type RequestOutcome = 'completed' | 'http-error' | 'cut' | 'client-disconnected'

/** Where a chat reply came from. */
export type ReplySource = 'queue' | 'respond' | 'rule' | 'fallback' | 'echo' | 'none'

export interface RecordedRequest {
  /** 1-based position among all requests this server received. */
  index: number
  method: string
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string
  headers: Record<string, string | string[] | undefined>
  /** Parsed JSON body; `undefined` when there was no body or it was not JSON (see `rawBody`). */
  body: unknown
  rawBody: string
  /** `Date.now()` when the body had been read. */
  time: number
  /** HTTP status sent (or about to be sent); 0 while a hang never answered. */
  status: number
  /** Resolves when the response is over, however it ended. */
  settled: Promise<RequestOutcome>
}

export interface RecordedChatRequest extends RecordedRequest {
  body: ChatRequestBody
  /** Which script source produced the reply (`none` when auth or validation rejected the request). */
  servedBy: ReplySource
}

/** Decides a reply from the request; `undefined` falls through to rules, fallback, then echo. */
export type RespondFunction = (request: RecordedChatRequest) => ScriptedReply | undefined | Promise<ScriptedReply | undefined>

/** How `/v1/embeddings` answers (see embeddings.ts). */
export interface EmbeddingsOptions {
  /** Vector size when the request names none (default 64); a request's `dimensions` wins. */
  dimensions?: number
  /** When given, other models get a 404 `model_not_found`. */
  models?: string[]
  /** Inputs longer than this get a 400, as a model's context limit would. */
  maxInputChars?: number
  /** Answer at the default size whatever `dimensions` asks (a model that cannot shorten its vectors). */
  ignoreDimensions?: boolean
  /**
   * Words this model takes for one meaning (`{ ship: 'deploy', app: 'service' }`): each is hashed as the
   * word it maps to, so a test can stand for a model that knows two words mean the same thing.
   */
  concepts?: Record<string, string>
  /** Wait this long before answering (a slow embedding server). */
  delayMs?: number
}

/** One scripted failure of an embeddings request, taken in order before any vector is served. */
export interface EmbeddingFault {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

export interface ScriptedServerOptions {
  /** How `POST /v1/embeddings` answers. */
  embeddings?: EmbeddingsOptions
  /** Played first, in order, one per chat request. */
  replies?: ScriptedReply[]
  respond?: RespondFunction
  rules?: ScriptRule[]
  /** Played when the queue, `respond` and rules give nothing. */
  fallback?: ScriptedReply
  /** When nothing is scripted for a request, answer 500 instead of the echo text (catches surprise calls). */
  strict?: boolean
  /** Served by `/v1/models`; when given, other models get a 404 `model_not_found`. */
  models?: string[]
  /** When given, requests must send `Authorization: Bearer <apiKey>`. */
  apiKey?: string
  host?: string
  /** 0 (default) picks a free port. */
  port?: number
  /** Receives one short line per request (the CLI prints them on stderr). */
  log?: (line: string) => void
}

export interface ScriptedServer {
  /** Base URL for the SDK, ending in `/v1`. */
  url: string
  port: number
  /** Every request received, in arrival order. */
  requests: RecordedRequest[]
  enqueue(...replies: ScriptedReply[]): void
  /** The next embeddings requests fail with these, one each, in order. */
  failEmbeddings(...faults: EmbeddingFault[]): void
  /** Embeddings requests received so far. */
  embeddingRequests(): RecordedRequest[]
  /** Replies still waiting in the queue. */
  remainingReplies(): number
  lastRequest(): RecordedRequest | undefined
  chatRequests(): RecordedChatRequest[]
  lastChatRequest(): RecordedChatRequest | undefined
  /** Resolves once `count` requests (of any kind) have arrived; rejects after `timeoutMs` (default 5000). */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>
  /** Resolves once `count` chat-completion requests have arrived; rejects after `timeoutMs` (default 5000). */
  waitForChatRequests(count: number, timeoutMs?: number): Promise<RecordedChatRequest[]>
  /** Stops listening and drops open connections (ending any hang). */
  close(): Promise<void>
}

/**
 * The scripted OpenAI-compatible HTTP server. Routes `/v1/chat/completions`, `/v1/embeddings` and `/v1/models`,
 * checks the optional API key, records every request for assertions (and lets a test await the
 * N-th one), and shuts down cleanly even while requests hang or stream.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { answerChat, type ChatContext } from './chat'
import { answerEmbeddings, embeddingsPath, type EmbeddingsContext } from './embeddings'
import { openAiError, readBody, sendJson, sleep } from './http'
import { ReplyScript } from './script'
import type {
  ChatRequestBody,
  RecordedChatRequest,
  RecordedRequest,
  RequestOutcome,
  ScriptedReply,
  ScriptedServer,
  ScriptedServerOptions
} from './types'
import { PromptCache } from './usage'

export const chatCompletionsPath = '/v1/chat/completions'
const defaultModels = ['scripted']
const defaultWaitMs = 5000

export function isChatRequest(request: RecordedRequest): request is RecordedChatRequest {
  return request.method === 'POST' && request.path === chatCompletionsPath && 'servedBy' in request
}

function parseJson(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The 401 OpenAI sends for a missing or wrong key, or undefined when the key is right. */
function authFailure(req: IncomingMessage, apiKey: string | undefined): ReturnType<typeof openAiError> | undefined {
  if (apiKey === undefined) return undefined
  const header = req.headers.authorization
  if (!header) {
    return openAiError(
      "You didn't provide an API key. Send it as 'Authorization: Bearer <key>' (this scripted server expects the configured apiKey).",
      'invalid_request_error',
      'invalid_api_key'
    )
  }
  if (header === `Bearer ${apiKey}`) return undefined
  const sent = header.replace(/^Bearer\s+/i, '')
  return openAiError(
    `Incorrect API key provided: ${sent.slice(0, 4)}***. Use the apiKey this scripted server was started with.`,
    'invalid_request_error',
    'invalid_api_key'
  )
}

export async function startScriptedServer(options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const script = new ReplyScript(options)
  const log = options.log ?? (() => {})
  const models = options.models ?? defaultModels
  const startedAt = Math.floor(Date.now() / 1000)
  const requests: RecordedRequest[] = []
  const listeners = new Set<() => void>()
  let toolCallCount = 0
  let completionCount = 0

  const embeddings: EmbeddingsContext = { options: options.embeddings ?? {}, faults: [] }
  const chat: ChatContext = {
    script,
    cache: new PromptCache(),
    models: options.models,
    nextToolCallId: () => `call_scripted_${++toolCallCount}`,
    nextCompletionId: () => `chatcmpl-scripted-${++completionCount}`,
    log
  }

  function record(req: IncomingMessage, path: string, rawBody: string): { entry: RecordedRequest; settle: (outcome: RequestOutcome) => void } {
    let settle: (outcome: RequestOutcome) => void = () => {}
    const settled = new Promise<RequestOutcome>((resolve) => (settle = resolve))
    const body = parseJson(rawBody)
    const entry: RecordedRequest = {
      index: requests.length + 1,
      method: req.method ?? 'GET',
      path,
      headers: { ...req.headers },
      body,
      rawBody,
      time: Date.now(),
      status: 0,
      settled
    }
    const isChat = entry.method === 'POST' && path === chatCompletionsPath && body !== null && typeof body === 'object' && !Array.isArray(body)
    if (isChat) (entry as RecordedChatRequest).servedBy = 'none'
    requests.push(entry)
    for (const listener of [...listeners]) listener()
    return { entry, settle }
  }

  function sendModels(res: ServerResponse, entry: RecordedRequest, id?: string): RequestOutcome {
    const model = (name: string): Record<string, unknown> => ({ id: name, object: 'model', created: startedAt, owned_by: 'cairn-scripted' })
    if (id === undefined) {
      entry.status = 200
      sendJson(res, 200, { object: 'list', data: models.map(model) })
      return 'completed'
    }
    if (models.includes(id)) {
      entry.status = 200
      sendJson(res, 200, model(id))
      return 'completed'
    }
    entry.status = 404
    sendJson(res, 404, openAiError(`The model \`${id}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found'))
    return 'http-error'
  }

  async function route(req: IncomingMessage, res: ServerResponse, entry: RecordedRequest, signal: AbortSignal): Promise<RequestOutcome> {
    const fail = (status: number, body: unknown): RequestOutcome => {
      entry.status = status
      sendJson(res, status, body)
      return 'http-error'
    }
    const denied = authFailure(req, options.apiKey)
    if (denied) return fail(401, denied)
    if (entry.method === 'GET' && entry.path === '/v1/models') return sendModels(res, entry)
    if (entry.method === 'GET' && entry.path.startsWith('/v1/models/')) {
      return sendModels(res, entry, decodeURIComponent(entry.path.slice('/v1/models/'.length)))
    }
    if (entry.method === 'POST' && entry.path === embeddingsPath) {
      if (embeddings.options.delayMs && !(await sleep(embeddings.options.delayMs, signal))) return 'client-disconnected'
      return answerEmbeddings(entry, res, embeddings)
    }
    if (entry.method === 'POST' && entry.path === chatCompletionsPath) {
      if (!isChatRequest(entry)) {
        return fail(400, openAiError('The request body is not a JSON object. Send a chat-completions request as JSON.', 'invalid_request_error'))
      }
      return answerChat(entry, res, signal, chat)
    }
    return fail(
      404,
      openAiError(
        `Unknown request URL: ${entry.method} ${entry.path}. This scripted server serves POST ${chatCompletionsPath}, POST ${embeddingsPath} and GET /v1/models.`,
        'invalid_request_error',
        'unknown_url'
      )
    )
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const disconnected = new AbortController()
    res.on('close', () => {
      if (!res.writableFinished) disconnected.abort()
    })
    const rawBody = await readBody(req)
    const path = new URL(req.url ?? '/', 'http://scripted').pathname.replace(/\/+$/, '') || '/'
    const { entry, settle } = record(req, path, rawBody)
    let outcome: RequestOutcome
    try {
      outcome = await route(req, res, entry, disconnected.signal)
    } catch (error) {
      const message = `(scripted) Internal error in the scripted server: ${(error as Error).message}`
      log(`#${entry.index} ${message}`)
      if (!res.headersSent) {
        entry.status = 500
        sendJson(res, 500, openAiError(message, 'server_error'))
      } else {
        res.destroy()
      }
      outcome = 'http-error'
    }
    // Answered chat requests were already logged with their reply; add how anything else ended.
    const answeredChat = isChatRequest(entry) && entry.servedBy !== 'none'
    if (!answeredChat || outcome !== 'completed') {
      log(`#${entry.index} ${entry.method} ${entry.path} → ${entry.status ? `${entry.status} ` : ''}${outcome}`)
    }
    settle(outcome)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      log(`request failed before it was recorded: ${error.message}`)
      res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address

  function waitFor<T>(ready: () => T | undefined, timeoutMs: number, describe: () => string): Promise<T> {
    const now = ready()
    if (now !== undefined) return Promise.resolve(now)
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const value = ready()
        if (value === undefined) return
        cleanup()
        resolve(value)
      }
      const timer = setTimeout(() => {
        cleanup()
        reject(new Error(describe()))
      }, timeoutMs)
      const cleanup = (): void => {
        clearTimeout(timer)
        listeners.delete(check)
      }
      listeners.add(check)
    })
  }

  const seen = (): string => requests.map((entry) => `${entry.method} ${entry.path}`).join(', ') || 'none'
  const chatRequests = (): RecordedChatRequest[] => requests.filter(isChatRequest)

  return {
    url: `http://${host}:${address.port}/v1`,
    port: address.port,
    requests,
    enqueue: (...replies: ScriptedReply[]) => script.enqueue(...replies),
    failEmbeddings: (...faults) => embeddings.faults.push(...faults),
    embeddingRequests: () => requests.filter((entry) => entry.method === 'POST' && entry.path === embeddingsPath),
    remainingReplies: () => script.remaining(),
    lastRequest: () => requests.at(-1),
    chatRequests,
    lastChatRequest: () => chatRequests().at(-1),
    waitForRequests: (count, timeoutMs = defaultWaitMs) =>
      waitFor(
        () => (requests.length >= count ? requests.slice(0, count) : undefined),
        timeoutMs,
        () => `Expected ${count} request${count === 1 ? '' : 's'} within ${timeoutMs} ms but got ${requests.length} (${seen()}).`
      ),
    waitForChatRequests: (count, timeoutMs = defaultWaitMs) =>
      waitFor(
        () => {
          const chats = chatRequests()
          return chats.length >= count ? chats.slice(0, count) : undefined
        },
        timeoutMs,
        () => `Expected ${count} chat request${count === 1 ? '' : 's'} within ${timeoutMs} ms but got ${chatRequests().length} (all requests: ${seen()}).`
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Ends hangs, slow replies and idle keep-alive sockets so close() never waits on a client.
        server.closeAllConnections()
      })
  }
}

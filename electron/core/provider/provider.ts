import OpenAI from 'openai'
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import { ProviderError, StreamCutError, toProviderError } from './provider-errors'
import { providerProblem, type ProviderSettings } from './provider-settings'
import { backoffMs, sleep } from './retry-wait'

export interface ModelToolCall {
  id: string
  name: string
  /** Raw JSON text as the model produced it (may be invalid; the agent reports that back). */
  arguments: string
}

export interface TokenUsage {
  promptTokens: number
  completionTokens: number
  cachedTokens: number
}

export interface ChatResult {
  content: string
  toolCalls: ModelToolCall[]
  finishReason: string | null
  usage: TokenUsage | null
}

export interface RetryNotice {
  attempt: number
  delayMs: number
  reason: string
  /** Text already streamed for this attempt is void: the next attempt starts over. */
  discardPartial: boolean
}

export interface ChatRequest {
  messages: ChatCompletionMessageParam[]
  tools?: ChatCompletionTool[]
  signal?: AbortSignal
  maxTokens?: number
  onTextDelta?: (text: string) => void
  onRetry?: (notice: RetryNotice) => void
}

const MAX_RETRY_DELAY_MS = 60_000

/** Whether any message holds an image part (only then may a refusal be read as one of images). */
export function carriesImages(messages: ChatCompletionMessageParam[]): boolean {
  return messages.some((message) => Array.isArray(message.content) && message.content.some((part) => part.type === 'image_url'))
}

/**
 * One OpenAI-compatible endpoint. Streams answers with tool calls, retries 429/5xx/network failures
 * with backoff (honouring Retry-After), and turns every failure into a {@link ProviderError} a user can act on.
 */
export class ChatProvider {
  private readonly client: OpenAI

  constructor(readonly settings: ProviderSettings) {
    this.client = new OpenAI({
      // No key (a local server): no Authorization header at all, so no stand-in key can reach a server
      // and come back quoted in its error. The SDK insists on some key, and never sends this one.
      apiKey: settings.apiKey || 'unused',
      ...(settings.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      baseURL: settings.baseURL,
      maxRetries: 0, // retries are ours, so they can be reported as progress
      timeout: settings.requestTimeoutMs,
      dangerouslyAllowBrowser: false
    })
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    const problem = providerProblem(this.settings)
    if (problem) throw new ProviderError('not_configured', problem, false)
    let attempt = 0
    for (;;) {
      let streamed = false
      try {
        return await this.streamOnce(request, () => {
          streamed = true
        })
      } catch (raw) {
        const error = toProviderError(raw, this.settings.baseURL, this.settings.model, this.settings.requestTimeoutMs, { images: carriesImages(request.messages) })
        if (error.code === 'cancelled' || request.signal?.aborted) throw new ProviderError('cancelled', 'Cancelled.', false)
        if (!error.retryable || attempt >= this.settings.maxRetries) {
          throw attempt > 0 ? withAttempts(error, attempt + 1) : error
        }
        attempt++
        const delayMs = Math.min(MAX_RETRY_DELAY_MS, error.retryAfterMs ?? backoffMs(attempt))
        request.onRetry?.({ attempt, delayMs, reason: error.message, discardPartial: streamed })
        await sleep(delayMs, request.signal)
      }
    }
  }

  /** Model ids from `/models`, for the settings picker. */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    try {
      const ids: string[] = []
      for await (const model of this.client.models.list({ signal })) ids.push(model.id)
      return ids.sort()
    } catch (error) {
      throw toProviderError(error, this.settings.baseURL, this.settings.model, this.settings.requestTimeoutMs)
    }
  }

  private async streamOnce(request: ChatRequest, onFirstText: () => void): Promise<ChatResult> {
    // The SDK timeout covers the wait for headers; this idle timer covers a stream that stalls.
    const idle = new AbortController()
    let idleTimedOut = false
    let receivedAny = false
    let timer: NodeJS.Timeout | undefined
    const armIdle = () => {
      clearTimeout(timer)
      timer = setTimeout(() => {
        idleTimedOut = true
        idle.abort()
      }, this.settings.requestTimeoutMs)
    }
    const signal = request.signal ? AbortSignal.any([request.signal, idle.signal]) : idle.signal
    armIdle()
    try {
      const stream = await this.client.chat.completions.create(
        {
          model: this.settings.model,
          messages: request.messages,
          tools: request.tools?.length ? request.tools : undefined,
          max_tokens: request.maxTokens,
          stream: true,
          stream_options: { include_usage: true }
        },
        { signal }
      )
      let content = ''
      let finishReason: string | null = null
      let usage: TokenUsage | null = null
      const calls = new Map<number, ModelToolCall>()
      for await (const chunk of stream) {
        receivedAny = true
        armIdle()
        if (chunk.usage) {
          usage = {
            promptTokens: chunk.usage.prompt_tokens ?? 0,
            completionTokens: chunk.usage.completion_tokens ?? 0,
            cachedTokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0
          }
        }
        const choice = chunk.choices?.[0]
        if (!choice) continue
        const delta = choice.delta
        if (delta?.content) {
          if (!content) onFirstText()
          content += delta.content
          request.onTextDelta?.(delta.content)
        }
        for (const part of delta?.tool_calls ?? []) {
          const call = calls.get(part.index) ?? { id: '', name: '', arguments: '' }
          if (part.id) call.id = part.id
          if (part.function?.name) call.name += part.function.name
          if (part.function?.arguments) call.arguments += part.function.arguments
          calls.set(part.index, call)
        }
        if (choice.finish_reason) finishReason = choice.finish_reason
      }
      // Every complete stream ends with a finish reason; without one the connection was cut.
      if (!finishReason) throw new StreamCutError()
      const toolCalls = [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, call]) => ({ ...call, id: call.id || `call_${index}_${Date.now().toString(36)}` }))
      return { content, toolCalls, finishReason, usage }
    } catch (error) {
      if (idleTimedOut && !request.signal?.aborted) {
        const seconds = Math.round(this.settings.requestTimeoutMs / 1000)
        const message = receivedAny
          ? `${this.settings.baseURL} stopped sending in the middle of the answer for ${seconds} s.`
          : `No response from ${this.settings.baseURL} within ${seconds} s.`
        throw new ProviderError('timeout', message, true)
      }
      throw error
    } finally {
      clearTimeout(timer)
    }
  }
}

function withAttempts(error: ProviderError, attempts: number): ProviderError {
  return new ProviderError(error.code, `${error.message} Gave up after ${attempts} attempts.`, false, error.status, undefined, error.params)
}

/** A provider given as is, or made when needed (settings changed in between apply). */
export function resolveProvider(provider: ChatProvider | (() => ChatProvider)): ChatProvider {
  return typeof provider === 'function' ? provider() : provider
}

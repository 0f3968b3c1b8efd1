/**
 * Token accounting the way a provider reports it, cheaply estimated: 1 token ≈ 4 characters.
 * `cached_tokens` imitates a provider prefix cache: the longest prefix this prompt shares with any
 * earlier prompt. The prompt is serialised tools first, then messages (the order provider caches see),
 * so a changed system prompt leaves only the tool list cached, while identical history keeps it warm.
 */
import type { ChatRequestBody, Usage, UsageOverride } from './types'

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4)
}

/** The request's prompt as text, in the order the client sent it. */
/** Tools first, then messages: the order provider prefix caches see them in (tool definitions lead the prompt). */
export function serialisePrompt(body: Pick<ChatRequestBody, 'messages' | 'tools'>): string {
  const messages = JSON.stringify(body.messages ?? [])
  return body.tools === undefined ? messages : JSON.stringify(body.tools) + messages
}

export function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length)
  let i = 0
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

export interface PromptMeasure {
  promptTokens: number
  cachedTokens: number
}

/** Remembers every prompt seen by one server to report prefix-cache hits. */
export class PromptCache {
  private readonly seen = new Set<string>()

  /** Measures `prompt` against all earlier prompts, then remembers it. */
  measure(prompt: string): PromptMeasure {
    let longest = 0
    for (const earlier of this.seen) {
      longest = Math.max(longest, commonPrefixLength(prompt, earlier))
      if (longest === prompt.length) break
    }
    this.seen.add(prompt)
    return { promptTokens: estimateTokens(prompt.length), cachedTokens: Math.floor(longest / 4) }
  }
}

export function buildUsage(measure: PromptMeasure, completionTokens: number, override: UsageOverride = {}): Usage {
  const prompt = override.prompt_tokens ?? measure.promptTokens
  const completion = override.completion_tokens ?? completionTokens
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: override.total_tokens ?? prompt + completion,
    prompt_tokens_details: { cached_tokens: override.cached_tokens ?? Math.min(measure.cachedTokens, prompt) }
  }
}

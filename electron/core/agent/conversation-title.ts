import type { ChatProvider } from '../provider/provider'
import { cutMiddle, ellipsize } from '../text/cut'

/** The first words of the title request's instructions (tests and the demo tell title requests apart by them). */
export const TITLE_PROMPT_START = 'Name this conversation.'

const TITLE_INSTRUCTIONS = `${TITLE_PROMPT_START} Write a short title (at most six words) for the conversation below, in the language the user wrote in. No quotes, no trailing full stop, no "Title:" label. Reply with the title only.`

/** Longest title kept; longer replies are cut. */
export const MAX_TITLE_CHARS = 60

/** The first exchange of a conversation, what its title is made from. */
export interface FirstExchange {
  user: string
  answer: string
}

/**
 * Asks the model for a short title of the first exchange. Returns null when the reply has nothing
 * usable (the conversation keeps its first words as title); throws ProviderError when the call fails.
 */
export async function suggestTitle(provider: ChatProvider, exchange: FirstExchange, signal?: AbortSignal): Promise<string | null> {
  const result = await provider.chat({
    messages: [
      { role: 'system', content: TITLE_INSTRUCTIONS },
      { role: 'user', content: `User: ${cutMiddle(exchange.user, 1500)}\n\nAssistant: ${cutMiddle(exchange.answer, 1500)}` }
    ],
    maxTokens: 40,
    signal
  })
  return cleanTitle(result.content)
}

/** A model's title reply as a title: its first line, without labels, quotes, heading marks or a final full stop. */
export function cleanTitle(reply: string): string | null {
  const line = reply.split('\n').map((part) => part.trim()).find(Boolean) ?? ''
  const bare = line
    .replace(/^(title|标题)\s*[:：]\s*/i, '')
    .replace(/^#+\s*/, '')
    .replace(/^\*\*(.*)\*\*$/, '$1')
    .replace(/[.。!！]+$/, '')
    .replace(/^["'“”‘’「」『』《》]+|["'“”‘’「」『』《》]+$/g, '')
    .replace(/[.。!！]+$/, '')
    .trim()
  return bare ? ellipsize(bare, MAX_TITLE_CHARS) : null
}

import type { ChatProvider } from '../provider/provider'
import type { MessageRecord } from '../sessions'
import type { ToolDef } from '../tools/types'
import type { ConversationStores } from './agent-stores'
import type { SkillHinter } from './skill-hints'
import type { TurnSummary } from './turn'
import type { TurnRecall } from './turn-notes'

export interface CompressionEvent {
  sessionId: string
  /** The messages about to be summarised away (a review reads them first so nothing is lost). */
  messages: MessageRecord[]
}

export interface AgentHooks {
  onTurnFinished?(summary: TurnSummary): void
  beforeCompression?(event: CompressionEvent): void | Promise<void>
}

export interface AgentSessionOptions {
  stores: ConversationStores
  /** The provider for the next model call: resolved per turn, so a changed key, model or URL applies at once. */
  provider: ChatProvider | (() => ChatProvider)
  tools: ToolDef[]
  workspace: string
  /** Resume this session instead of starting a new one. */
  sessionId?: string
  source?: string
  autoApprove?: boolean
  hooks?: AgentHooks
  /** Picks the skills hinted on each message (by meaning when an embedding model is set); default: by words. */
  hinter?: SkillHinter
  /** Built by `createIncognitoSession` only: in-memory stores, no hooks; nothing that remembers may see its turns. */
  incognito?: boolean
  recall?: TurnRecall // recalls for each message, is sent each finished turn; without it (incognito) no provider is reached
}

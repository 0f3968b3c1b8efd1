import type { Honcho, Peer } from '@honcho-ai/sdk'
import { matchesStrongly, recallTerms } from './strong-match'
import type { MemoryProvider, RecallHit, RecallQuery, SyncedTurn } from './types'

export interface HonchoSettings {
  apiKey: string | null
  /** Empty: Honcho's hosted service. */
  baseURL: string
  workspaceId: string
  /** The peer the user's messages are sent as; the answers go as `cairn`. */
  peerId: string
  timeoutMs?: number
}

const ASSISTANT_PEER = 'cairn'
/** The metadata key of a session's (and its messages') workspace project. */
export const PROJECT_KEY = 'cairnProject'
const CANDIDATES = 20
const MAX_RECALLED = 3

/**
 * Honcho as a memory provider: each conversation is a Honcho session of the user's peer and Cairn's,
 * each finished turn its two messages; recall searches the workspace for the user's own words from
 * other conversations that match the message strongly, of the same workspace project or of none (each
 * session and its messages carry the project key in their metadata). Honcho forgets by session, not
 * by message, so `forget` cannot.
 */
export class HonchoProvider implements MemoryProvider {
  readonly name = 'honcho' as const
  private client: Promise<Honcho> | null = null
  private peers: Promise<{ user: Peer; assistant: Peer }> | null = null

  constructor(private readonly settings: HonchoSettings) {}

  async recall(query: string, options: RecallQuery): Promise<RecallHit[]> {
    const terms = recallTerms(query)
    if (terms.size < 2) return []
    const { peerId } = this.settings
    const found = await (await this.open()).search(query, { limit: CANDIDATES })
    return found
      .filter((message) => message.peerId === peerId && message.sessionId !== options.sessionId && sameProject(message.metadata, options.projectKey) && matchesStrongly(terms, message.content))
      .slice(0, MAX_RECALLED)
      .map((message, index) => ({ provider: 'honcho' as const, id: message.id, text: message.content, score: CANDIDATES - index }))
  }

  async search(query: string, options: { limit: number }): Promise<RecallHit[]> {
    const found = await (await this.open()).search(query, { limit: options.limit })
    return found.map((message, index) => ({ provider: 'honcho' as const, id: message.id, text: message.content, score: options.limit - index }))
  }

  async syncTurn(turn: SyncedTurn): Promise<void> {
    const honcho = await this.open()
    const { user, assistant } = await this.openPeers(honcho)
    const project = turn.projectKey ? { [PROJECT_KEY]: turn.projectKey } : null
    const session = await honcho.session(turn.sessionId, project ? { metadata: project } : undefined)
    const options = project ? { metadata: project } : undefined
    await session.addMessages([user.message(turn.userText, options), assistant.message(turn.answer, options)])
  }

  async prepare(): Promise<void> {
    await this.openPeers(await this.open())
  }

  async forget(): Promise<boolean> {
    return false
  }

  async shutdown(): Promise<void> {
    this.client = null
    this.peers = null
  }

  private open(): Promise<Honcho> {
    this.client ??= import('@honcho-ai/sdk').then(({ Honcho }) => {
      const { apiKey, baseURL, workspaceId, timeoutMs } = this.settings
      return new Honcho({ apiKey: apiKey ?? undefined, baseURL: baseURL || 'https://api.honcho.dev', workspaceId, timeout: timeoutMs ?? 15_000, maxRetries: 0 })
    })
    return this.client
  }

  private openPeers(honcho: Honcho): Promise<{ user: Peer; assistant: Peer }> {
    this.peers ??= Promise.all([honcho.peer(this.settings.peerId), honcho.peer(ASSISTANT_PEER)])
      .then(([user, assistant]) => ({ user, assistant }))
      .catch((error: unknown) => {
        this.peers = null
        throw error
      })
    return this.peers
  }
}

/** Whether a message belongs to the conversation's project, or to none (those stay global). */
function sameProject(metadata: Record<string, unknown> | undefined, projectKey: string | null | undefined): boolean {
  const project = metadata?.[PROJECT_KEY]
  return typeof project !== 'string' || project === projectKey
}

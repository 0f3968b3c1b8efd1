import type { ImportHome } from './import-home'
import type { NewMessage } from '../sessions/types'
import type { ImportCounts } from './types'

/** One conversation from another app, ready to become a Cairn session. Times are epoch milliseconds. */
export interface ImportedConversation {
  /** Its id where it came from: importing it again adds nothing. */
  externalId: string
  title: string | null
  /** The model that answered where it came from: recorded on each answer that names none, never the session's (see `write`). */
  model: string | null
  startedAt: number | null
  endedAt: number | null
  messages: NewMessage[]
  /** The Cairn session it continues (Hermes's compression chains). */
  parentSessionId?: string | null
  /** Positions in `messages` that were summarised away where it came from: kept, marked compacted. */
  compacted?: ReadonlySet<number>
}

/**
 * Writes imported conversations as sessions with the source `import:<app>` (which learning never
 * reviews), attributed to their batch by `import_id` and recognised again by `external_id`. The
 * session keeps no model: the user goes on with it on their own (the answers name the other app's).
 * With no batch (a dry run) it only counts. Shared by every importer so a batch is undone the same way.
 */
export class ImportedSessionWriter {
  private readonly known
  private readonly mark

  constructor(
    private readonly core: ImportHome,
    private readonly source: string,
    private readonly importId: number | null,
    private readonly counts: ImportCounts
  ) {
    this.known = core.db.prepare('SELECT id FROM sessions WHERE source = ? AND external_id = ?')
    this.mark = core.db.prepare(
      `UPDATE sessions SET import_id = @importId, external_id = @externalId, updated_at = max(updated_at, coalesce(@endedAt, updated_at)) WHERE id = @id`
    )
  }

  /** The Cairn session an earlier import made of this conversation, if any. */
  existing(externalId: string): string | undefined {
    return (this.known.get(this.source, externalId) as { id: string } | undefined)?.id
  }

  /**
   * Writes one conversation in its own transaction (a savepoint when the caller holds one, so a
   * failing conversation takes nothing else with it). Returns the new session's id, or null on a dry run.
   */
  write(conversation: ImportedConversation): string | null {
    if (this.importId === null) {
      this.counted(conversation)
      return null
    }
    const startedAt = conversation.startedAt ?? conversation.messages[0]?.createdAt ?? Date.now()
    const id = this.core.db.transaction(() => {
      // No model of its own: going on with it here answers with the user's model, not one the other app had.
      const created = this.core.sessions.create({ title: conversation.title, source: this.source, model: null, parentSessionId: conversation.parentSessionId ?? null, startedAt })
      const records = this.core.sessions.appendMany(created.id, importedMessages(conversation, this.app))
      const compacted = conversation.compacted
      const compactedIds = compacted ? records.filter((_, position) => compacted.has(position)).map((record) => record.id) : []
      if (compactedIds.length) this.core.sessions.markCompacted(created.id, compactedIds)
      this.mark.run({ importId: this.importId, externalId: conversation.externalId, id: created.id, endedAt: conversation.endedAt })
      return created.id
    })()
    this.counted(conversation)
    return id
  }

  /** `import:chatgpt` → `chatgpt`. */
  private get app(): string {
    return this.source.slice('import:'.length)
  }

  private counted(conversation: ImportedConversation): void {
    this.counts.sessions.added++
    this.counts.sessions.messages += conversation.messages.length
  }
}

/**
 * The messages as stored: each marked with the app it came from (`meta.importedFrom`), and each answer
 * with the model that wrote it (`meta.model`: its own, else the conversation's), so an answer can say
 * "ChatGPT · o3" while the conversation goes on with the user's model.
 */
function importedMessages(conversation: ImportedConversation, app: string): NewMessage[] {
  return conversation.messages.map((message) => {
    const model = message.role === 'assistant' ? (stringOf(message.meta?.model) ?? conversation.model) : null
    return { ...message, meta: { ...message.meta, importedFrom: app, ...(model ? { model } : {}) } }
  })
}

function stringOf(value: unknown): string | null {
  return typeof value === 'string' && value ? value : null
}

/** The app an imported message came from (`chatgpt`, `hermes`…), or null for Cairn's own. */
export function importedFromOf(meta: Record<string, unknown> | null | undefined): string | null {
  return stringOf(meta?.importedFrom)
}

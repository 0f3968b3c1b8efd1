import type { ImportHome } from './import-home'
import type { NewMessage } from '../sessions/types'
import type { ImportCounts } from './types'

/** One conversation from another app, ready to become a Cairn session. Times are epoch milliseconds. */
export interface ImportedConversation {
  /** Its id where it came from: importing it again adds nothing. */
  externalId: string
  title: string | null
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
 * reviews), attributed to their batch by `import_id` and recognised again by `external_id`.
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
      const created = this.core.sessions.create({
        title: conversation.title,
        source: this.source,
        model: conversation.model,
        parentSessionId: conversation.parentSessionId ?? null,
        startedAt
      })
      const records = this.core.sessions.appendMany(created.id, conversation.messages)
      const compacted = conversation.compacted
      const compactedIds = compacted ? records.filter((_, position) => compacted.has(position)).map((record) => record.id) : []
      if (compactedIds.length) this.core.sessions.markCompacted(created.id, compactedIds)
      this.mark.run({ importId: this.importId, externalId: conversation.externalId, id: created.id, endedAt: conversation.endedAt })
      return created.id
    })()
    this.counted(conversation)
    return id
  }

  private counted(conversation: ImportedConversation): void {
    this.counts.sessions.added++
    this.counts.sessions.messages += conversation.messages.length
  }
}

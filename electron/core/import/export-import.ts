import { resolve } from 'node:path'
import type { ImportHome } from './import-home'
import { convertChatGptConversation, MalformedConversationError } from './chatgpt-conversations'
import { convertClaudeConversation } from './claude-conversations'
import { ExportJsonError, locateExport, streamArrayElements } from './export-file'
import { ImportBatches } from './import-batches'
import { ImportedSessionWriter, type ImportedConversation } from './imported-sessions'
import { emptyCounts, importedSessionSource, nothingNew, type ImportProblem, type ImportProgress, type ImportReport } from './types'

/** The chat apps whose data exports Cairn reads. */
export type ChatExportApp = 'chatgpt' | 'claude'

const APPS: Record<ChatExportApp, { name: string; convert: (raw: unknown) => ImportedConversation }> = {
  chatgpt: { name: 'ChatGPT', convert: convertChatGptConversation },
  claude: { name: 'Claude.ai', convert: convertClaudeConversation }
}

/** Conversations written per transaction: few enough to keep memory flat, enough to keep SQLite fast. */
const WRITE_BATCH = 250

export interface ChatExportImportOptions {
  app: ChatExportApp
  /** The export's `conversations.json`, its folder, or (ChatGPT's, Claude's) `.zip`. */
  path: string
  /** Report what would come in; write nothing (not even the batch row). */
  dryRun?: boolean
  onProgress?: (progress: ImportProgress) => void
}

/**
 * Brings a ChatGPT or Claude.ai data export in as one batch of searchable sessions (source
 * `import:chatgpt` / `import:claude`, never reviewed until the user asks). The file is read as a
 * stream, conversation by conversation, and written a few hundred at a time. A conversation imported
 * before (same id) is left as it is, even when the newer export holds more of it: undo the earlier
 * import to take the newer one whole. A malformed conversation is reported by position and id and
 * skipped; invalid JSON stops the reading where it is, keeping what came before.
 */
export async function importChatExport(core: ImportHome, options: ChatExportImportOptions): Promise<ImportReport> {
  const app = APPS[options.app]
  const path = resolve(options.path)
  const location = locateExport(path, app.name)
  const opened = await location.open()
  const dryRun = options.dryRun ?? false
  const batches = new ImportBatches(core.db)
  const importId = dryRun ? null : batches.start(options.app, path)
  const counts = emptyCounts()
  const report: ImportReport = { importId, source: options.app, path, dryRun, counts, problems: [] }
  const problem = (message: string): void => void report.problems.push({ file: location.label, message } satisfies ImportProblem)
  const writer = new ImportedSessionWriter(core, importedSessionSource(options.app), importId, counts)
  const seen = new Set<string>()
  let pending: ImportedConversation[] = []
  const flush = core.db.transaction(() => {
    for (const conversation of pending) {
      try {
        writer.write(conversation)
      } catch (error) {
        problem(`conversation ${conversation.externalId} could not be imported: ${(error as Error).message}`)
      }
    }
    pending = []
  })
  let read = 0
  try {
    for await (const { index, value } of streamArrayElements(opened)) {
      read = index + 1
      options.onProgress?.({ phase: 'sessions', done: read })
      let conversation: ImportedConversation
      try {
        conversation = app.convert(value)
      } catch (error) {
        if (!(error instanceof MalformedConversationError)) throw error
        problem(`conversation ${read}${error.externalId ? ` (${error.externalId})` : ''} ${error.message}; it was skipped.`)
        continue
      }
      if (seen.has(conversation.externalId) || writer.existing(conversation.externalId)) {
        counts.sessions.existing++
        continue
      }
      seen.add(conversation.externalId)
      pending.push(conversation)
      if (pending.length >= WRITE_BATCH) flush()
    }
  } catch (error) {
    if (!(error instanceof ExportJsonError)) {
      if (pending.length) flush()
      // Whatever it wrote before failing stays undoable as a whole.
      if (importId !== null) batches.finish(importId, counts, report.problems)
      throw error
    }
    problem(`${error.message} at about byte ${error.offset}; the ${read} conversation${read === 1 ? '' : 's'} before that point ${dryRun ? 'would come' : 'came'} in, nothing after it.`)
  } finally {
    if (pending.length) flush()
  }
  options.onProgress?.({ phase: 'sessions', done: read, total: read })
  if (importId !== null && !batches.finishOrDrop(importId, counts, report.problems)) return nothingNew(report)
  return report
}

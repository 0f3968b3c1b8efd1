/** Where a batch came from: another agent's home (Hermes, an OpenClaw workspace, Claude Code's `~/.claude`) or a chat app's export. */
export type ImportSource = 'hermes' | 'chatgpt' | 'claude' | 'openclaw' | 'claude-code'

/** Something that did not come in (or came in differently), named by its file relative to the imported home. */
export interface ImportProblem {
  file: string
  /** 1-based, where a line makes sense (a memory entry's first line, a session's message id does not). */
  line?: number
  message: string
}

/** What a batch brought in (or, on a dry run, would bring in). */
export interface ImportCounts {
  memory: {
    added: number
    /** Exact or near duplicates of an entry Cairn already had (or of an earlier one in the same file). */
    duplicates: number
    /** Too much for Cairn's limit: kept in the archive (source `imported`) instead of being cut. */
    archived: number
    /** Waiting in the Inbox: every candidate entry of a source whose memories are only proposed (Claude Code's). */
    proposed: number
    /** Refused by the threat scan, or longer than the whole file may be. */
    refused: number
  }
  skills: {
    created: number
    /** A Cairn skill of that name already reads exactly so. */
    identical: number
    /** A different Cairn skill of that name: the import's version waits in the Inbox, nothing is overwritten. */
    proposed: number
    /** Supporting files written with the created skills. */
    files: number
    refused: number
    /** Created skills that kept the usage figures (views, uses, patches) their agent had counted. */
    usage: number
  }
  sessions: {
    added: number
    /** Imported before (same source and id): left as they are. */
    existing: number
    messages: number
  }
}

export function emptyCounts(): ImportCounts {
  return {
    memory: { added: 0, duplicates: 0, archived: 0, proposed: 0, refused: 0 },
    skills: { created: 0, identical: 0, proposed: 0, files: 0, refused: 0, usage: 0 },
    sessions: { added: 0, existing: 0, messages: 0 }
  }
}

/** What an import did; `importId` is null on a dry run, which changes nothing, and when nothing was new. */
export interface ImportReport {
  importId: number | null
  source: ImportSource
  path: string
  dryRun: boolean
  counts: ImportCounts
  problems: ImportProblem[]
  /** Everything there was imported before (or could not come in): no batch was kept. */
  nothingNew?: boolean
}

/** The report of a batch that brought nothing in, whose row was taken away. */
export function nothingNew(report: ImportReport): ImportReport {
  return { ...report, importId: null, nothingNew: true }
}

/** Progress of the long parts (sessions), for a progress line. */
export interface ImportProgress {
  phase: 'skills' | 'sessions'
  done: number
  /** Unknown while a streamed export is still being read. */
  total?: number
}

/** How the batch's writes are attributed: source `import`, grouped on the timeline under `import:<id>`. */
export function importReviewId(importId: number): string {
  return `import:${importId}`
}

/** The session source of conversations imported from `source` (`import:hermes`), which learning leaves alone. */
export function importedSessionSource(source: ImportSource): string {
  return `import:${source}`
}

/** Every text about the archive that the model reads (English, in the core; the faces word their own). */
export const archiveMessages = {
  overflow: (id: number, usage: string) =>
    `Memory is full (${usage} chars), so this entry was saved to the archive instead (archive id ${id}). It is not in the system prompt; memory(action='search') finds it when it matters. ` +
    'Only if it must be in every conversation: free room (replace/remove stale entries) and add it again.',
  alreadyArchived: (id: number, added: string) =>
    `Memory is full, and this entry is already in the archive word for word (archive id ${id}, added ${added}). Nothing was saved. memory(action='search') finds it.`,
  batchOverflow: (count: number, ids: readonly number[]) =>
    ` Memory is full: ${count} add(s) did not fit and were saved to the archive instead (archive ids ${ids.join(', ')}); memory(action='search') finds them.`,
  refused: (reason: string) => `Memory is full and the archive refused this entry: ${reason}`,
  searchNeedsQuery: "'search' needs query: the words to look for.",
  searchNote:
    'Core entries are already in your system prompt. Archive entries are not: use them if they help. To bring one into every conversation, add it to memory (the archive keeps its copy).',
  searchNothing: 'Nothing in memory or the archive matches. session_search finds past conversations.'
}


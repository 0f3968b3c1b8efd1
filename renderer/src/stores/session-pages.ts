import type { SessionSummary } from '../../../shared/ipc/domain'

/** How many conversations one `sessions.list` request brings into the sidebar. */
export const SESSION_PAGE_SIZE = 100

/** The server's list order: pinned first, then the latest activity, ties by id (both descending). */
export function listOrder(a: SessionSummary, b: SessionSummary): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1
  if (a.updatedAt !== b.updatedAt) return b.updatedAt - a.updatedAt
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0
}

/** What the sidebar holds of one list (the conversations, or the archived ones): its loaded pages. */
export interface LoadedPages {
  rows: SessionSummary[]
  nextCursor: string | null
}

/**
 * The first page loaded again, merged into what was loaded: rows after the fresh page's last row stay
 * (with the cursor that follows them), so a change never reloads every page. A row of the fresh page
 * is where the server says; one that left the first page's range keeps its place further down.
 */
export function mergeFirstPage(loaded: LoadedPages, fresh: LoadedPages): LoadedPages {
  const last = fresh.rows.at(-1)
  if (!last || fresh.nextCursor === null) return fresh
  const inFresh = new Set(fresh.rows.map((row) => row.id))
  const tail = loaded.rows.filter((row) => !inFresh.has(row.id) && listOrder(row, last) > 0)
  return tail.length ? { rows: [...fresh.rows, ...tail], nextCursor: loaded.nextCursor } : fresh
}

/** Puts `row` where the list order says among loaded rows, or leaves it out when it sorts past what is loaded. */
export function placeRow(loaded: LoadedPages, row: SessionSummary): LoadedPages {
  const rows = loaded.rows.filter((item) => item.id !== row.id)
  const at = rows.findIndex((item) => listOrder(row, item) < 0)
  // Past the last loaded row it belongs to a page not loaded yet (unless every page is loaded).
  if (at === -1) return { ...loaded, rows: loaded.nextCursor === null ? [...rows, row] : rows }
  rows.splice(at, 0, row)
  return { ...loaded, rows }
}

export function dropRow(loaded: LoadedPages, sessionId: string): LoadedPages {
  return { ...loaded, rows: loaded.rows.filter((row) => row.id !== sessionId) }
}

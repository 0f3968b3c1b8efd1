/**
 * Where the content of a learned change came from, decided by evidence (which words of it appear in
 * what the user said, and which only in what Cairn read), never by the model's word:
 * - `user`: the user's own words in the conversation ("remember that I use pnpm");
 * - `model`: the assistant's own reasoning (nothing distinctive in it came from what it read);
 * - `read`: something it read: a file, a web page, an MCP tool's result, a search, a command's output,
 *   an import, a sync from another device, a shared library, another agent over MCP, or memory a
 *   provider recalled into the turn.
 * Content from what was read is only ever proposed, never applied without the user. zod-free so the
 * renderer can use it; the schema is in shared/ledger.ts.
 */

export const provenanceOrigins = ['user', 'model', 'read'] as const
export type ProvenanceOrigin = (typeof provenanceOrigins)[number]

/** What kind of thing was read. */
export const readSourceKinds = ['file', 'web', 'mcp', 'search', 'command', 'attachment', 'skill', 'import', 'sync', 'shared_library', 'agent', 'tool', 'recall'] as const
export type ReadSourceKind = (typeof readSourceKinds)[number]

export interface ReadSource {
  kind: ReadSourceKind
  /** What a person recognises it by: a file's name, a page's host, `server/tool`, a command, a device. */
  label: string
  /** The tool that read it (`read_file`, `fetch_url`, an MCP tool's exposed name), when a tool did. */
  tool?: string
  /** The tool call that read it, to find it in the conversation. */
  callId?: string
}

export interface Provenance {
  origin: ProvenanceOrigin
  /** For `read`: what was read that the content came from (at most {@link MAX_PROVENANCE_SOURCES}). */
  sources?: ReadSource[]
  /**
   * For `read`: the distinctive pieces of the content found in what was read and not in what the user
   * said (an address, a command, a phrase), each cut to {@link MAX_EVIDENCE_CHARS}.
   */
  evidence?: string[]
}

export const MAX_PROVENANCE_SOURCES = 5
export const MAX_EVIDENCE_ITEMS = 3
export const MAX_EVIDENCE_CHARS = 120

/** Content the user did not say and that came from what was read: it is only ever proposed. */
export function isUntrusted(provenance: Provenance | undefined | null): boolean {
  return provenance?.origin === 'read'
}

/** A provenance read from storage or the wire, or undefined when it is not one (older rows have none). */
export function normalizeProvenance(raw: unknown): Provenance | undefined {
  if (!raw || typeof raw !== 'object') return undefined
  const value = raw as Record<string, unknown>
  if (!provenanceOrigins.includes(value.origin as ProvenanceOrigin)) return undefined
  const origin = value.origin as ProvenanceOrigin
  const sources = Array.isArray(value.sources)
    ? value.sources
        .filter((source): source is Record<string, unknown> => Boolean(source) && typeof source === 'object')
        .filter((source) => readSourceKinds.includes(source.kind as ReadSourceKind) && typeof source.label === 'string')
        .slice(0, MAX_PROVENANCE_SOURCES)
        .map(
          (source): ReadSource => ({
            kind: source.kind as ReadSourceKind,
            label: String(source.label).slice(0, 200),
            ...(typeof source.tool === 'string' && source.tool ? { tool: source.tool } : {}),
            ...(typeof source.callId === 'string' && source.callId ? { callId: source.callId } : {})
          })
        )
    : []
  const evidence = Array.isArray(value.evidence)
    ? value.evidence
        .filter((item): item is string => typeof item === 'string' && item.length > 0)
        .slice(0, MAX_EVIDENCE_ITEMS)
        .map((item) => item.slice(0, MAX_EVIDENCE_CHARS))
    : []
  return { origin, ...(sources.length ? { sources } : {}), ...(evidence.length ? { evidence } : {}) }
}

/**
 * The memory archive's vocabulary without zod (the renderer and the ledger's names use it): why an
 * entry sits in the archive below the core files.
 * - `overflow`: a write to a core file that was full;
 * - `retired`: removed from the core (by the model, curation or the user);
 * - `superseded`: the old text of a replace (kept and searchable, never recalled);
 * - `added`: written to the archive directly;
 * - `imported` / `synced`: brought in from elsewhere.
 */
export const archiveSources = ['overflow', 'retired', 'superseded', 'added', 'imported', 'synced'] as const
export type ArchiveSource = (typeof archiveSources)[number]

export function isArchiveSource(value: unknown): value is ArchiveSource {
  return typeof value === 'string' && (archiveSources as readonly string[]).includes(value)
}

/** `memories/archive/<store>`: how a ledger row names the archive of one store (state.db, not a file). */
export function archiveLedgerTarget(store: string): string {
  return `memories/archive/${store}`
}

/** The store an archive ledger target names (`memories/archive/user` → `user`), or null for any other target. */
export function storeOfArchiveTarget(target: string): string | null {
  const match = /^memories\/archive\/([a-z]+)$/.exec(target)
  return match ? match[1] : null
}

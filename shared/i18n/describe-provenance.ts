import type { ContentDanger } from '../dangers'
import type { Provenance, ReadSource } from '../provenance'
import type { MessageKey, Translate } from './index'

/** One thing that was read, as a person recognises it: "README.md, read by read_file", "a page on example.com, read by fetch_url". */
export function describeReadSource(source: ReadSource, t: Translate): string {
  if (source.kind === 'file' && !source.tool) return t('provenance.source.fileNoTool', { label: source.label })
  return t(`provenance.source.${source.kind}` as MessageKey, { label: source.label, tool: source.tool ?? '' })
}

/**
 * Where a learned change's content came from, in one line: "From what you said", "In Cairn's own
 * words", "From README.md, read by read_file" (and how many other sources); null for rows from before
 * provenance was kept.
 */
export function describeProvenance(provenance: Provenance | undefined, t: Translate): string | null {
  if (!provenance) return null
  if (provenance.origin === 'user') return t('provenance.user')
  if (provenance.origin === 'model') return t('provenance.model')
  const [first, ...rest] = provenance.sources ?? []
  if (!first) return t('provenance.read', { source: t('provenance.source.tool', { label: '?' }) })
  const source = describeReadSource(first, t)
  return rest.length ? t('provenance.readMore', { source, count: rest.length }) : t('provenance.read', { source })
}

/** The piece of the content that shows it came from what was read ("It contains “evil.example”, which you did not write."), or null. */
export function describeProvenanceEvidence(provenance: Provenance | undefined, t: Translate): string | null {
  const evidence = provenance?.origin === 'read' ? provenance.evidence?.[0] : undefined
  return evidence ? t('provenance.evidence', { evidence }) : null
}

/** What a change adds that could hurt, one line each: "Runs code fetched from the internet: curl … | sh". */
export function describeDangers(dangers: readonly ContentDanger[] | undefined, t: Translate): string[] {
  return (dangers ?? []).map((danger) => t(`danger.${danger.code}` as MessageKey, { detail: danger.detail }))
}

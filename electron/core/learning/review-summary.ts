import { isMemoryEntry, normalizeLedgerMeta, skillNameOf, type LedgerEntry, type MemoryKind } from '../../../shared/ledger'
import { emptyReviewSummary, type ReviewSummary, type SkillVerb, type StoreChanges } from '../../../shared/review-outcome'

const countOf: Record<MemoryKind, keyof StoreChanges> = { 'memory.add': 'added', 'memory.replace': 'replaced', 'memory.remove': 'removed' }

function verbOf(entry: LedgerEntry): SkillVerb {
  if (entry.kind === 'skill.create') return 'created'
  if (entry.kind === 'skill.delete') return 'deleted'
  return 'updated'
}

/**
 * What a review changed, as data the faces word for their user: entries added, replaced and removed
 * per memory file, then skills in the order they were first touched; a skill created and then
 * patched in the same review reads as created, one created and deleted again is left out.
 * No rows → `saved: false` ("Nothing to save.").
 */
export function summarizeReview(entries: LedgerEntry[]): ReviewSummary {
  const summary = emptyReviewSummary()
  const skills = new Map<string, Set<SkillVerb>>()
  for (const entry of [...entries].sort((a, b) => a.id - b.id)) {
    if (isMemoryEntry(entry)) {
      const { store } = normalizeLedgerMeta(entry.kind, entry.target, entry.meta)
      summary[store][countOf[entry.kind]] += 1
      continue
    }
    const name = skillNameOf(entry)
    const verbs = skills.get(name) ?? new Set<SkillVerb>()
    verbs.add(verbOf(entry))
    skills.set(name, verbs)
  }
  for (const [name, verbs] of skills) {
    if (verbs.has('created') && verbs.has('deleted')) continue // made and undone within one review: nothing remains
    const verb: SkillVerb = verbs.has('created') ? 'created' : verbs.has('deleted') ? 'deleted' : 'updated'
    summary.skills.push({ name, verb })
  }
  summary.saved = entries.some(isMemoryEntry) || summary.skills.length > 0
  return summary
}

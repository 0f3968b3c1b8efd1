import { isArchiveEntry, isMemoryEntry, normalizeLedgerMeta, skillNameOf, type LedgerEntry, type MemoryKind } from '../../../shared/ledger'
import {
  emptyReviewSummary,
  SUMMARY_ENTRY_CHARS,
  SUMMARY_GIST_CHARS,
  type ReviewSummary,
  type SkillVerb,
  type StoreChanges,
  type SummaryEntry,
  type SummarySkill
} from '../../../shared/review-outcome'
import { readSkillLenient } from '../skills/skill-file'
import { ellipsize } from '../text/cut'

const countOf: Record<MemoryKind, keyof StoreChanges> = { 'memory.add': 'added', 'memory.replace': 'replaced', 'memory.remove': 'removed' }

function verbOf(entry: LedgerEntry): SkillVerb {
  if (entry.kind === 'skill.create') return 'created'
  if (entry.kind === 'skill.delete') return 'deleted'
  return 'updated'
}

interface SkillTrack {
  verbs: Set<SkillVerb>
  /** SKILL.md as it was before the review's first change to it, and after its last. */
  before: string | null | undefined
  after: string | null
}

/**
 * What a review changed, as data the faces word for their user: entries added, replaced and removed
 * per memory file with their text, then skills in the order they were first touched, each with its
 * description (created) or the gist of its change (updated); a skill created and then patched in the
 * same review reads as created, one created and deleted again is left out.
 * No rows → `saved: false` ("Nothing to save.").
 */
export function summarizeReview(entries: LedgerEntry[]): ReviewSummary {
  const summary = emptyReviewSummary()
  const remembered: SummaryEntry[] = []
  const forgotten: SummaryEntry[] = []
  const skills = new Map<string, SkillTrack>()
  for (const entry of [...entries].sort((a, b) => a.id - b.id)) {
    if (isMemoryEntry(entry)) {
      const { store } = normalizeLedgerMeta(entry.kind, entry.target, entry.meta)
      const counts = store === 'project' ? (summary.project ??= { added: 0, replaced: 0, removed: 0 }) : summary[store]
      counts[countOf[entry.kind]] += 1
      if (entry.kind === 'memory.remove' && entry.before) forgotten.push({ store, text: ellipsize(entry.before, SUMMARY_ENTRY_CHARS) })
      else if (entry.after) remembered.push({ store, text: ellipsize(entry.after, SUMMARY_ENTRY_CHARS) })
      continue
    }
    if (isArchiveEntry(entry)) continue // the archive keeps what a review retired; its memory rows already say so
    const name = skillNameOf(entry)
    const track = skills.get(name) ?? { verbs: new Set<SkillVerb>(), before: undefined, after: null }
    track.verbs.add(verbOf(entry))
    if (entry.target.endsWith('/SKILL.md') && entry.kind !== 'skill.delete') {
      if (track.before === undefined) track.before = entry.before
      track.after = entry.after
    }
    skills.set(name, track)
  }
  for (const [name, track] of skills) {
    const { verbs } = track
    if (verbs.has('created') && verbs.has('deleted')) continue // made and undone within one review: nothing remains
    const verb: SkillVerb = verbs.has('created') ? 'created' : verbs.has('deleted') ? 'deleted' : 'updated'
    summary.skills.push({ name, verb, ...skillWords(verb, track) })
  }
  if (remembered.length) summary.remembered = remembered
  if (forgotten.length) summary.forgotten = forgotten
  summary.saved = entries.some(isMemoryEntry) || summary.skills.length > 0
  return summary
}

function skillWords(verb: SkillVerb, track: SkillTrack): Pick<SummarySkill, 'description' | 'gist'> {
  if (verb === 'created' && track.after) {
    const read = readSkillLenient(track.after, 'skill')
    return read.ok ? { description: ellipsize(read.description, SUMMARY_ENTRY_CHARS) } : {}
  }
  if (verb === 'updated' && typeof track.before === 'string' && track.after !== null) {
    const gist = changeGist(track.before, track.after)
    return gist ? { gist } : {}
  }
  return {}
}

/**
 * A change to a file in one line: the first line it added and the first it removed, found by
 * trimming the lines both versions share at the start and at the end. Blank lines and front matter
 * fences do not count as the gist. Null when the texts hold the same lines.
 */
export function changeGist(before: string, after: string): { added: string | null; removed: string | null } | null {
  const old = before.split('\n')
  const next = after.split('\n')
  let start = 0
  while (start < old.length && start < next.length && old[start] === next[start]) start++
  let endOld = old.length
  let endNew = next.length
  while (endOld > start && endNew > start && old[endOld - 1] === next[endNew - 1]) {
    endOld--
    endNew--
  }
  const meaningful = (line: string) => line.trim() !== '' && line.trim() !== '---'
  const added = next.slice(start, endNew).find(meaningful)
  const removed = old.slice(start, endOld).find(meaningful)
  if (added === undefined && removed === undefined) return null
  const cut = (line: string | undefined) => (line === undefined ? null : ellipsize(line, SUMMARY_GIST_CHARS))
  return { added: cut(added), removed: cut(removed) }
}

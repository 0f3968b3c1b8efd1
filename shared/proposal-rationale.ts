/**
 * Why a proposal waits, beyond its cause: the reviewer's own words (model text, shown as written), or,
 * for what Cairn files itself (a sync's conflicts, an import's candidates), a code with its figures
 * that every face words in the user's language. The `proposals.rationale` column holds the words as
 * they are, or the code as JSON; rows written before rationales were codes hold English, read back
 * into codes here (as review-reasons.ts does for review reasons).
 */
export type ProposalRationale =
  | { code: 'words'; text: string }
  | { code: 'sync_conflict' | 'sync_overflow' | 'dangerous_content'; device: string | null }
  | { code: 'import_overflow' }
  | { code: 'claude_code_memory'; file: string | null }
  | { code: 'imported_version'; folder: string }
  /** A rewrite held back by the skill shrink guard: non-blank lines before and after, the sections it drops, and the reviewer's own words. */
  | { code: 'skill_shrink'; linesBefore: number; linesAfter: number; sectionsDropped: string[]; words: string | null }

type CodedRationale = Exclude<ProposalRationale, { code: 'words' }>

const codes: Record<CodedRationale['code'], true> = {
  sync_conflict: true,
  sync_overflow: true,
  dangerous_content: true,
  import_overflow: true,
  claude_code_memory: true,
  imported_version: true,
  skill_shrink: true
}

/** The text the `rationale` column holds for a coded rationale. */
export function storedRationale(rationale: CodedRationale): string {
  return JSON.stringify(rationale)
}

const device = '(.+?)'
const olderEnglish: Array<[RegExp, (match: RegExpMatchArray) => CodedRationale]> = [
  [
    new RegExp(`^${device} changed this in a way that could hurt if an assistant followed it, so the sync kept this device's version and put .+'s here\\. Look at it before you approve\\.$`),
    (m) => ({ code: 'dangerous_content', device: deviceOf(m[1]) })
  ],
  [
    new RegExp(`^This device and ${device} changed this in different ways, so the sync kept this device's version and put .+'s here\\. Approve to take it instead\\.$`),
    (m) => ({ code: 'sync_conflict', device: deviceOf(m[1]) })
  ],
  [
    new RegExp(`^This came from ${device}, but after the merge it did not fit under the memory file's limit, so it waits here instead of being cut\\. Make room \\(or shorten it\\), then approve\\.$`),
    (m) => ({ code: 'sync_overflow', device: deviceOf(m[1]) })
  ],
  [/^Imported, but it did not fit under the memory file's limit, so it waits here instead of being cut\. Make room \(or shorten it\), then approve\.$/, () => ({ code: 'import_overflow' })],
  [
    /^Claude Code kept this in (.+)\. Another agent's memory is only a candidate here: approve it to keep it\.$/,
    (m) => ({ code: 'claude_code_memory', file: m[1] === 'its memory' ? null : m[1] })
  ],
  [/^Imported version of (.+)$/, (m) => ({ code: 'imported_version', folder: m[1] })]
]

function deviceOf(text: string): string | null {
  return /^another device$/i.test(text) ? null : text
}

/** A rationale as the column holds it: a code (JSON), older English read back into its code, or the reviewer's words. */
export function parseStoredRationale(stored: string | null): ProposalRationale | null {
  if (stored === null || !stored.trim()) return null
  if (stored.startsWith('{')) {
    try {
      const value = JSON.parse(stored) as { code?: unknown }
      if (typeof value?.code === 'string' && Object.hasOwn(codes, value.code)) return value as CodedRationale
    } catch {
      // the reviewer's words happen to start with a brace
    }
  }
  for (const [pattern, toRationale] of olderEnglish) {
    const match = stored.match(pattern)
    if (match) return toRationale(match)
  }
  return { code: 'words', text: stored }
}

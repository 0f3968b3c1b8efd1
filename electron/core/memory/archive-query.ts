import { holdsUnsegmentedScript, segmentedWords } from '../db/cjk-segment'
import { STOPWORDS } from '../text/provenance-evidence'

/** Words of a query past this many are dropped: a pasted paragraph should not cost a scan per word. */
const MAX_QUERY_WORDS = 16
/** Queries are cut here before planning. */
const MAX_QUERY_CHARS = 1000
/** Words every archive entry tends to hold, which rank nothing ("the", "user prefers"…). */
const QUERY_STOPWORDS = new Set([...STOPWORDS, 'is', 'be', 'to', 'of', 'in', 'on', 'at', 'by', 'as', 'or', 'an', 'a', 'i', 'me', 'my', 'we', 'our', 'do'])
// The same CJK function words session search drops (的, 了, の, を …), kept short on purpose.
const CJK_FUNCTION_WORDS = new Set(['的', '了', '是', '在', '和', '与', '我', '你', '他', '她', '它', '们', '吗', '呢', '吧', '啊', 'の', 'を', 'に', 'は', 'が', 'で', 'と', 'も'])

/** What the word index is asked: FTS5 terms OR-ed together, and the CJK runs for the substring fallback. */
export interface ArchiveQueryPlan {
  /** Each quoted FTS5 term: `"pnpm"`, `"部署"` (none when nothing searchable is left). */
  terms: string[]
  /** The terms OR-ed: `"pnpm" OR "部署"`, or ''. */
  match: string
  /** Runs of unsegmented script in the query, for a LIKE fallback when ICU split the entry differently. */
  cjkRuns: string[]
}

/**
 * Turns a natural-language query into an FTS5 MATCH expression over the archive's `text` and `words`
 * columns: Latin words lowercased and quoted (porter stems them), stop words dropped, and each run of
 * Chinese or Japanese segmented into words the way entries are (cjk-segment.ts), so both sides agree.
 */
export function planArchiveQuery(query: string): ArchiveQueryPlan {
  const folded = query.slice(0, MAX_QUERY_CHARS).normalize('NFKC').toLowerCase()
  const terms: string[] = []
  const add = (term: string) => {
    if (terms.length < MAX_QUERY_WORDS && !terms.includes(term)) terms.push(term)
  }
  for (const word of folded.match(/[\p{L}\p{N}_]+/gu) ?? []) {
    if (holdsUnsegmentedScript(word)) continue
    const clean = word.replace(/_/g, ' ').trim()
    if (clean.length < 2 || QUERY_STOPWORDS.has(clean)) continue
    add(clean)
  }
  const cjkRuns = holdsUnsegmentedScript(folded) ? (folded.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]+/gu) ?? []) : []
  for (const word of cjkRuns.length ? segmentedWords(cjkRuns.join('\n')) : []) {
    if (!CJK_FUNCTION_WORDS.has(word)) add(word)
  }
  const quoted = terms.map(quote)
  return { terms: quoted, match: quoted.join(' OR '), cjkRuns: cjkRuns.filter((run) => [...run].length >= 2) }
}

/** The words column of an entry: its unsegmented-script words (and emoji, fullwidth words) joined by spaces. */
export function archiveWordsOf(text: string): string | null {
  if (/^[\x00-\x7f]*$/.test(text)) return null
  const words = segmentedWords(text)
  return words.length ? words.join(' ') : null
}

function quote(term: string): string {
  return `"${term.replace(/"/g, '""')}"`
}

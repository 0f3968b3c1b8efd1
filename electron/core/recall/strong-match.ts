import { STOPWORDS, stem } from '../text/provenance-evidence'

const TOKEN = /[\p{L}\p{N}_]+/gu
const CJK = /[\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF]/u

/** Distinctive terms of a text: Latin words of three letters or more without the stop words, stemmed; CJK character pairs. */
export function recallTerms(text: string): Set<string> {
  const terms = new Set<string>()
  for (const [word] of text.normalize('NFKC').toLowerCase().matchAll(TOKEN)) {
    if (CJK.test(word)) {
      const chars = [...word].filter((char) => CJK.test(char))
      for (let index = 0; index + 1 < chars.length; index++) terms.add(chars[index] + chars[index + 1])
    } else if (word.length >= 3 && !STOPWORDS.has(word) && !/^\d{1,2}$/.test(word)) terms.add(stem(word))
  }
  return terms
}

/**
 * The words of a message worth searching the archive for, as written (the archive's index stems them):
 * stop words and short words left out, so a search never walks every entry holding "the".
 */
export function recallQueryWords(text: string): string[] {
  const words = new Set<string>()
  for (const [word] of text.normalize('NFKC').toLowerCase().matchAll(TOKEN)) {
    if (CJK.test(word) || (word.length >= 3 && !STOPWORDS.has(word) && !/^\d{1,2}$/.test(word))) words.add(word)
  }
  return [...words]
}

/** Fewest distinctive terms a message and an item must share: one shared word is chance, not recall. */
export const MIN_SHARED_TERMS = 2
/** Share of an item's own terms the message must hold when it shares only two: a long entry naming two common words is not about this message. */
export const MIN_ITEM_COVERAGE = 0.3

/**
 * Whether `item` matches `message` strongly enough to be offered unasked: three shared distinctive
 * terms, or two that make at least {@link MIN_ITEM_COVERAGE} of the item's terms. Most messages recall
 * nothing, so the prompt grows only when memory has something to say about this message.
 */
export function matchesStrongly(messageTerms: ReadonlySet<string>, item: string): boolean {
  const itemTerms = recallTerms(item)
  let shared = 0
  for (const term of itemTerms) if (messageTerms.has(term)) shared++
  if (shared < MIN_SHARED_TERMS) return false
  return shared >= 3 || shared / itemTerms.size >= MIN_ITEM_COVERAGE
}

/** Two entries whose word sets overlap this much (Jaccard) say the same thing; one is dropped. */
export const NEAR_DUPLICATE_SIMILARITY = 0.9

/** Lowercased words, for comparing entries by what they say (whitespace, case and punctuation aside). */
export function entryWords(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

/** How alike two entries' word sets are (Jaccard, 0 to 1); two entries without words are alike only if both are empty. */
export function wordSimilarity(a: string, b: string): number {
  const setA = new Set(entryWords(a))
  const setB = new Set(entryWords(b))
  let shared = 0
  for (const word of setA) if (setB.has(word)) shared++
  const union = setA.size + setB.size - shared
  return union === 0 ? 1 : shared / union
}

/** Same words in the same order, or word sets at least {@link NEAR_DUPLICATE_SIMILARITY} alike. */
export function isNearDuplicate(a: string, b: string): boolean {
  if (entryWords(a).join(' ') === entryWords(b).join(' ')) return true
  return wordSimilarity(a, b) >= NEAR_DUPLICATE_SIMILARITY
}

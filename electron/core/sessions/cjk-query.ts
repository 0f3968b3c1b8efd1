import { holdsUnsegmentedScript, segmentedWords, WORD_MARK } from '../db/cjk-segment'

/**
 * The query side of the segmented words in the trigram index (see db/cjk-segment.ts): a query is
 * segmented the way messages were, and each content word becomes a marked piece (`␟部署␟`) that
 * matches that word and not a longer word containing it.
 */

// Function words: they join content words and match nearly every message.
const chineseFunctionWords = new Set('的 了 吗 呢 吧 啊 呀 是 在 和 与 或 及 我 你 他 她 它 这 那 哪 有 也 都 就 要 会 能 把 被 给 从 到 对 很 还 又 再 让 地 得 着 过 个 些 么'.split(' '))
const japaneseFunctionWords = new Set(['ください', 'ました', 'ません', 'です', 'ます', 'でした', 'して', 'した', 'する', 'ある', 'いる', 'なる', 'こと', 'もの', 'ため', 'よう', 'これ', 'それ', 'あれ', 'どう', 'どの', 'なに', '何', 'から', 'まで', 'より', 'など', 'けど'])
const hiraganaOnly = /^[\u3040-\u309F]+$/u
const emojiRun = /\p{Extended_Pictographic}/gu

/** A content word of unsegmented script: not a particle, ending or pronoun. Short hiragana words are grammar. */
export function isContentWord(word: string): boolean {
  if (chineseFunctionWords.has(word) || japaneseFunctionWords.has(word)) return false
  return !(hiraganaOnly.test(word) && [...word].length <= 2)
}

/** `部署` → `␟部署␟`. */
export function markedPiece(word: string): string {
  return `${WORD_MARK}${word}${WORD_MARK}`
}

/** `␟部署␟` → `部署`: what a snippet marks in the message text. */
export function unmarked(piece: string): string {
  return piece.split(WORD_MARK).join('')
}

/**
 * The marked pieces for a query: the content words of its unsegmented runs and its emoji. In a query
 * that is not plain English, its plain words too (`SQL 慢` finds a message that wrote ＳＱＬ, whose
 * folded form only the trigram index holds); an English query stays on the word index alone.
 */
export function segmentedQueryPieces(runs: string[], words: string[], input: string): string[] {
  const pieces = runs.flatMap((run) => segmentedWords(run).filter((w) => holdsUnsegmentedScript(w) && isContentWord(w)))
  const emoji = [...input.matchAll(emojiRun)].map((m) => m[0])
  const mixed = runs.length > 0 || emoji.length > 0 || foldQuery(input) !== input
  return [...new Set([...pieces, ...emoji, ...(mixed ? words : [])].map(markedPiece))]
}

/** Fullwidth letters and digits, halfwidth katakana and other compatibility forms to their plain form: ＡＰＩ → API. */
export function foldQuery(input: string): string {
  return input.normalize('NFKC')
}

/**
 * Word segmentation for scripts written without spaces (Chinese, Japanese, Korean, Thai …), emoji and
 * fullwidth letters, with the dictionary built into ICU (`Intl.Segmenter`, in Node and Chromium).
 *
 * The trigram index reads substrings, so it cannot search a word shorter than three characters
 * (部署, 京都, 猫) and matches a word inside another (和服 in 数据库和服务器). Each such message
 * therefore also carries its words, each wrapped in {@link WORD_MARK}, in the trigram index: it holds
 * `␟部署␟`, and the query `␟部署␟` (four characters) matches exactly that word.
 */

/** Wraps each segmented word in the trigram index. A control character nobody types or pastes. */
export const WORD_MARK = '\u001f'

/** Text past this point is indexed by trigrams only: segmenting a huge tool output costs more than it finds. */
export const MAX_SEGMENTED_CHARS = 8_000

// The same scripts as UNSEGMENTED_GLOB in the migrations.
const unsegmentedClass = '[\\u0E00-\\u0EFF\\u1000-\\u109F\\u1780-\\u17FF\\u2E80-\\u9FFF\\uAC00-\\uD7AF\\uF900-\\uFAFF\\uFF66-\\uFF9F\\u{20000}-\\u{3FFFF}]'
const unsegmented = new RegExp(unsegmentedClass, 'u')
const unsegmentedRun = new RegExp(`${unsegmentedClass}+`, 'gu')
const fullwidthRun = /[\uFF01-\uFF5E]+/gu
const emojiChar = /\p{Extended_Pictographic}/gu
// Intl.Segmenter slows down more than linearly on long input, and each call has a fixed cost: the
// runs are segmented in chunks of about this many characters, cut after sentence punctuation.
const CHUNK_CHARS = 400
const sentenceEnd = /(?<=[\n\u3000-\u303F\uFF01\uFF0C\uFF0E\uFF1A\uFF1B\uFF1F])/u
// ICU's Chinese/Japanese dictionary is the same for every CJK locale, so one segmenter serves both.
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' })

export function holdsUnsegmentedScript(text: string): boolean {
  return unsegmented.test(text)
}

/**
 * The words of `text` that the word index (porter unicode61) cannot find: each word in unsegmented
 * script, each emoji, and each word written in fullwidth letters or digits, folded (ＡＰＩ → API).
 * Plain Latin words are left out: the word index already has them.
 */
export function segmentedWords(text: string): string[] {
  const source = text.slice(0, MAX_SEGMENTED_CHARS)
  const runs = [...source.matchAll(unsegmentedRun)].map((m) => m[0].normalize('NFKC')).join('\n')
  const fullwidth = [...source.matchAll(fullwidthRun)].flatMap((m) => m[0].normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [])
  const emoji = [...source.matchAll(emojiChar)].map((m) => m[0])
  return [...chunks(runs).flatMap(runWords), ...fullwidth, ...emoji]
}

/** `text` cut into pieces of at most CHUNK_CHARS, after sentence punctuation where possible. */
function chunks(text: string): string[] {
  const out: string[] = []
  let current = ''
  for (const sentence of text.split(sentenceEnd)) {
    if (current.length + sentence.length > CHUNK_CHARS && current) {
      out.push(current)
      current = ''
    }
    // A sentence longer than a chunk is cut hard (never inside a surrogate pair).
    let from = 0
    while (sentence.length - from > CHUNK_CHARS) {
      const to = from + CHUNK_CHARS + (/[\uDC00-\uDFFF]/.test(sentence[from + CHUNK_CHARS]) ? 1 : 0)
      out.push(sentence.slice(from, to))
      from = to
    }
    current += sentence.slice(from)
  }
  if (current) out.push(current)
  return out
}

function runWords(chunk: string): string[] {
  const words: string[] = []
  for (const { segment, isWordLike } of segmenter.segment(chunk)) if (isWordLike && unsegmented.test(segment)) words.push(segment)
  return words
}

/** `␟部署␟失败␟`: words joined by the mark, so every word has a mark on each side. '' when there are none. */
export function markWords(words: string[]): string {
  return words.length ? `${WORD_MARK}${words.join(WORD_MARK)}${WORD_MARK}` : ''
}

/**
 * A message's marked words (`␟部署␟失败␟`), which the store writes to `messages.segmented` and the
 * trigram triggers append to the message's trigram row; null when it has none (English, accented
 * Latin), so most messages carry nothing extra.
 */
export function markedWordsOf(content: string | null, toolCallText: string | null): string | null {
  const words = [content, toolCallText].flatMap((text) => (text && !isAscii(text) ? segmentedWords(text) : []))
  return words.length ? markWords(words) : null
}

function isAscii(text: string): boolean {
  return /^[\x00-\x7f]*$/.test(text)
}

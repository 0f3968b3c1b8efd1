/**
 * The text the threat rules run on: NFKC-folded (full-width letters become ASCII), Cyrillic/Greek
 * look-alike letters mapped to Latin, invisible format characters dropped, and lower-cased, so the
 * rules can be written once in plain lower-case ASCII. Keeps a map back to offsets in the raw text.
 */
export interface MatchText {
  readonly text: string
  /** Offset in the raw text that produced `text[index]`. */
  toRawOffset(index: number): number
}

/**
 * Letters that render like Latin ones but NFKC leaves alone (Unicode TR#39 confusables, the ones that
 * matter for English keywords). Without this "ignоre" with a Cyrillic "о" walks past every rule.
 */
const lookAlikes: Record<string, string> = {
  // Cyrillic
  'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c',
  'т': 't', 'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ї': 'i', 'ј': 'j', 'һ': 'h', 'ԁ': 'd', 'ԛ': 'q',
  'ԝ': 'w', 'ӏ': 'l', 'ү': 'y',
  'А': 'a', 'В': 'b', 'Е': 'e', 'Ё': 'e', 'К': 'k', 'М': 'm', 'Н': 'h', 'О': 'o', 'Р': 'p', 'С': 'c',
  'Т': 't', 'У': 'y', 'Х': 'x', 'Ѕ': 's', 'І': 'i', 'Ї': 'i', 'Ј': 'j', 'Һ': 'h', 'Ԁ': 'd', 'Ԛ': 'q',
  'Ԝ': 'w', 'Ӏ': 'l', 'Ү': 'y',
  // Greek
  'α': 'a', 'β': 'b', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u',
  'χ': 'x', 'γ': 'y', 'ϲ': 'c', 'ϳ': 'j',
  'Α': 'a', 'Β': 'b', 'Ε': 'e', 'Ζ': 'z', 'Η': 'h', 'Ι': 'i', 'Κ': 'k', 'Μ': 'm', 'Ν': 'n', 'Ο': 'o',
  'Ρ': 'p', 'Τ': 't', 'Υ': 'y', 'Χ': 'x', 'Ϲ': 'c', 'Ϳ': 'j',
  // Latin letters outside ASCII that read as ASCII ones; İ also keeps lower-casing length-preserving
  'İ': 'i', 'ı': 'i', 'ɑ': 'a', 'ɡ': 'g', 'ᴠ': 'v', 'ǀ': 'l',
  // Typographic quotes, so "don’t" matches "don't"
  '‘': "'", '’': "'", '‚': "'", '‛': "'", '“': '"', '”': '"', '„': '"', '‟': '"'
}

/** BMP code unit → folded code unit (0 = unchanged). */
const lookAlikeTable = (() => {
  const table = new Uint16Array(65536)
  for (const [from, to] of Object.entries(lookAlikes)) table[from.charCodeAt(0)] = to.charCodeAt(0)
  return table
})()
const anyLookAlike = new RegExp(`[${Object.keys(lookAlikes).join('')}]`)
/** Format characters nobody sees (soft hyphen, LRM, variation selectors…): dropped so they cannot split a keyword. */
const ignorable = /\p{Default_Ignorable_Code_Point}/gu
const anyIgnorable = /\p{Default_Ignorable_Code_Point}/u
const nonAsciiRun = /[^\x00-\x7f]+/g
const anyNonAscii = /[^\x00-\x7f]/
const utf16 = new TextDecoder('utf-16le')
/** Folding works on chunks of about this many characters, cut before an ASCII character. */
const CHUNK = 8192

/**
 * The fold itself, on a whole string: NFKC, invisible format characters dropped, look-alikes mapped.
 * `prepareMatchText(raw).text` always equals `foldText(raw).toLowerCase()`; it only adds offsets.
 */
export function foldText(text: string): string {
  return foldSegment(text)
}

function foldSegment(segment: string): string {
  let folded = segment.normalize('NFKC')
  if (anyIgnorable.test(folded)) folded = folded.replace(ignorable, '')
  if (!anyLookAlike.test(folded)) return folded
  const codes = new Uint16Array(folded.length)
  for (let i = 0; i < folded.length; i++) {
    const code = folded.charCodeAt(i)
    codes[i] = lookAlikeTable[code] || code
  }
  return utf16.decode(codes)
}

/**
 * Pieces of the folded text, each tied to a raw span. Inside a piece whose length did not change the
 * map is one-to-one; otherwise every offset of the piece maps to the piece's raw start.
 */
class OffsetMap {
  private readonly foldedStarts: number[] = []
  private readonly rawStarts: number[] = []
  private readonly oneToOne: boolean[] = []

  add(foldedStart: number, rawStart: number, foldedLength: number, rawLength: number): void {
    this.foldedStarts.push(foldedStart)
    this.rawStarts.push(rawStart)
    this.oneToOne.push(foldedLength === rawLength)
  }

  toRaw(index: number): number {
    let low = 0
    let high = this.foldedStarts.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if (this.foldedStarts[mid] <= index) low = mid
      else high = mid - 1
    }
    if (this.foldedStarts.length === 0) return index
    return this.oneToOne[low] ? this.rawStarts[low] + (index - this.foldedStarts[low]) : this.rawStarts[low]
  }
}

/**
 * Folds `raw` for matching. Cutting the text just before an ASCII character is safe for NFKC: ASCII
 * characters are starters that never compose with what precedes them, so folding the pieces
 * separately equals folding the whole. Large chunks are folded at once; only a chunk whose length
 * changed is revisited run by run (and code point by code point) to keep offsets exact.
 */
export function prepareMatchText(raw: string): MatchText {
  if (!anyNonAscii.test(raw)) {
    const text = raw.toLowerCase()
    return { text, toRawOffset: (index) => index }
  }
  const parts: string[] = []
  const map = new OffsetMap()
  let foldedPos = 0
  const pushPiece = (rawStart: number, rawLength: number, folded: string): void => {
    map.add(foldedPos, rawStart, folded.length, rawLength)
    parts.push(folded)
    foldedPos += folded.length
  }
  for (let start = 0; start < raw.length; ) {
    const end = chunkEnd(raw, start)
    const chunk = raw.slice(start, end)
    const folded = foldSegment(chunk)
    if (alignedOneToOne(chunk, folded)) pushPiece(start, chunk.length, folded)
    else foldByRun(start, chunk, pushPiece)
    start = end
  }
  // Only U+0130 changes length when lower-cased, and the look-alike table already folded it.
  const text = parts.join('').toLowerCase()
  return { text, toRawOffset: (index) => map.toRaw(index) }
}

/**
 * Whether offsets can be copied one to one: same length, and every ASCII character still in its place
 * (an expansion such as "ﬁ" → "fi" cancelled by a deletion would shift the characters between them).
 */
function alignedOneToOne(raw: string, folded: string): boolean {
  if (raw.length !== folded.length) return false
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i)
    if (code < 0x80 && folded.charCodeAt(i) !== code) return false
  }
  return true
}

type PushPiece = (rawStart: number, rawLength: number, folded: string) => void

/** The first ASCII character at or after `start + CHUNK`, or the end of the text. */
function chunkEnd(raw: string, start: number): number {
  for (let i = start + CHUNK; i < raw.length; i++) if (raw.charCodeAt(i) < 0x80) return i
  return raw.length
}

/** Each run of non-ASCII characters is folded with the ASCII character before it: a combining mark may attach to it. */
function foldByRun(chunkStart: number, chunk: string, pushPiece: PushPiece): void {
  let pos = 0
  for (const run of chunk.matchAll(nonAsciiRun)) {
    const segmentStart = run.index > pos ? run.index - 1 : run.index
    if (segmentStart > pos) pushPiece(chunkStart + pos, segmentStart - pos, chunk.slice(pos, segmentStart))
    const segmentEnd = run.index + run[0].length
    const segment = chunk.slice(segmentStart, segmentEnd)
    const folded = foldSegment(segment)
    if (alignedOneToOne(segment, folded)) pushPiece(chunkStart + segmentStart, segment.length, folded)
    else foldByCodePoint(chunkStart + segmentStart, segment, folded, pushPiece)
    pos = segmentEnd
  }
  if (pos < chunk.length) pushPiece(chunkStart + pos, chunk.length - pos, chunk.slice(pos))
}

/** Finer offsets for a segment whose length changed: per code point when that gives the same result. */
function foldByCodePoint(segmentStart: number, segment: string, folded: string, pushPiece: PushPiece): void {
  const codePoints = Array.from(segment)
  const foldedPoints = codePoints.map(foldSegment)
  if (foldedPoints.join('') !== folded) {
    pushPiece(segmentStart, segment.length, folded)
    return
  }
  let offset = segmentStart
  codePoints.forEach((point, i) => {
    pushPiece(offset, point.length, foldedPoints[i])
    offset += point.length
  })
}

/**
 * Invisible text: code points that render as nothing yet reach the model as text. Unicode tag
 * characters (U+E0000–U+E007F) are the worst of them: each one mirrors an ASCII character, so
 * "User likes tea" can carry a whole hidden instruction. Every scan blocks them all.
 *
 * What counts: every Default_Ignorable_Code_Point (soft hyphen, combining grapheme joiner, Arabic
 * letter mark, Hangul fillers, Khmer inherent vowels, Mongolian variation selectors, zero-width
 * characters, LRM/RLM and the other bidi controls, invisible operators, variation selectors 1–256,
 * BOM, tags, the reserved default-ignorables) plus the interlinear annotation controls U+FFF9–FFFB,
 * which hide the annotated text the same way.
 *
 * Three emoji uses stay allowed, because they carry no hidden text and users write them:
 * - U+FE0E/U+FE0F (text/emoji presentation) directly after an emoji ("☕️", keycaps "1️⃣");
 * - U+200D (ZWJ) between two emoji, optionally after a skin tone or U+FE0F ("👩🏽‍💻", "🏳️‍🌈");
 * - the three subdivision flags in use (England, Scotland, Wales: 🏴 + tag letters + CANCEL TAG).
 * Anything else is blocked, including a second selector, variation selectors 17–256 after an emoji
 * (bytes can be hidden there) and ZWJ/ZWNJ inside words: scripts that use those (Persian, some Indic
 * spellings) lose only a shaping hint, and the error names the character so it can be dropped.
 */

export interface InvisibleCharacter {
  readonly codePoint: number
  /** Offset (UTF-16 code units) of its first occurrence in the scanned text. */
  readonly index: number
}

const INVISIBLE_CLASS = '\\p{Default_Ignorable_Code_Point}\\u{FFF9}-\\u{FFFB}'
const anyInvisible = new RegExp(`[${INVISIBLE_CLASS}]`, 'u')

const tagOf = (ch: string): string => `\\u{${(0xe0000 + ch.charCodeAt(0)).toString(16)}}`
const subdivisionFlags = ['gbeng', 'gbsct', 'gbwls'].map((code) => Array.from(code, tagOf).join('')).join('|')

/**
 * Allowed emoji sequences first (they match and are skipped), then any other invisible character
 * (group 1). Each alternative starts with a literal, so positions without one fail at once.
 */
const scanner = new RegExp(
  [
    `\\u{1F3F4}(?:${subdivisionFlags})\\u{E007F}`,
    '[\\u{FE0E}\\u{FE0F}](?<=\\p{Emoji}[\\u{FE0E}\\u{FE0F}])',
    '\\u{200D}(?<=[\\p{Extended_Pictographic}\\p{Emoji_Modifier}]\\u{FE0F}?\\u{200D})(?=\\p{Extended_Pictographic})',
    `([${INVISIBLE_CLASS}])`
  ].join('|'),
  'gu'
)

/** Each distinct invisible character in `text`, by first occurrence. Linear in the text's length. */
export function findInvisibleCharacters(text: string): InvisibleCharacter[] {
  if (!anyInvisible.test(text)) return []
  const seen = new Set<number>()
  const found: InvisibleCharacter[] = []
  for (const match of text.matchAll(scanner)) {
    const invisible = match[1]
    if (invisible === undefined) continue
    const codePoint = invisible.codePointAt(0)!
    if (seen.has(codePoint)) continue
    seen.add(codePoint)
    found.push({ codePoint, index: match.index })
  }
  return found
}

/** `U+200B`, `U+E0049`. */
export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`
}

const names: Record<number, string> = {
  0x00ad: 'SOFT HYPHEN',
  0x034f: 'COMBINING GRAPHEME JOINER',
  0x061c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x17b4: 'KHMER VOWEL INHERENT AQ',
  0x17b5: 'KHMER VOWEL INHERENT AA',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
  0xfff9: 'INTERLINEAR ANNOTATION ANCHOR',
  0xfffa: 'INTERLINEAR ANNOTATION SEPARATOR',
  0xfffb: 'INTERLINEAR ANNOTATION TERMINATOR',
  0xe0001: 'LANGUAGE TAG',
  0xe0020: 'TAG SPACE',
  0xe007f: 'CANCEL TAG'
}

/** The Unicode name, or the family name for runs of similar controls. */
export function invisibleCharacterName(codePoint: number): string {
  const named = names[codePoint]
  if (named) return named
  if (codePoint >= 0xfe00 && codePoint <= 0xfe0f) return `VARIATION SELECTOR-${codePoint - 0xfe00 + 1}`
  if (codePoint >= 0xe0100 && codePoint <= 0xe01ef) return `VARIATION SELECTOR-${codePoint - 0xe0100 + 17}`
  if (codePoint >= 0x180b && codePoint <= 0x180f) return 'MONGOLIAN FREE VARIATION SELECTOR'
  if (codePoint >= 0x206a && codePoint <= 0x206f) return 'DEPRECATED FORMAT CHARACTER'
  if (codePoint >= 0x1bca0 && codePoint <= 0x1bca3) return 'SHORTHAND FORMAT CONTROL'
  if (codePoint >= 0x1d173 && codePoint <= 0x1d17a) return 'MUSICAL SYMBOL FORMAT CONTROL'
  if (codePoint >= 0xe0021 && codePoint <= 0xe007e) return tagName(String.fromCharCode(codePoint - 0xe0000))
  return 'RESERVED INVISIBLE CODE POINT'
}

function tagName(ascii: string): string {
  if (/[A-Z]/.test(ascii)) return `TAG LATIN CAPITAL LETTER ${ascii}`
  if (/[a-z]/.test(ascii)) return `TAG LATIN SMALL LETTER ${ascii.toUpperCase()}`
  if (/[0-9]/.test(ascii)) return `TAG DIGIT ${ascii}`
  return 'TAG CHARACTER'
}

const isTag = (codePoint: number): boolean => codePoint >= 0xe0000 && codePoint <= 0xe007f

/** Where an emoji-only character would have been fine, so the fix is obvious. */
function emojiNote(codePoint: number): string {
  if (codePoint === 0xfe0e || codePoint === 0xfe0f) return ' (allowed only right after an emoji)'
  if (codePoint === 0x200d) return ' (allowed only between two emoji)'
  return ''
}

const SHOWN = 3

/**
 * The error for text holding `found` (non-empty): which characters and where, why they are refused,
 * and what to do. It names only the first few, so it never spells the hidden text back out: that text is the attack.
 */
export function invisibleTextMessage(found: readonly InvisibleCharacter[]): string {
  const described = found
    .slice(0, SHOWN)
    .map(({ codePoint, index }) => `${codePointLabel(codePoint)} ${invisibleCharacterName(codePoint)} at offset ${index}${emojiNote(codePoint)}`)
  const more = found.length > SHOWN ? ` and ${found.length - SHOWN} more` : ''
  const head = found.length === 1
    ? `Blocked: content contains an invisible Unicode character: ${described[0]}. `
    : `Blocked: content contains ${found.length} different invisible Unicode characters: ${described.join(', ')}${more}. `
  const tags = found.some(({ codePoint }) => isTag(codePoint))
    ? 'Unicode tag characters (U+E0000–U+E007F) spell out hidden text. '
    : ''
  return (
    head +
    tags +
    'Invisible characters do not show on screen but the model reads them, so they can hide instructions (possible injection). ' +
    'Remove every invisible character and send the text again.'
  )
}

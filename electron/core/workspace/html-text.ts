/** Turns an HTML page into readable plain text for the model: no scripts, styles or tags; entities decoded. */

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', bull: '•', middot: '·',
  copy: '©', reg: '®', trade: '™', deg: '°', times: '×', divide: '÷', plusmn: '±', euro: '€',
  pound: '£', yen: '¥', cent: '¢', sect: '§', para: '¶', shy: '', zwj: '', zwnj: '', larr: '←', rarr: '→',
  uarr: '↑', darr: '↓', harr: '↔', le: '≤', ge: '≥', ne: '≠', minus: '−', frac12: '½', frac14: '¼', frac34: '¾'
}

const ACCENT_MARKS: Record<string, string> = { acute: '\u0301', grave: '\u0300', circ: '\u0302', uml: '\u0308', tilde: '\u0303', cedil: '\u0327', ring: '\u030a' }
const LATIN_LETTERS: Record<string, string> = { szlig: 'ß', aelig: 'æ', AElig: 'Æ', oslash: 'ø', Oslash: 'Ø', eth: 'ð', ETH: 'Ð', thorn: 'þ', THORN: 'Þ' }

/** `&eacute;`, `&Uuml;`, `&ccedil;`…: a letter plus an accent, composed (NFC) into the real character. */
function accentedLetter(name: string): string | undefined {
  const match = /^([a-zA-Z])(acute|grave|circ|uml|tilde|cedil|ring)$/.exec(name)
  return match ? (match[1] + ACCENT_MARKS[match[2]]).normalize('NFC') : LATIN_LETTERS[name]
}

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return NAMED_ENTITIES[name] ?? accentedLetter(name) ?? NAMED_ENTITIES[name.toLowerCase()] ?? whole
  })
}

/** Elements whose content is never text a reader sees. */
const HIDDEN_ELEMENTS = ['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'head']
const BLOCK_TAGS =
  'address|article|aside|blockquote|dd|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|header|hr|main|nav|ol|p|pre|section|table|tbody|thead|tfoot|tr|ul'

export function extractTitle(html: string): string | undefined {
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)
  const title = match ? decodeEntities(match[1]).replace(/\s+/g, ' ').trim() : ''
  return title || undefined
}

export function htmlToText(html: string): string {
  let text = html.replace(/<!--[\s\S]*?-->/g, '')
  for (const tag of HIDDEN_ELEMENTS) text = text.replace(new RegExp(`<${tag}\\b[\\s\\S]*?</${tag}\\s*>`, 'gi'), ' ')
  text = text
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/li\s*>/gi, '')
    .replace(/<h([1-6])\b[^>]*>/gi, (_, level: string) => `\n\n${'#'.repeat(Number(level))} `)
    .replace(/<(?:td|th)\b[^>]*>/gi, ' | ')
    .replace(new RegExp(`</?(?:${BLOCK_TAGS})\\b[^>]*>`, 'gi'), '\n')
    .replace(/<[^>]*>/g, '')
  text = decodeEntities(text)
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

import { describe, expect, it } from 'vitest'
import { foldText, prepareMatchText } from '../../../electron/core/security/match-text'

/** Small seeded PRNG (mulberry32) so failures reproduce. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Pieces that fold in every way: full-width, ligatures, combining marks, look-alikes, format characters, CJK. */
const pieces = ['a', 'e', 'x', ' ', '.', '\n', 'ｉｇｎｏｒｅ', 'ﬁ', 'ﬃ', 'e\u0301', '\u0301', 'ο', 'с', 'İ', '\u00ad',
  '\u200e', '\ufe0f', '用户', '①', '㎏', 'Ａ', '’', 'ß']

function randomText(next: () => number, markers: number[]): string {
  let text = ''
  const count = Math.floor(next() * 40)
  for (let i = 0; i < count; i++) {
    if (next() < 0.15) {
      markers.push(text.length)
      text += 'Q'
    } else text += pieces[Math.floor(next() * pieces.length)]
  }
  return text
}

describe('prepareMatchText', () => {
  it('leaves plain ASCII as lower-cased text with identical offsets', () => {
    const prepared = prepareMatchText('Ignore Previous')
    expect(prepared.text).toBe('ignore previous')
    expect(prepared.toRawOffset(7)).toBe(7)
  })

  it('folds full-width letters, look-alikes, typographic quotes and drops invisible format characters', () => {
    expect(prepareMatchText('ｃａｔ').text).toBe('cat')
    expect(prepareMatchText('ѕуѕtеm').text).toBe('system')
    expect(prepareMatchText('ΑΒΕ').text).toBe('abe')
    expect(prepareMatchText('don’t').text).toBe("don't")
    expect(prepareMatchText('ig\u00adno\u200ere').text).toBe('ignore')
  })

  it('equals folding the whole text at once and maps every ASCII marker back to its raw offset (2,000 random texts)', () => {
    const next = random(20240601)
    for (let round = 0; round < 2000; round++) {
      const markers: number[] = []
      const raw = randomText(next, markers)
      const prepared = prepareMatchText(raw)
      expect(prepared.text).toBe(foldText(raw).toLowerCase())
      const found: number[] = []
      for (let i = prepared.text.indexOf('q'); i !== -1; i = prepared.text.indexOf('q', i + 1)) found.push(prepared.toRawOffset(i))
      expect(found).toEqual(markers)
    }
  })

  it('keeps offsets exact across chunk boundaries of a long non-ASCII text', () => {
    const raw = 'ｘ'.repeat(20_000) + ' ﬁ ' + 'ｘ'.repeat(20_000) + ' ignore'
    const prepared = prepareMatchText(raw)
    expect(prepared.toRawOffset(prepared.text.indexOf('ignore'))).toBe(raw.indexOf('ignore'))
  })
})

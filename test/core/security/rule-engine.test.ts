import { describe, expect, it } from 'vitest'
import { chain, ChainMatcher, chars, simpleTerm, words, type Chain } from '../../../electron/core/security/rule-engine'

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

/** Each chain next to the backtracking regex it must agree with (leftmost match start, or -1). */
const equivalents: [string, Chain, RegExp][] = [
  ['words gaps', chain(/\ba/, words(2), /\bbc?/, words(1), /\bd/), /\ba\s+(?:\w+\s+){0,2}bc?\s+(?:\w+\s+){0,1}d/],
  ['words gap of zero', chain(/\bx/, words(0), /\by/), /\bx\s+y/],
  ['same-line gap', chain(/x/, chars(4, '\n', { first: true }), /y/), /x(?=[^\S\n])[^\n]{1,4}y/],
  ['free gap', chain(/x/, chars(3, '>'), /d/), /x[^>]{0,3}d/],
  ['gap between spaces', chain(/x/, chars(3, '>', { first: true, last: true }), /y/), /x(?:\s|\s[^>]?\s)y/],
  ['three terms', chain(/\ba/, chars(5, '\n'), /bc/, words(1), /\by/), /\ba[^\n]{0,5}bc\s+(?:\w+\s+)?y/]
]

const tokens = ['a', 'b', 'bc', 'd', 'x', 'y', 'zz', ' ', ' ', ' ', '  ', '\n', ',', '>', '\t', '-']

describe('ChainMatcher', () => {
  it.each(equivalents)('agrees with the regex it replaces on 3,000 random texts: %s', (_name, rule, regex) => {
    const next = random(77)
    for (let round = 0; round < 3000; round++) {
      let text = ''
      const count = Math.floor(next() * 30)
      for (let i = 0; i < count; i++) text += tokens[Math.floor(next() * tokens.length)]
      const expected = regex.exec(text)?.index ?? -1
      expect({ text, at: new ChainMatcher(text).firstMatch(rule) }).toEqual({ text, at: expected })
    }
  })

  it('lists every match end with its earliest start, and agrees with firstMatch', () => {
    const rule = chain(/\bsend/, words(2), /\bto\s+x/)
    const matcher = new ChainMatcher('send it to x. send send to x. to x')
    expect(matcher.matches(rule)).toEqual({ ends: [12, 28], origins: [0, 14] })
    expect(matcher.firstMatch(rule)).toBe(0)
    expect(new ChainMatcher('nothing here').matches(rule)).toEqual({ ends: [], origins: [] })
  })

  it('counts non-ASCII letters as filler words, like Python', () => {
    const rule = chain(/\bignore/, words(2), /\bprevious/)
    expect(new ChainMatcher('ignore les précédentes previous').firstMatch(rule)).toBe(0)
    expect(new ChainMatcher('ignore — previous').firstMatch(rule)).toBe(-1)
  })
})

describe('simpleTerm', () => {
  it.each([/(?:\w+\s+)*x/, /(?:ab)+/, /a[^\n]{0,2048}b/, /a.*b/, /a{2,}/, /x/i])('refuses %s, which could backtrack or is not lower-case', (term) => {
    expect(() => simpleTerm(term)).toThrow()
  })

  it('accepts small bounded terms', () => {
    expect(simpleTerm(/\bregister\s+(?:as\s+)?(?:a\s*)?node/).flags).toBe('g')
    expect(() => chain(/a/, /b/)).toThrow(/must be a gap/)
  })
})

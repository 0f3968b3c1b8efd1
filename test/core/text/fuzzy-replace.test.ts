import { describe, expect, it } from 'vitest'
import { fuzzyReplace, type FuzzyReplaceFailure, type FuzzyReplaceResult } from '../../../electron/core/text/fuzzy-replace'

function applied(content: string, oldString: string, newString: string, replaceAll = false): FuzzyReplaceResult {
  const result = fuzzyReplace(content, oldString, newString, replaceAll)
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.error}`)
  return result
}

function refused(content: string, oldString: string, newString: string, replaceAll = false): FuzzyReplaceFailure {
  const result = fuzzyReplace(content, oldString, newString, replaceAll)
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`)
  return result
}

describe('fuzzyReplace: acceptance table (Hermes §1.4, adapted)', () => {
  it.each([
    ['hello world', 'hello', 'hi', 'exact', 'hi world'],
    ['  a = 1  \n  b = 2\n', 'a = 1\nb = 2', 'a = 3\nb = 4', 'line_trimmed', '  a = 3\n  b = 4\n'],
    ['def  foo(  x,  y  ):', 'def foo( x, y ):', 'def bar(x, y):', 'whitespace_normalized', 'def bar(x, y):'],
    ['foo   bar baz', 'foo bar', 'XY', 'whitespace_normalized', 'XY baz'],
    ['result = compute(a,  b) + tail', 'compute(a, b)', 'compute(a, b, c)', 'whitespace_normalized', 'result = compute(a, b, c) + tail'],
    ['line1\nline2', 'line1\\nline2', 'L', 'escape_normalized', 'L'],
    ['Hello\u2014world', 'Hello--world', 'Hello--there', 'unicode_normalized', 'Hello\u2014there']
  ])('%j: %j → %j via %s', (content, oldString, newString, strategy, expected) => {
    const result = applied(content, oldString, newString)
    expect(result).toEqual({ ok: true, content: expected, replacements: 1, strategy })
  })

  it('refuses a block whose middle line differs (y = 2 vs y = 9) and offers the region', () => {
    const content = 'def foo():\n    x = 1\n    y = 2\n    return x + y\n'
    const result = refused(content, 'def foo():\n    x = 1\n    y = 9\n    return x + y', 'def foo():\n    return 0\n')
    expect(result.code).toBe('not_found')
    expect(result.candidates[0]).toContain('lines 1-4')
    expect(result.candidates[0]).toContain('>3|     y = 2')
    expect(result.error).toContain('skill_view')
  })

  it('refuses foo = 2 when the file has foo = 1 (Hermes context_aware edited it) and offers foo = 1', () => {
    const result = refused('foo = 1\nbar = 2\n', 'foo = 2', 'foo = 3')
    expect(result.code).toBe('not_found')
    expect(result.candidates[0]).toMatch(/^line 1 \(\d+% similar\):\n>1\| foo = 1/)
    expect(result.error).toContain('>1| foo = 1')
  })

  it('refuses ambiguous matches, listing every location', () => {
    const result = refused('x\nfoo()\ny\nfoo()\n', 'foo()', 'bar()')
    expect(result.code).toBe('ambiguous')
    expect(result.error).toContain('matches 2 places')
    expect(result.error).toContain('L2: foo()')
    expect(result.error).toContain('L4: foo()')
    expect(result.error).toContain('replace_all')
    expect(result.candidates).toHaveLength(2)
    expect(refused('aaa bbb aaa', 'aaa', 'c').error).toContain('matches 2 places')
  })

  it('replaces every match with replace_all (whole tokens only: "aa" is not in "aaaa")', () => {
    expect(applied('aa aa', 'aa', 'b', true)).toMatchObject({ content: 'b b', replacements: 2 })
    expect(applied('aaa bbb aaa', 'aaa', 'ccc', true)).toMatchObject({ content: 'ccc bbb ccc', replacements: 2 })
    expect(refused('aa aa', 'aa', 'b').error).toContain('matches 2 places')
    expect(refused('aaaa', 'aa', 'b', true).code).toBe('not_found')
  })

  it('refuses identical old and new, and empty or whitespace-only old', () => {
    expect(refused('abc', 'abc', 'abc').code).toBe('identical')
    expect(refused('abc', '', 'x').code).toBe('empty_old')
    const whitespace = refused('alpha\n   \nbeta\n', '   ', 'XXX')
    expect(whitespace.code).toBe('empty_old')
    expect(whitespace.error).toContain('whitespace')
  })
})

describe('fuzzyReplace: indentation', () => {
  it('re-indents an unindented edit inside a method to the method body', () => {
    const content = 'class Calculator:\n    def add(self, a, b):\n        result = a + b\n        return result\n'
    const result = applied(content, 'result = a + b\nreturn result', 'result = a + b\nresult *= 2\nreturn result')
    expect(result.strategy).not.toBe('exact')
    expect(result.content).toBe(
      'class Calculator:\n    def add(self, a, b):\n        result = a + b\n        result *= 2\n        return result\n'
    )
  })

  it('anchors a block quoted without its base indent to the file base, keeping nesting', () => {
    const result = applied('  class X:\n    return 1\n', 'class X:\n  return 1', 'class X:\n  return 99')
    expect(result.content).toBe('  class X:\n    return 99\n')
  })

  it('moves zero-indent lines onto a two-space file and leaves blank lines alone', () => {
    expect(applied('  a = 1\n  b = 2\n', 'a = 1\nb = 2', 'a = 9\nb = 3').content).toBe('  a = 9\n  b = 3\n')
    const result = applied('    a = 1\n    b = 2\n', 'a = 1\nb = 2', 'a = 1\n\nb = 99')
    expect(result.content.split('\n')).toEqual(['    a = 1', '', '    b = 99', ''])
  })

  it('maps 2-space steps onto a 4-space file and onto a tab file', () => {
    const oldString = '  if x:\n    y()'
    const newString = '  if x:\n    y()\n    z()\n      w()'
    expect(applied('def f():\n    if x:\n        y()\n', oldString, newString).content).toBe(
      'def f():\n    if x:\n        y()\n        z()\n            w()\n'
    )
    expect(applied('def f():\n\tif x:\n\t\ty()\n', oldString, newString).content).toBe('def f():\n\tif x:\n\t\ty()\n\t\tz()\n\t\t\tw()\n')
  })

  it('ignores trailing whitespace in the file', () => {
    expect(applied('a = 1   \nb = 2\t\n', 'a = 1\nb = 2', 'a = 2\nb = 3')).toMatchObject({ content: 'a = 2\nb = 3\n', strategy: 'line_trimmed' })
  })

  it('combines indentation and inner whitespace differences on whole lines', () => {
    const result = applied('  x  =  1\n  y = 2\n', 'x = 1 \ny = 2', 'x = 5\ny = 2')
    expect(result).toMatchObject({ content: '  x = 5\n  y = 2\n', strategy: 'line_normalized' })
  })
})

describe('fuzzyReplace: escapes', () => {
  it('refuses escape drift: backslash-quotes in old and new that the file does not have', () => {
    const content = "x = 'a'\ny = 2\n"
    const result = refused(content, "x = \\'a\\'", "x = \\'b\\'")
    expect(result.code).toBe('escape_drift')
    expect(result.error).toContain('Escape-drift')
    expect(result.error.toLowerCase()).toContain('backslash')
    expect(refused('x = "a"\n', 'x = \\"a\\"', 'x = \\"b\\"').code).toBe('escape_drift')
  })

  it('accepts backslash-quotes the file really has, on exact matches, and when only new_string adds them', () => {
    const content = "line\n  x = \\'a\\'\nline"
    expect(applied(content, "line\n  x = \\'a\\'\nline", "line\n  x = \\'b\\'\nline").content).toContain("\\'b\\'")
    expect(applied("hello \\'world\\'", "hello \\'world\\'", "hello \\'there\\'").strategy).toBe('exact')
    expect(applied('  x = 1\n  y = 2', 'x = 1\ny = 2', "x = \\'1\\'\ny = 2").content).toBe("  x = \\'1\\'\n  y = 2")
  })

  it("decodes a backslash-escaped quote in old_string alone (the file keeps its plain quote)", () => {
    expect(applied("say 'hi'\n", "say \\'hi\\'", "say 'bye'")).toMatchObject({ content: "say 'bye'\n", strategy: 'escape_normalized' })
  })

  it('decodes a literal \\t in new_string when the matched text has a real tab', () => {
    const content = 'def hello():\n\tprint("before")\n'
    const viaEscapes = applied(content, 'def hello():\n\\tprint("before")\n', 'def hello():\n\\tprint("after")\n')
    expect(viaEscapes).toMatchObject({ strategy: 'escape_normalized', content: 'def hello():\n\tprint("after")\n' })
    const viaExact = applied(content, '\tprint("before")', '\\tprint("after")')
    expect(viaExact).toMatchObject({ strategy: 'exact', content: 'def hello():\n\tprint("after")\n' })
  })

  it('decodes \\r when the matched text has a real CR, never decodes \\n, and keeps a literal \\t in source', () => {
    expect(applied('line1\r\nline2\r\n', 'line1\\r\\nline2\\r\\n', 'replaced\\r\\n')).toMatchObject({
      strategy: 'escape_normalized',
      content: 'replaced\r\\n'
    })
    const newline = applied('line1\nline2\n', 'line1\nline2', 'alpha\\nbeta')
    expect(newline.content).toBe('alpha\\nbeta\n')
    const mixed = applied('def foo():\n\tpass\n', 'def foo():\n\tpass\n', 'def bar():\\n\\treturn 1\\n')
    expect(mixed.content).toBe('def bar():\\n\treturn 1\\n')
    const literal = applied('sep = "\\t"\n', 'sep = "\\t"\n', 'sep = "\\tab"\n')
    expect(literal.content).toBe('sep = "\\tab"\n')
  })
})

describe('fuzzyReplace: line endings, BOM and typography', () => {
  it('matches LF old_string in a CRLF file and keeps the file CRLF', () => {
    const result = applied('name: a\r\n  x = 1\r\n  y = 2\r\nend\r\n', 'x = 1\ny = 2', 'x = 3\ny = 4\nz = 5')
    expect(result.content).toBe('name: a\r\n  x = 3\r\n  y = 4\r\n  z = 5\r\nend\r\n')
    expect(applied('a\r\nb\r\n', 'a\r\nb', 'c\r\nd').content).toBe('c\r\nd\r\n')
  })

  it('matches CRLF arguments in an LF file and keeps the file LF', () => {
    expect(applied('a\nb\nc\n', 'a\r\nb', 'x\r\ny').content).toBe('x\ny\nc\n')
  })

  it('leaves the other line endings of a mixed-ending file alone', () => {
    expect(applied('a\r\nb\nc\r\n', 'b', 'B').content).toBe('a\r\nB\nc\r\n')
  })

  it('keeps a BOM and ignores one in old_string', () => {
    expect(applied('\uFEFFname: x\r\nbody\r\n', 'name: x', 'name: y').content).toBe('\uFEFFname: y\r\nbody\r\n')
    expect(applied('\uFEFFname: x\nbody', '\uFEFFname: x', 'name: y').content).toBe('\uFEFFname: y\nbody')
  })

  it('matches smart quotes, dashes, ellipsis, NBSP and keeps them where the edit does not touch', () => {
    const content = 'Line 1 \u2014 with dash\nLine 2 \u201cquoted\u201d text\nLine 3 plain'
    const result = applied(content, 'Line 1 -- with dash\nLine 2 "quoted" text\nLine 3 plain', 'Line 1 -- with dash\nLine 2 "quoted" text\nLine 3 changed')
    expect(result.content).toBe('Line 1 \u2014 with dash\nLine 2 \u201cquoted\u201d text\nLine 3 changed')
    expect(applied('Wait for it\u2026and done', 'Wait for it...and done', 'Wait for it...then done').content).toBe('Wait for it\u2026then done')
    expect(applied('offset = value \u2212 1\n', 'offset = value - 1', 'offset = delta - 1').content).toBe('offset = delta \u2212 1\n')
    expect(applied('標題\u3000第一章\nbody\n', '標題 第一章', '標題 第二章').content).toBe('標題\u3000第二章\nbody\n')
    expect(applied('a\u00a0b c', 'a b c', 'a b d')).toMatchObject({ content: 'a\u00a0b d', strategy: 'unicode_normalized' })
    expect(applied('it\u2019s  fine\n', "it's fine", "it's great")).toMatchObject({ content: 'it\u2019s great\n' })
  })

  it('drops blank lines that open or close old_string (and the matching ones in new_string)', () => {
    expect(applied('x\nfoo = 1\ny', '\n\nfoo = 1', '\n\nfoo = 2')).toMatchObject({ content: 'x\nfoo = 2\ny', strategy: 'exact+blank_lines_trimmed' })
    expect(applied('a\nlast', 'last\n', 'final\n').content).toBe('a\nfinal')
  })
})

describe('fuzzyReplace: never edits what the model did not mean', () => {
  it('refuses half-matching blocks and close-on-every-line blocks', () => {
    const content = 'config_value = 100\nthreshold = 200\n'
    const garbage = refused(content, 'config_value = 999\ntotally_unrelated_line_here', 'config_value = 42\ntotally_unrelated_line_here')
    expect(garbage.code).toBe('not_found')
    const close = refused('alpha one\nbeta two\ngamma three\n', 'alpha one\nbeta 2\ngamma three', 'alpha one\nbeta TWO\ngamma three')
    expect(close.candidates[0]).toContain('>2| beta two')
  })

  it('refuses similarity-only matches under replace_all', () => {
    const content = 'aX\nbY\naX\nbY\naX\nbY\n'
    expect(refused(content, 'aX\nbZ', 'QQ\nRR', true).code).toBe('not_found')
  })

  it('does not guess across a "..." elision', () => {
    expect(refused('a = 1\nb = 2\nc = 3\n', 'a = 1\n...\nc = 3', 'a = 1\nc = 4').code).toBe('not_found')
  })

  it('refuses an old_string longer than the file and says nothing resembles it when nothing does', () => {
    const result = refused('short', 'short\nand a second line that is not there', 'x')
    expect(result.code).toBe('not_found')
    const nothing = refused('abc\nxyz\n', 'totally_unique_qqq_www', 'x')
    expect(nothing.candidates).toEqual([])
    expect(nothing.error).toContain('Nothing in the file resembles old_string')
  })

  it('refuses a re-sent edit that already landed as not found, saying where new_string already is', () => {
    const first = applied('    a = 1\n    b = 2\n', 'a = 1\nb = 2', 'a = 1\nb = 3')
    const again = refused(first.content, 'a = 1\nb = 2', 'a = 1\nb = 3')
    expect(again.code).toBe('not_found')
    expect(again.error).toContain('new_string is already in the skill at lines 1-2')
  })

  it('does not claim a deletion was applied just because the kept part is there', () => {
    expect(refused('a\nc\n', 'a\nb', 'a').code).toBe('not_found')
  })
})

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

const words = ['foo', 'bar', 'x = 1', '"quoted"', "'single'", 'a-b', 'wait...', 'call(y)', 'it\'s', 'k: v']
const typographic: [string, string][] = [['"quoted"', '\u201cquoted\u201d'], ["'single'", '\u2018single\u2019'], ['a-b', 'a\u2013b'], ['wait...', 'wait\u2026'], ["it's", 'it\u2019s']]

function makeFile(next: () => number): string[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]
  const count = 4 + Math.floor(next() * 12)
  return Array.from({ length: count }, (_, i) => {
    const indent = pick(['', '  ', '    ', '\t', '        '])
    const tokens = [`id${i}`, ...Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(words))]
    let line = indent + tokens.join(pick([' ', ' ', '  ']))
    for (const [ascii, fancy] of typographic) if (next() < 0.3) line = line.replaceAll(ascii, fancy)
    return line
  })
}

/** What a model might send for a line: other indentation, other blank runs, ASCII or typographic punctuation. */
function perturb(line: string, next: () => number): string {
  let out = line.trimStart().replace(/ +/g, () => (next() < 0.5 ? ' ' : '  '))
  for (const [ascii, fancy] of typographic) {
    if (next() < 0.5) out = out.replaceAll(fancy, ascii)
    else if (next() < 0.3) out = out.replaceAll(ascii, fancy)
  }
  const indent = ['', ' ', '  ', '\t', '      '][Math.floor(next() * 5)]
  return indent + out + (next() < 0.3 ? ' ' : '')
}

describe('fuzzyReplace: randomized properties', () => {
  it('finds exactly the perturbed block (3,000 seeded cases)', () => {
    const next = random(424242)
    for (let round = 0; round < 3000; round++) {
      const lines = makeFile(next)
      const first = Math.floor(next() * lines.length)
      const size = 1 + Math.floor(next() * Math.min(3, lines.length - first))
      const oldString = lines.slice(first, first + size).map((line) => perturb(line, next)).join('\n')
      const content = lines.join('\n') + '\n'
      // The model indents new_string like its own old_string; the file's indentation must win.
      const newString = oldString.slice(0, oldString.length - oldString.trimStart().length) + 'REPLACED'
      const result = fuzzyReplace(content, oldString, newString)
      expect(result.ok, JSON.stringify({ content, oldString, result })).toBe(true)
      if (!result.ok) continue
      const out = result.content.split('\n')
      expect(out.slice(0, first)).toEqual(lines.slice(0, first))
      expect(out.slice(first + 1)).toEqual([...lines.slice(first + size), ''])
      expect(out[first].trim()).toBe('REPLACED')
      expect(out[first].startsWith(lines[first].slice(0, lines[first].length - lines[first].trimStart().length)), JSON.stringify({ content, oldString, out: result.content })).toBe(true)
    }
  })

  it('never applies a line with one token changed (2,000 seeded cases)', () => {
    const next = random(13579)
    for (let round = 0; round < 2000; round++) {
      const lines = makeFile(next)
      const target = Math.floor(next() * lines.length)
      const tokens = perturb(lines[target], next).split(' ')
      const candidates = tokens.map((token, i) => (/^(?:id\d+)?$/.test(token.trim()) ? -1 : i)).filter((i) => i >= 0)
      if (candidates.length === 0) continue
      tokens[candidates[Math.floor(next() * candidates.length)]] = `zz${round}`
      const content = lines.join('\n') + '\n'
      const result = fuzzyReplace(content, tokens.join(' '), 'REPLACED')
      expect(result.ok, JSON.stringify({ content, oldString: tokens.join(' '), result })).toBe(false)
      if (!result.ok) expect(result.code).toBe('not_found')
    }
  })
})

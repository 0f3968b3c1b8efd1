import { describe, expect, it } from 'vitest'
import { fuzzyReplace, type FuzzyReplaceFailure, type FuzzyReplaceResult } from '../../../electron/core/text/fuzzy-replace'
import { onTokenBoundaries } from '../../../electron/core/text/fuzzy/token-boundaries'

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

/** Whether `needle`, found at its first occurrence in `text`, sits on token boundaries. */
function bounded(text: string, needle: string): boolean {
  const start = text.indexOf(needle)
  if (start === -1) throw new Error(`${needle} is not in ${text}`)
  return onTokenBoundaries(text, needle, { start, end: start + needle.length })
}

describe('token boundaries: the attacks', () => {
  it('refuses "x = 1" inside "max  =  10" (was: whitespace_normalized edit to "may = 20")', () => {
    for (const replaceAll of [false, true]) {
      const result = refused('max  =  10\n', 'x = 1', 'y = 2', replaceAll)
      expect(result.code).toBe('not_found')
      expect(result.error).toContain('only inside longer words or numbers (L1: max  =  10)')
      expect(result.candidates[0]).toContain('>1| max  =  10')
    }
  })

  it('refuses an exact "timeout: 5" inside "timeout: 50", and replace_all edits only the whole one', () => {
    expect(refused('timeout: 50\n', 'timeout: 5', 'timeout: 9').code).toBe('not_found')
    expect(refused('timeout: 50\n', 'timeout: 5', 'timeout: 9', true).code).toBe('not_found')
    expect(applied('timeout: 5\ntimeout: 50\n', 'timeout: 5', 'timeout: 9', true)).toMatchObject({
      content: 'timeout: 9\ntimeout: 50\n',
      replacements: 1,
      strategy: 'exact'
    })
    // The whole-token match is unique once the one inside "50" no longer counts.
    expect(applied('timeout: 50\ntimeout: 5\n', 'timeout: 5', 'timeout: 9').content).toBe('timeout: 50\ntimeout: 9\n')
  })
})

describe('token boundaries: every strategy', () => {
  it('applies to escape_normalized and unicode_normalized matches', () => {
    expect(refused('a\tb1\n', 'a\\tb', 'c').code).toBe('not_found')
    expect(applied('a\tb 1\n', 'a\\tb', 'c')).toMatchObject({ content: 'c 1\n', strategy: 'escape_normalized' })
    expect(refused('it\u2019s fine10\n', "it's fine1", 'x').code).toBe('not_found')
    expect(applied('it\u2019s fine1\n', "it's fine1", "it's fine2")).toMatchObject({ content: 'it\u2019s fine2\n', strategy: 'unicode_normalized' })
  })

  it('keeps a whole-token match that overlaps a refused one', () => {
    expect(applied('x1 x1 x', 'x1 x', 'NEW')).toMatchObject({ content: 'x1 NEW', strategy: 'exact' })
    expect(applied('ab ab', 'ab', 'c', true)).toMatchObject({ content: 'c c', replacements: 2 })
  })

  it('checks only the edges where old_string has a word character', () => {
    expect(applied('max = 10\n', ' = ', ' := ').content).toBe('max := 10\n')
    expect(applied('call f(a, b)x\n', '(a, b)', '(b, a)').content).toBe('call f(b, a)x\n')
    expect(refused('max = 10\n', 'x =', 'y =').code).toBe('not_found')
    expect(refused('max = 10\n', '= 1', '= 2').code).toBe('not_found')
  })

  it('still tolerates whitespace, indentation and quote style on whole tokens', () => {
    expect(applied('  x  =  1\n', 'x = 1', 'x = 2').content).toBe('  x = 2\n')
    expect(applied('say \u201chi\u201d now\n', 'say "hi"', 'say "bye"').content).toBe('say \u201cbye\u201d now\n')
  })
})

describe('token boundaries: what a word character is', () => {
  it('treats letters, digits and underscore as word characters, other punctuation as edges', () => {
    for (const text of ['foo-bar', 'obj.foo()', '$foo', '"foo"', 'foo/bar', '(foo)', 'foo, bar']) expect(bounded(text, 'foo'), text).toBe(true)
    for (const text of ['foobar', 'foo_bar', 'foo1', 'afoo', '_foo', '9foo']) expect(bounded(text, 'foo'), text).toBe(false)
  })

  it('reads letters and digits of every script, and combining marks, as word characters', () => {
    expect(bounded('cafés', 'café')).toBe(false)
    expect(bounded('привет, мир', 'привет')).toBe(true)
    expect(bounded('привет', 'при')).toBe(false)
    expect(bounded('Straße', 'Stra')).toBe(false)
    expect(bounded('x ٣٤', '٣')).toBe(false)
    // "cafe" + U+0301: the accent belongs to the "e", so "cafe" ends inside a character.
    expect(bounded('cafe\u0301 noir', 'cafe')).toBe(false)
    expect(bounded('𝒳a', 'a')).toBe(false)
    expect(bounded('😀a b', 'a')).toBe(true)
  })

  it('lets each character of a script written without spaces be its own token', () => {
    expect(bounded('標題第一章内容', '第一章')).toBe(true)
    expect(bounded('API接口', 'API')).toBe(true)
    expect(bounded('ひらがなカタカナ', 'カタ')).toBe(true)
    expect(bounded('สวัสดีครับ', 'ครับ')).toBe(true)
    // A Thai vowel sign is a combining mark: the base consonant alone is not a whole character.
    expect(bounded('กิน', 'ก')).toBe(false)
    expect(applied('標題第一章内容\n', '第一章', '第二章').content).toBe('標題第二章内容\n')
  })

  it('continues a number across a decimal point, not across a sentence full stop', () => {
    expect(bounded('timeout: 5.5', 'timeout: 5')).toBe(false)
    expect(bounded('x = 0.1', '1')).toBe(false)
    expect(bounded('version 2.0.1', '2.0')).toBe(false)
    expect(bounded('Do step 1. Then go', 'step 1')).toBe(true)
    expect(bounded('v1.x', 'v1')).toBe(true)
    expect(refused('timeout: 5.5\n', 'timeout: 5', 'timeout: 6').code).toBe('not_found')
  })
})

describe('old_string absent is never a success', () => {
  it('refuses when old_string is absent but new_string is present where it would have been', () => {
    const content = '# Steps\n- Run tests\n- Deploy\n'
    const result = refused(content, '- Run lint', '- Run tests')
    expect(result.code).toBe('not_found')
    expect(result.error).toContain('new_string is already in the skill at line 2')
    expect(result.error).toContain('this patch changed nothing')
  })

  it('keeps a real no-op (old_string found, new_string the same text in the file\'s style) a success that changes nothing', () => {
    const content = 'say \u201chi\u201d\n'
    expect(applied(content, 'say "hi"', 'say \u201chi\u201d')).toMatchObject({ content, replacements: 1 })
  })
})

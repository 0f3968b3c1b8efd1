import { describe, expect, it } from 'vitest'
import { eraseFromLineStart } from '../../electron/cli/terminal-erase'

const up = (rows: number) => `\r\x1b[${rows}A\x1b[J`

describe('eraseFromLineStart', () => {
  it('clears the current row for text that did not wrap', () => {
    expect(eraseFromLineStart('This answer will', 80)).toBe('\r\x1b[J')
    expect(eraseFromLineStart('', 80)).toBe('\r\x1b[J')
  })

  it('goes up one row for each newline and each wrap', () => {
    expect(eraseFromLineStart('line one\nline two', 80)).toBe(up(1))
    expect(eraseFromLineStart('line one\n', 80)).toBe(up(1))
    expect(eraseFromLineStart('x'.repeat(25), 10)).toBe(up(2))
  })

  it('stays on a full row until the next character wraps it, as terminals do', () => {
    expect(eraseFromLineStart('x'.repeat(10), 10)).toBe('\r\x1b[J')
    expect(eraseFromLineStart('x'.repeat(11), 10)).toBe(up(1))
    expect(eraseFromLineStart(`${'x'.repeat(10)}\nmore`, 10)).toBe(up(1))
  })

  it('counts wide characters as two cells and combining marks as none', () => {
    expect(eraseFromLineStart('这是一个回答', 10)).toBe(up(1)) // 12 cells
    expect(eraseFromLineStart('一二三四五', 10)).toBe('\r\x1b[J') // exactly 10
    expect(eraseFromLineStart('xxxxxxxxx一', 10)).toBe(up(1)) // the wide one does not fit in the last cell
    expect(eraseFromLineStart('e\u0301'.repeat(10), 10)).toBe('\r\x1b[J')
  })

  it('refuses when it cannot count rows for sure', () => {
    expect(eraseFromLineStart('progress\rdone', 80)).toBeNull()
    expect(eraseFromLineStart('\x1b[31mred\x1b[0m', 80)).toBeNull()
    expect(eraseFromLineStart('text', undefined)).toBeNull()
    expect(eraseFromLineStart('text', 0)).toBeNull()
  })
})

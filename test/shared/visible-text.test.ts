import { describe, expect, it } from 'vitest'
import { hasHidingCharacters, visibleControls } from '../../shared/visible-text'

describe('text shown for a decision', () => {
  it('writes out every character that could overwrite, reorder or hide what is shown', () => {
    const hostile = 'ls\r\u001b[2K\u202e\u2066\u200b\u00ad\u061c\u3164\ufe0f\ufeff\u{E0041}\u009b; rm -rf ~'
    expect(visibleControls(hostile)).toBe('ls\\r\\x1b[2K\\u202e\\u2066\\u200b\\xad\\u061c\\u3164\\ufe0f\\ufeff\\u{e0041}\\x9b; rm -rf ~')
    expect(hasHidingCharacters(hostile)).toBe(true)
  })

  it('keeps tabs, newlines (unless asked) and ordinary text in any script as it is', () => {
    expect(visibleControls('a\tb\nc 中文 émoji 👍')).toBe('a\tb\nc 中文 émoji 👍')
    expect(visibleControls('a\nb', { newlines: false })).toBe('a\\nb')
    expect(hasHidingCharacters('plain text 中文')).toBe(false)
  })
})

import { describe, expect, it } from 'vitest'
import { remainingAfter, usageOf } from '../../../renderer/src/stores/memory'
import { dateBucket, snippetParts } from '../../../renderer/src/stores/sessions'
import { presetBaseURLs, localPresets, providerPresets } from '../../../shared/config'
import { localPresetList, presetOrder, presetURLs } from '../../../renderer/src/features/settings/presets'

describe('memory usage', () => {
  it('turns characters used into a percentage and warns past 90%', () => {
    expect(usageOf(0, 2200)).toEqual({ current: 0, limit: 2200, percent: 0, level: 'ok' })
    expect(usageOf(1100, 2200)).toMatchObject({ percent: 50, level: 'ok' })
    expect(usageOf(1980, 2200)).toMatchObject({ percent: 90, level: 'ok' })
    expect(usageOf(1981, 2200)).toMatchObject({ percent: 90, level: 'warn' })
    expect(usageOf(2150, 2200)).toMatchObject({ percent: 98, level: 'warn' })
    expect(usageOf(2200, 2200)).toMatchObject({ percent: 100, level: 'full' })
    // A store over its limit (the limit was lowered) still draws a full bar, not 120%.
    expect(usageOf(2640, 2200)).toMatchObject({ percent: 100, level: 'full' })
  })

  it('counts the separator a new entry costs', () => {
    const view = { entries: ['a'], current: 1, limit: 100, enabled: true }
    expect(remainingAfter(view, '')).toBe(99)
    expect(remainingAfter(view, 'hello')).toBe(100 - 1 - 5 - 3)
    expect(remainingAfter({ ...view, entries: [], current: 0 }, 'hello')).toBe(95)
    expect(remainingAfter({ ...view, entries: [], current: 0 }, '你好')).toBe(98)
  })
})

describe('search snippets', () => {
  it('splits on >>>match<<< marks and keeps everything else as plain text', () => {
    expect(snippetParts('we >>>deployed<<< to >>>staging<<< <b>today</b>')).toEqual([
      { text: 'we ', match: false },
      { text: 'deployed', match: true },
      { text: ' to ', match: false },
      { text: 'staging', match: true },
      { text: ' <b>today</b>', match: false }
    ])
    expect(snippetParts('no marks')).toEqual([{ text: 'no marks', match: false }])
  })
})

describe('sidebar date sections', () => {
  it('sorts times into today, yesterday, the last week and older', () => {
    const now = new Date(2026, 5, 15, 9, 30).getTime()
    expect(dateBucket(new Date(2026, 5, 15, 0, 5).getTime(), now)).toBe('today')
    expect(dateBucket(new Date(2026, 5, 14, 23, 0).getTime(), now)).toBe('yesterday')
    expect(dateBucket(new Date(2026, 5, 10).getTime(), now)).toBe('week')
    expect(dateBucket(new Date(2026, 4, 1).getTime(), now)).toBe('older')
  })
})

describe('provider presets', () => {
  it('mirror shared/config (the renderer copies them to keep zod out of its bundle)', () => {
    expect(presetURLs).toEqual(presetBaseURLs)
    expect([...presetOrder].sort()).toEqual([...providerPresets].sort())
    expect(new Set(localPresetList)).toEqual(new Set(localPresets))
  })
})

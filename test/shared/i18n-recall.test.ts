import { describe, expect, it } from 'vitest'
import { translate } from '../../shared/i18n'
import { enRecall } from '../../shared/i18n/en-recall'
import { zhCNRecall } from '../../shared/i18n/zh-CN-recall'

const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)/g)].map((match) => match[1]))].sort()

describe('the words of recalled memory and the memory providers', () => {
  it('zh-CN has every key, with the same placeholders, and both are reached through translate', () => {
    expect(Object.keys(zhCNRecall).sort()).toEqual(Object.keys(enRecall).sort())
    for (const key of Object.keys(enRecall) as Array<keyof typeof enRecall>) expect(placeholders(zhCNRecall[key]), key).toEqual(placeholders(enRecall[key]))
    expect(translate('en', 'recall.shown', { count: 1 })).toBe('Recalled 1 memory')
    expect(translate('zh-CN', 'recall.shown', { count: 2 })).toBe('召回了 2 条记忆')
  })
})

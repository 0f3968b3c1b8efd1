import { describe, expect, it } from 'vitest'
import { translate } from '../../shared/i18n'
import { en } from '../../shared/i18n/en'
import { zhCN } from '../../shared/i18n/zh-CN'

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)(?:\|[^}]*)?\}/g)].map((m) => m[1]).sort()

describe('i18n dictionaries', () => {
  it('has every English string in Chinese, translated, with the same placeholders', () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort())
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      expect(zhCN[key].trim(), key).not.toBe('')
      expect([...new Set(placeholders(zhCN[key]))], key).toEqual([...new Set(placeholders(en[key]))])
    }
  })

  it('fills placeholders and picks singular or plural by count', () => {
    expect(translate('en', 'skills.uses', { count: 1 })).toBe('1 use')
    expect(translate('en', 'skills.uses', { count: 4 })).toBe('4 uses')
    expect(translate('zh-CN', 'skills.uses', { count: 4 })).toBe('使用 4 次')
    expect(translate('en', 'approval.allowPrefix', { prefix: 'git log' })).toBe('Always allow "git log" without options that write files or run programs')
  })
})

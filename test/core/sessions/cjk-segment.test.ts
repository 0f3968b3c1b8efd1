import { describe, expect, it } from 'vitest'
import { markedWordsOf, segmentedWords } from '../../../electron/core/db/cjk-segment'
import { planSearch } from '../../../electron/core/sessions'
import { isContentWord, markedPiece } from '../../../electron/core/sessions/cjk-query'

const m = (word: string): string => markedPiece(word)

describe('segmentedWords (what the word index cannot find)', () => {
  it('splits Chinese and Japanese runs into dictionary words', () => {
    expect(segmentedWords('我们上次讨论的部署问题')).toEqual(['我们', '上次', '讨论', '的', '部署', '问题'])
    expect(segmentedWords('機械学習モデルの評価')).toEqual(['機械', '学習', 'モデル', 'の', '評価'])
  })

  it('keeps emoji as words, folds fullwidth letters and leaves plain Latin words to the word index', () => {
    expect(segmentedWords('发布成功 🚀 new release')).toEqual(['发布', '成功', '🚀'])
    expect(segmentedWords('外部ＡＰＩの制限')).toEqual(['外部', 'の', '制限', 'API'])
    expect(segmentedWords('plain English, café')).toEqual([])
  })
})

describe('markedWordsOf (the segmented column of a message)', () => {
  it('marks every word on both sides', () => {
    expect(markedWordsOf('数据库和服务器', null)).toBe('\u001f数据\u001f库\u001f和\u001f服务\u001f器\u001f')
  })

  it('segments a long message whole, in chunks, without losing a word at a chunk edge', () => {
    const sentence = '我们把数据库迁移到新的服务器。'
    const words = segmentedWords(sentence.repeat(500))
    expect(words.filter((w) => w === '数据').length).toBe(500)
    expect(words.filter((w) => w === '服务').length).toBe(500)
    // No punctuation at all: cut hard, and still every character is kept, pairs whole.
    const unbroken = segmentedWords('𠀀数'.repeat(3000)).join('')
    expect(unbroken).toBe('𠀀数'.repeat(3000).slice(0, 8000))
  })

  it('is null for messages the word index serves alone, present for emoji and fullwidth ones', () => {
    expect(markedWordsOf('Deploy the blog to fly.io', null)).toBeNull()
    expect(markedWordsOf('naïve café résumé', null)).toBeNull()
    expect(markedWordsOf(null, null)).toBeNull()
    expect(markedWordsOf('Party 🎉 on Friday', null)).toBe(m('🎉'))
    expect(markedWordsOf('ＳＱＬ is slow', null)).toBe(m('SQL'))
    expect(markedWordsOf(null, 'get_weather {"city":"東京"}')).toBe(m('東京'))
  })
})

describe('planSearch for Chinese, Japanese, emoji and fullwidth queries', () => {
  it('searches a two-character word as a marked word, and still by LIKE', () => {
    const plan = planSearch('部署')
    expect(plan.trigram).toBe(`"${m('部署')}"`)
    expect(plan.like).toEqual(['部署'])
    expect(plan.highlights).toEqual(['部署'])
  })

  it('searches the words of a longer run before its trigrams', () => {
    const plan = planSearch('部署失败')
    expect(plan.trigram?.split(' OR ').slice(0, 3)).toEqual([`"${m('部署')}"`, `"${m('失败')}"`, '"部署失败"'])
  })

  it('drops Japanese particles and endings, keeps content words', () => {
    const trigram = planSearch('電車が遅れた').trigram ?? ''
    expect(trigram).toContain(m('電車'))
    expect(trigram).toContain(m('遅れ'))
    expect(trigram).not.toContain(m('が'))
    expect(trigram).not.toContain(m('た'))
    expect(isContentWord('おすすめ')).toBe(true)
    expect(isContentWord('の')).toBe(false)
    expect(isContentWord('的')).toBe(false)
  })

  it('folds fullwidth letters, so ＡＰＩ searches the word index for API', () => {
    const plan = planSearch('ＡＰＩ レート制限')
    expect(plan.fts).toBe('"API"')
    expect(plan.trigram).toContain(m('API'))
    expect(plan.trigram).toContain(m('制限'))
  })

  it('keeps a plain English query on the word index alone', () => {
    expect(planSearch('deploy the blog').trigram).toBeNull()
  })

  it('searches an emoji alone', () => {
    const plan = planSearch('🚀')
    expect(plan.fts).toBeNull()
    expect(plan.trigram).toBe(`"${m('🚀')}"`)
  })
})

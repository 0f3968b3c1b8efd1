import { describe, expect, it } from 'vitest'
import { translator } from '../../shared/i18n'
import { describeTurnError } from '../../shared/i18n/describe'

const en = translator('en')
const zh = translator('zh-CN')

describe('attachment failures in the user language', () => {
  it('words a refused file from the problem main sends, in English and Chinese', () => {
    const refused = { code: 'ATTACHMENT', message: '"huge.png" is 25 MB; …', params: { code: 'too_large', name: 'huge.png', size: 25 * 1024 * 1024, limit: 20 * 1024 * 1024 } }
    expect(describeTurnError(refused, en)).toEqual({ text: '“huge.png” is 25 MB; the limit for this kind of file is 20 MB.', detail: null })
    expect(describeTurnError(refused, zh)).toEqual({ text: '“huge.png”大小为 25 MB，此类文件的上限是 20 MB。', detail: null })
    // Params that hold no known problem: main's own words.
    expect(describeTurnError({ code: 'ATTACHMENT', message: 'Something odd.', params: { code: 'new_kind' } }, zh)).toEqual({ text: 'Something odd.', detail: null })
  })

  it('says plainly that a model takes no images', () => {
    const failure = { code: 'images_unsupported', message: 'The model "gpt-3.5" at https://x/v1 does not take images (400: …).' }
    expect(describeTurnError(failure, en).text).toBe('This model does not take images. Choose a model that reads images, or send the message without them.')
    expect(describeTurnError(failure, zh).text).toBe('这个模型不接受图片。请换一个能读图片的模型，或去掉图片再发送。')
  })
})

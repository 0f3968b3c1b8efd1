import { describe, expect, it } from 'vitest'
import { translator } from '../../shared/i18n'
import { describeTurnError } from '../../shared/i18n/describe'
import { describeWorkspaceProblem, folderName } from '../../shared/i18n/describe-workspace'

describe('a refused workspace, in words', () => {
  it('says why from the error params, in the user’s language, and the English when the problem is unknown', () => {
    const params = { problem: 'forbidden', path: '/opt/Cairn/resources', root: '/opt/Cairn' }
    expect(describeWorkspaceProblem(params, translator('en'))).toBe('/opt/Cairn/resources is inside /opt/Cairn, where Cairn itself lives. Choose a folder of your own.')
    expect(describeWorkspaceProblem(params, translator('zh-CN'))).toBe('/opt/Cairn/resources 位于 Cairn 自身所在的 /opt/Cairn 中。请选择你自己的文件夹。')
    expect(describeWorkspaceProblem({ problem: 'missing', path: '/gone' }, translator('en'))).toBe('There is no folder /gone.')
    expect(describeWorkspaceProblem({ problem: 'from-the-future' }, translator('en'))).toBeNull()

    // A new conversation whose folder was refused fails its send with the same words.
    const english = 'Cannot create the folder /x: EACCES'
    expect(describeTurnError({ code: 'WORKSPACE', message: english, params: { problem: 'cannot_create', path: '/x' } }, translator('zh-CN'))).toEqual({
      text: 'Cairn 无法创建文件夹 /x。',
      detail: null
    })
    expect(describeTurnError({ code: 'WORKSPACE', message: english, params: {} }, translator('en'))).toEqual({ text: english, detail: null })
  })

  it('names a folder by its last part, on any OS', () => {
    expect(folderName('/home/me/Cairn')).toBe('Cairn')
    expect(folderName('C:\\Users\\me\\site\\')).toBe('site')
    expect(folderName('/')).toBe('/')
  })
})

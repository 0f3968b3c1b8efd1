import { afterEach, describe, expect, it } from 'vitest'
import { translator } from '../../../shared/i18n'
import { describeFailure } from '../../../shared/i18n/describe-errors'
import { readIpcError } from '../../../shared/ipc/define'
import { KeyedError } from '../../../shared/keyed-error'
import { dispatch } from '../../../electron/core/app/router'
import { SyncError } from '../../../electron/core/sync/types'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

/** Domain errors (KeyedError: settings, backups, imports, sync…) reach every face as a key with params. */

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const zh = translator('zh-CN')

describe('errors the core throws as keys', () => {
  it('sends an invalid setting as config.invalid with the setting and the issue, worded in Chinese by the window', async () => {
    fx = await appFixture()
    const bad = await fx.call('settings.update', { patch: { learning: { memoryNudgeInterval: -1 } } })
    expect(bad.ok).toBe(false)
    const error = readIpcError(!bad.ok && bad.error)!
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', key: 'config.invalid', params: { issues: expect.stringContaining('learning.memoryNudgeInterval') } })
    expect(error.message).toMatch(/has invalid settings:\n {2}- learning\.memoryNudgeInterval: .*\nCairn has not changed the file\.$/)
    expect(describeFailure(error, zh)).toMatch(/中有无效的设置：\n {2}- learning\.memoryNudgeInterval: .*\nCairn 没有改动该文件。$/)
  })

  it('words a keyed error no handler mapped (the router still puts its key in the envelope)', async () => {
    const handlers = { 'app.info': async () => Promise.reject(new SyncError('busy', 'sync.busy', {})) } as unknown as Parameters<typeof dispatch>[0]
    const result = await dispatch(handlers, 'app.info', undefined, { sender: 'browser' })
    expect(result).toEqual({
      ok: false,
      error: { code: 'INTERNAL', key: 'sync.busy', message: 'Another sync of this data home is running; try again when it has finished.' }
    })
    expect(describeFailure(readIpcError(!result.ok && result.error)!, zh)).toBe('这个数据目录的另一次同步正在进行；请等它结束后再试。')
  })

  it('keeps the English a domain error had before it was a key, and a plain detail as it came', () => {
    expect(new KeyedError('backup.no_file', { archive: '/tmp/x.tar.gz' }).message).toBe('There is no backup file at /tmp/x.tar.gz.')
    const detail = new SyncError('failed', 'fatal: bad object HEAD')
    expect([detail.message, detail.key, detail.params]).toEqual(['fatal: bad object HEAD', 'sync.failed', { detail: 'fatal: bad object HEAD' }])
  })
})

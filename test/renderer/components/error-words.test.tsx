import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { IpcError } from '../../../shared/ipc/define'
import { describeError } from '../../../renderer/src/ipc/error-words'
import { importFailureText } from '../../../renderer/src/features/settings/data/import-words'
import { IpcRequestError } from '../../../renderer/src/ipc/client'
import { translator } from '../../../shared/i18n'
import { config, session, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

/** A refused request arrives as a key with params, and every face words it in the user's language. */

const busyDelete = {
  'sessions.list': [session('s1', 'Deploy day')],
  'sessions.delete': () => {
    throw IpcError.of('BUSY', 'conversation.busy_delete', {})
  }
}

async function deleteFromMenu(labels: { more: string; menu: string; remove: string; confirm: string }) {
  const row = screen.getByRole('button', { name: /^Deploy day/ }).closest<HTMLElement>('.session-item')!
  fireEvent.click(within(row).getByRole('button', { name: labels.more }))
  fireEvent.click(within(screen.getByRole('menu', { name: labels.menu })).getByRole('menuitem', { name: labels.remove }))
  fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: labels.confirm }))
  await settle()
}

describe('errors worded from their keys', () => {
  it('shows a refused delete in Chinese when the app speaks Chinese', async () => {
    await renderApp({ ...busyDelete, 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    await deleteFromMenu({ more: '更多操作', menu: '“Deploy day”的操作', remove: '删除…', confirm: translator('zh-CN')('sessions.deleteConfirm') })
    expect(screen.getByText('请先停止此对话中的回答，再删除它。')).toBeTruthy()
    expect(screen.queryByText(/Stop the reply/)).toBeNull()
  })

  it('says the sentence the core used to write, in English', async () => {
    await renderApp(busyDelete)
    await deleteFromMenu({ more: 'More actions', menu: 'Actions for “Deploy day”', remove: 'Delete…', confirm: 'Delete conversation' })
    expect(screen.getByText('Stop the reply in this conversation before deleting it.')).toBeTruthy()
  })

  it('words a key with its params, and an unexpected error by its own message', () => {
    const zh = translator('zh-CN')
    const missing = new IpcRequestError('NOT_FOUND', 'There is no conversation s9.', 'sessions.get', { id: 's9' }, 'conversation.missing')
    expect(describeError(missing, zh)).toBe('没有对话 s9。')
    expect(describeError(new IpcRequestError('INTERNAL', 'disk full', 'sessions.get'), zh)).toBe('disk full')
    expect(describeError(new IpcRequestError('INTERNAL', '', 'sessions.get'), zh)).toBe('出了点问题：INTERNAL')
    expect(describeError('plain text', zh)).toBe('plain text')
  })

  it('words a domain error the core threw as a key (an invalid setting, an import source) in the window’s language', () => {
    const zh = translator('zh-CN')
    const issues = '  - learning.memoryNudgeInterval: Too small: expected number to be >=1'
    const invalid = new IpcRequestError('VALIDATION_FAILED', 'config.json has invalid settings: …', 'settings.update', { source: 'config.json', issues }, 'config.invalid')
    expect(describeError(invalid, zh)).toBe(`config.json 中有无效的设置：\n${issues}\nCairn 没有改动该文件。`)
    const source = { code: 'IMPORT_SOURCE', message: 'There is no Hermes home at /x.', params: { path: '/x' }, key: 'import.no_hermes_home' }
    expect(importFailureText(source, zh)).toBe('那里没有可导入的内容：/x 处没有 Hermes 主目录。')
    expect(importFailureText({ ...source, params: null, key: null }, translator('en'))).toBe('There is nothing to import there: There is no Hermes home at /x.')
  })
})

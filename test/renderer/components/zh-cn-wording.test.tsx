import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { RevertResult } from '../../../shared/ledger'
import { QuickApp } from '../../../renderer/src/features/quick/QuickApp'
import { englishLeft, textWithout } from '../helpers/english'
import { FakeFailure, type RouteHandlers } from '../helpers/fake-transport'
import { appInfo, config, ledger, message, session, settingsView, turnEvents } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

/** What the core reports as codes and data, worded in Chinese by the UI: no English but names, paths and commands. */

const chinese = { 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) }
const user = message('user', 'Please deploy')

async function openChat(extra: RouteHandlers = {}) {
  const harness = await renderApp({
    ...chinese,
    'sessions.list': [session('s1', 'Deploy day')],
    'sessions.get': { session: session('s1', 'Deploy day'), messages: [user], running: false },
    'chat.send': { sessionId: 's1', turnId: 't2' },
    ...extra
  })
  fireEvent.click(screen.getByRole('button', { name: /^Deploy day/ }))
  await settle()
  return harness
}

function emit(harness: Awaited<ReturnType<typeof openChat>>, events: Array<Record<string, unknown> & { type: Parameters<typeof turnEvents>[2][number]['type'] }>) {
  act(() => {
    for (const event of turnEvents('s1', 't2', events)) harness.bridge.emit('chat.event', event)
    harness.frames.run()
  })
}

describe('provider problems in Chinese', () => {
  it('the first-run card says which setting is missing, from the problem code', async () => {
    await renderApp({ ...chinese, 'app.info': appInfo({ providerProblem: { code: 'no_key', preset: 'openai', baseURL: 'https://api.openai.com/v1' } }) })
    expect(screen.getByRole('heading', { name: '连接一个模型即可开始' })).toBeTruthy()
    const notice = screen.getByText(/API 密钥/)
    expect(notice.textContent).toBe('没有 https://api.openai.com/v1 的 API 密钥。请在设置中填写。')
    expect(englishLeft(notice.closest('.setup-card')!.textContent!, ['https://api.openai.com/v1'])).toEqual([])
  })

  it('the quick prompt says it too', async () => {
    await renderApp({ ...chinese, 'app.info': appInfo({ providerProblem: { code: 'no_url', preset: 'custom', baseURL: '' } }) }, { ui: <QuickApp />, windowKind: 'quick' })
    const notice = screen.getAllByRole('status').find((node) => node.classList.contains('notice'))!
    expect(notice.textContent).toBe('尚未设置服务商地址。请在设置中填写接口地址，或选择一个服务商。打开设置')
  })

  it('a send refused for a missing model is worded from the error params, not the English message', async () => {
    await openChat({
      'chat.send': () => {
        throw new FakeFailure('PROVIDER', 'No model is chosen. Pick one in Settings, set provider.model in config.json, or set CAIRN_MODEL.', {
          problem: 'no_model',
          preset: 'openai',
          baseURL: 'https://api.openai.com/v1'
        })
      }
    })
    const box = screen.getByRole('textbox', { name: '消息' })
    fireEvent.change(box, { target: { value: '你好' } })
    fireEvent.keyDown(box, { key: 'Enter' })
    await settle()
    const alert = screen.getByRole('alert')
    expect(within(alert).getByRole('button', { name: '打开设置' })).toBeTruthy()
    expect(alert.textContent).toContain('尚未选择模型。请在设置中选择一个。')
    expect(englishLeft(alert.textContent!)).toEqual([])
  })
})

describe('approval cards in Chinese', () => {
  const card = () => screen.getByRole('region', { name: '需要你的许可' })
  /** The card without what it shows as data: the command or preview, the path, the tool's name and key names. */
  const words = () => textWithout(card(), 'pre, .approval-path, .approval-tool, kbd')

  it('words a command from its command line and folder', async () => {
    const harness = await openChat()
    emit(harness, [
      { type: 'turn_started', userMessageId: user.id },
      { type: 'approval_needed', requestId: 'r1', callId: 'c1', kind: 'command', tool: 'run_command', summary: 'Run `npm test` in /work/app', command: 'npm test', cwd: '/work/app', preview: 'npm test', prefix: 'npm test' }
    ])
    expect(within(card()).getByText('在 /work/app 中运行 `npm test`')).toBeTruthy()
    expect(within(card()).getByRole('button', { name: '始终允许“npm test”（可加参数，但不可加选项）' })).toBeTruthy()
    expect(englishLeft(words(), ['/work/app', 'npm test'])).toEqual([])
  })

  it.each([
    ['write_file', '/work/app/src/app.yml', '===\n--- a/src/app.yml\n+++ b/src/app.yml\n@@ -1,2 +1,2 @@\n name: demo\n-debug: true\n+debug: false\n', '覆盖 app.yml（+1 −1 行）'],
    ['edit_file', '/work/app/src/net.js', '===\n--- a/src/net.js\n+++ b/src/net.js\n@@ -3 +3,2 @@\n-retry(1)\n+retry(3)\n+log()\n', '编辑 net.js（+2 −1 行）'],
    ['write_file', '/work/app/notes.md', '# Plan\n\nShip it.\n', '写入 notes.md']
  ])('words %s of %s from the tool and its preview', async (tool, path, preview, title) => {
    const harness = await openChat()
    emit(harness, [
      { type: 'turn_started', userMessageId: user.id },
      { type: 'approval_needed', requestId: 'r2', callId: 'c2', kind: 'write', tool, summary: 'English summary for the CLI', path, preview }
    ])
    expect(within(card()).getByText(title)).toBeTruthy()
    expect(within(card()).getByText(path)).toBeTruthy()
    expect(englishLeft(words(), [path.split('/').pop()!])).toEqual([])
  })
})

describe('turn errors in Chinese', () => {
  it('words a provider failure by its code and keeps the provider’s own words as a detail line', async () => {
    const harness = await openChat()
    emit(harness, [
      { type: 'turn_started', userMessageId: user.id },
      { type: 'retry', attempt: 1, delayMs: 2000, reason: 'https://api.example.com/v1 had a server error (503).', discardPartial: false }
    ])
    expect(document.querySelector('.retry-line')!.textContent).toContain('服务商未响应，2 秒后重试（第 1 次）…')
    const english = 'https://api.example.com/v1 rejected the API key (401: Incorrect API key provided). Check the key in Settings or CAIRN_API_KEY.'
    emit(harness, [
      { type: 'error', code: 'auth', message: english, retryable: false },
      { type: 'turn_finished', reason: 'failed', text: '', usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }, toolCalls: 0 }
    ])
    const alert = screen.getByRole('alert')
    expect(textWithout(alert, '.notice-detail')).toBe('服务商拒绝了 API 密钥。请在设置中检查密钥。重试打开设置')
    expect(alert.querySelector('.notice-detail')!.textContent).toBe(english)
  })

  it.each([
    ['session_deleted', 'This conversation has been deleted. Start a new one to go on.', '此对话已被删除。请新建一个对话继续。'],
    ['not_configured', 'No model is chosen. Pick one in Settings, set provider.model in config.json, or set CAIRN_MODEL.', '尚未设置模型服务商。请打开设置，选择服务商和模型。']
  ])('says %s in Chinese only, since the English adds nothing', async (code, english, chineseText) => {
    const harness = await openChat()
    emit(harness, [
      { type: 'turn_started', userMessageId: user.id },
      { type: 'error', code, message: english, retryable: false }
    ])
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain(chineseText)
    expect(englishLeft(alert.textContent!)).toEqual([])
  })

  it('names a failed compression, with the reason underneath', async () => {
    const harness = await openChat()
    emit(harness, [
      { type: 'turn_started', userMessageId: user.id },
      { type: 'error', code: 'compression_failed', message: 'Could not condense the conversation: timeout', retryable: false }
    ])
    const alert = screen.getByRole('alert')
    expect(textWithout(alert, '.notice-detail')).toContain('无法压缩较早的对话来腾出空间。')
    expect(englishLeft(textWithout(alert, '.notice-detail'))).toEqual([])
  })
})

describe('revert refusals in Chinese', () => {
  const entry = ledger(1, { kind: 'memory.add', after: 'Prefers tea', source: 'user' })

  async function revertWith(result: RevertResult) {
    await renderApp({ ...chinese, 'timeline.list': { entries: [entry], reviews: [] }, 'timeline.revert': result })
    fireEvent.click(screen.getByRole('button', { name: '时间线' }))
    await settle()
    fireEvent.click(screen.getByRole('button', { name: '撤销' }))
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '撤销' }))
    await settle()
    return screen.getByRole('dialog', { name: '无法撤销' })
  }

  it.each([
    ['already_reverted', '这项更改已经撤销过了。'],
    ['not_found', '时间线中已没有这项更改。']
  ] as const)('words %s from its code', async (code, text) => {
    const dialog = await revertWith({ ok: false, code, error: 'Entry #1 was already reverted by #4.' })
    expect(within(dialog).getByRole('alert').textContent).toBe(text)
    expect(englishLeft(dialog.textContent!)).toEqual([])
  })

  it('words a conflict and shows both texts', async () => {
    const dialog = await revertWith({ ok: false, code: 'conflict', error: 'Cannot revert entry #1: it changed.', conflict: { expected: 'Prefers tea', actual: 'Prefers green tea' } })
    expect(within(dialog).getByRole('alert').textContent).toBe('这项更改之后内容又被修改过，因此 Cairn 没有改动它。')
    // The diff's lines are the user's own text; everything around them is Chinese.
    expect(englishLeft(textWithout(dialog, '.diff-scroll'))).toEqual([])
    expect([...dialog.querySelectorAll('tr[data-type="add"] .code')].map((cell) => cell.textContent)).toEqual(['Prefers green tea'])
  })

  it('says it could not revert, with the store’s English reason underneath, when there is no code', async () => {
    const dialog = await revertWith({ ok: false, error: 'Entry #1 cannot be reverted: the text it would restore is unsafe.' })
    const alert = within(dialog).getByRole('alert')
    expect(textWithout(alert, '.notice-detail')).toBe('Cairn 无法撤销这项更改。')
    expect(alert.querySelector('.notice-detail')!.textContent).toBe('Entry #1 cannot be reverted: the text it would restore is unsafe.')
  })

  it('words a keyed refusal underneath in Chinese, with its figures', async () => {
    const dialog = await revertWith({ ok: false, key: 'revert.memory_no_change', params: { id: 1, file: 'MEMORY.md' }, error: 'Entry #1 needs no revert: MEMORY.md is already in that state.' })
    const alert = within(dialog).getByRole('alert')
    expect(textWithout(alert, '.notice-detail')).toBe('Cairn 无法撤销这项更改。')
    expect(alert.querySelector('.notice-detail')!.textContent).toBe('条目 #1 无需撤销：MEMORY.md 已经是那个状态。')
    // The file's name is a figure; every word around it is Chinese.
    expect(englishLeft(dialog.textContent!.replace('MEMORY.md', ''))).toEqual([])
  })
})

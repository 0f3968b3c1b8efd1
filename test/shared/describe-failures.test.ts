import { describe, expect, it } from 'vitest'
import { translator } from '../../shared/i18n'
import { describeAlwaysAllow, describeApproval, describeProviderProblem, describeRevertFailure, describeTurnError, providerProblemOf } from '../../shared/i18n/describe'

const en = translator('en')
const zh = translator('zh-CN')

describe('provider problems', () => {
  it('words each code with its address', () => {
    const baseURL = 'https://openrouter.ai/api/v1'
    expect(describeProviderProblem({ code: 'no_key', baseURL }, en)).toBe('No API key for https://openrouter.ai/api/v1. Enter it in Settings.')
    expect(describeProviderProblem({ code: 'no_key', baseURL }, zh)).toBe('没有 https://openrouter.ai/api/v1 的 API 密钥。请在设置中填写。')
    expect(describeProviderProblem({ code: 'no_model', baseURL }, zh)).toBe('尚未选择模型。请在设置中选择一个。')
    expect(describeProviderProblem({ code: 'no_url', baseURL: '' }, en)).toMatch(/^No provider address is set/)
  })

  it('reads the problem back from a PROVIDER error’s params, and nothing it does not know', () => {
    expect(providerProblemOf({ problem: 'no_key', preset: 'openrouter', baseURL: 'https://openrouter.ai/api/v1' })).toEqual({ code: 'no_key', preset: 'openrouter', baseURL: 'https://openrouter.ai/api/v1' })
    expect(providerProblemOf({ problem: 'no_model' })).toEqual({ code: 'no_model', preset: 'custom', baseURL: '' })
    expect(providerProblemOf({ problem: 'toString' })).toBeNull()
    expect(providerProblemOf(null)).toBeNull()
  })
})

describe('turn errors', () => {
  it('translates a provider code and keeps its English message as the detail', () => {
    const message = 'https://api.example.com/v1 had a server error (502: bad gateway).'
    expect(describeTurnError({ code: 'server', message }, zh)).toEqual({ text: '服务商出现了服务器错误。', detail: message })
    expect(describeTurnError({ code: 'auth', message: 'x rejected the API key (401).' }, en)).toEqual({
      text: 'The provider rejected the API key. Check the key in Settings.',
      detail: 'x rejected the API key (401).'
    })
  })

  it('drops the English when the translation already says it all', () => {
    expect(describeTurnError({ code: 'session_deleted', message: 'This conversation has been deleted.' }, zh)).toEqual({ text: '此对话已被删除。请新建一个对话继续。', detail: null })
    expect(describeTurnError({ code: 'cancelled', message: 'Cancelled.' }, zh)).toEqual({ text: '已停止。', detail: null })
  })

  it('words a refused request from its params, and shows codes it does not know as written', () => {
    const refused = { code: 'PROVIDER', message: 'No model is chosen. Pick one in Settings, set provider.model in config.json, or set CAIRN_MODEL.', params: { problem: 'no_model', preset: 'openai', baseURL: 'https://api.openai.com/v1' } }
    expect(describeTurnError(refused, zh)).toEqual({ text: '尚未选择模型。请在设置中选择一个。', detail: null })
    expect(describeTurnError({ ...refused, params: null }, zh)).toEqual({ text: refused.message, detail: null })
    expect(describeTurnError({ code: 'BUSY', message: 'Cairn is still answering.' }, zh)).toEqual({ text: 'Cairn is still answering.', detail: null })
    expect(describeTurnError({ code: 'constructor', message: 'odd' }, zh)).toEqual({ text: 'odd', detail: null })
  })
})

describe('revert refusals', () => {
  it('words the known codes; a refusal without one says it failed, with the store’s reason', () => {
    expect(describeRevertFailure({ code: 'already_reverted', error: 'Entry #3 was already reverted by #5.' }, zh)).toEqual({ text: '这项更改已经撤销过了。', detail: null })
    expect(describeRevertFailure({ code: 'not_found', error: 'There is no timeline entry #9.' }, en)).toEqual({ text: 'This change is no longer in the timeline.', detail: null })
    expect(describeRevertFailure({ code: 'conflict', error: '…' }, zh).text).toBe('这项更改之后内容又被修改过，因此 Cairn 没有改动它。')
    expect(describeRevertFailure({ error: 'The archived copy is gone.' }, zh)).toEqual({ text: 'Cairn 无法撤销这项更改。', detail: 'The archived copy is gone.' })
    const keyed = { key: 'revert.skill_gone', params: { name: 'tea' }, error: "Skill 'tea' is already gone; there is nothing to revert." }
    expect(describeRevertFailure(keyed, zh)).toEqual({ text: 'Cairn 无法撤销这项更改。', detail: '技能“tea”已经不存在，没有可撤销的内容。' })
    expect(describeRevertFailure(keyed, en).detail).toBe(keyed.error)
    expect(describeRevertFailure({ ...keyed, key: 'revert.from_a_newer_version' }, zh).detail).toBe(keyed.error)
  })
})

describe('approval titles', () => {
  const diff = (name: string, body: string) => `===================================================================\n--- a/${name}\n+++ b/${name}\n${body}`

  it('words a command from its first line and folder', () => {
    expect(describeApproval({ kind: 'command', tool: 'run_command', command: 'npm test', cwd: '/work/app' }, en)).toBe('Run `npm test` in /work/app')
    expect(describeApproval({ kind: 'command', tool: 'run_command', command: 'npm test', cwd: '/work/app' }, zh)).toBe('在 /work/app 中运行 `npm test`')
    expect(describeApproval({ kind: 'command', tool: 'run_command', command: 'set -e\nmake build' }, en)).toBe('Run `set -e …`')
    const long = describeApproval({ kind: 'command', tool: 'run_command', command: `echo ${'x'.repeat(300)}` }, en)
    expect(long.length).toBeLessThan(140)
    expect(long).toMatch(/…`$/)
  })

  it('spells out control and bidi characters in an MCP server\'s tool and server names, so one cannot pose as another', () => {
    const request = { kind: 'mcp' as const, tool: 'mcp__files__read', mcpTool: 'read\u202Eelif_etirw', server: 'files\u200B', scopes: ['once' as const, 'session' as const, 'tool' as const] }
    expect(describeApproval(request, en)).toBe('Use read<U+202E>elif_etirw from files<U+200B>')
    expect(describeAlwaysAllow(request, en)?.label).toBe('Always allow read<U+202E>elif_etirw from files<U+200B>, with any arguments')
    expect(describeApproval({ kind: 'mcp', tool: 'mcp__everything__echo', mcpTool: 'echo', server: 'everything' }, en)).toBe('Use echo from everything')
  })

  it('words a write from the tool and its diff, counting lines only when every hunk is there', () => {
    const whole = diff('src/app.conf', '@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n\\ No newline at end of file\n')
    expect(describeApproval({ kind: 'write', tool: 'write_file', path: '/p/src/app.conf', preview: whole }, en)).toBe('Overwrite app.conf (+1 −1 lines)')
    expect(describeApproval({ kind: 'write', tool: 'edit_file', path: 'C:\\p\\src\\app.conf', preview: whole }, zh)).toBe('编辑 app.conf（+1 −1 行）')
    const cut = diff('src/app.conf', '@@ -1,40 +1,40 @@\n a\n-b\n+c\n…[9,000 chars cut]…\n')
    expect(describeApproval({ kind: 'write', tool: 'write_file', path: '/p/src/app.conf', preview: cut }, en)).toBe('Overwrite app.conf')
    expect(describeApproval({ kind: 'write', tool: 'edit_file', path: '/p/src/app.conf' }, en)).toBe('Edit app.conf')
  })

  it('does not mistake new content that is itself a patch for an overwrite', () => {
    const patch = diff('src/app.conf', '@@ -1 +1 @@\n-b\n+c\n')
    expect(describeApproval({ kind: 'write', tool: 'write_file', path: '/p/fix.patch', preview: patch }, en)).toBe('Write fix.patch')
    expect(describeApproval({ kind: 'write', tool: 'write_file', path: '/p/notes.md', preview: '# Notes\n' }, zh)).toBe('写入 notes.md')
  })
})

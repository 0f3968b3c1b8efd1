import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { runTool } from '../../../electron/core/tools/run-tool'
import { newTurnState, type ApprovalRequest, type ToolContext, type ToolDef } from '../../../electron/core/tools/types'
import { createEditFileTool } from '../../../electron/core/workspace/edit-file'

type Result = Record<string, any>

let workspace: string
let requests: ApprovalRequest[]
const tool = createEditFileTool({}) as ToolDef

const source = [
  'export function connect(options) {',
  '  const timeout = 30',
  '  if (options.retry) {',
  "    console.log('retrying')",
  '  }',
  '  return open(timeout)',
  '}',
  ''
].join('\n')

function approver(answer: boolean): NonNullable<ToolContext['approve']> {
  return async (request) => {
    requests.push(request)
    return answer
  }
}

/** `null` means nobody can approve (no `ctx.approve`). */
async function edit(args: unknown, approve: ToolContext['approve'] | null = approver(true)): Promise<Result> {
  return (await runTool(tool, args, { write: { source: 'agent' }, turn: newTurnState(), workspace, approve: approve ?? undefined })) as Result
}

function file(name = 'net.js'): string {
  return readFileSync(join(workspace, name), 'utf8')
}

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'cairn-'))
  requests = []
  writeFileSync(join(workspace, 'net.js'), source)
})

describe('edit_file', () => {
  it('replaces one passage after approval, showing the diff', async () => {
    const result = await edit({ path: 'net.js', old_string: '  const timeout = 30', new_string: '  const timeout = 60' })
    expect(result).toMatchObject({ success: true, path: 'net.js', replacements: 1, strategy: 'exact' })
    expect(result.diff).toContain('-  const timeout = 30\n+  const timeout = 60')
    expect(file()).toBe(source.replace('= 30', '= 60'))
    expect(requests).toHaveLength(1)
    expect(requests[0]).toMatchObject({ kind: 'write', tool: 'edit_file', path: join(workspace, 'net.js') })
    expect(requests[0].preview).toContain('--- a/net.js')
    expect(requests[0].preview).toContain('+  const timeout = 60')
    expect(requests[0].summary).toBe('Edit net.js (1 replacement, +1 −1 lines)')
    expect(readdirSync(workspace)).toEqual(['net.js'])
  })

  it('tolerates indentation the model got wrong', async () => {
    const result = await edit({ path: 'net.js', old_string: "if (options.retry) {\nconsole.log('retrying')", new_string: "  if (options.retry) {\n    console.log('again')" })
    expect(result.success).toBe(true)
    expect(file()).toContain("    console.log('again')")
    expect(file()).not.toContain('retrying')
  })

  it('never edits a region that is merely similar', async () => {
    const result = await edit({ path: 'net.js', old_string: '  const timeout = 300', new_string: '  const timeout = 5' })
    expect(result.success).toBe(false)
    expect(result.code).toBe('not_found')
    expect(result.error).toContain('Re-read the file with read_file')
    expect(result.error).not.toContain('skill')
    expect(result.candidates[0]).toContain('const timeout = 30')
    expect(file()).toBe(source)
    expect(requests).toEqual([])
  })

  it('asks for more context when old_string is ambiguous, and replaces all when told to', async () => {
    writeFileSync(join(workspace, 'dup.txt'), 'color = red\nsize = 1\ncolor = red\n')
    const ambiguous = await edit({ path: 'dup.txt', old_string: 'color = red', new_string: 'color = blue' })
    expect(ambiguous).toMatchObject({ success: false, code: 'ambiguous' })
    expect(file('dup.txt')).toBe('color = red\nsize = 1\ncolor = red\n')
    const all = await edit({ path: 'dup.txt', old_string: 'color = red', new_string: 'color = blue', replace_all: true })
    expect(all).toMatchObject({ success: true, replacements: 2 })
    expect(file('dup.txt')).toBe('color = blue\nsize = 1\ncolor = blue\n')
  })

  it('keeps CRLF line endings and a byte-order mark', async () => {
    writeFileSync(join(workspace, 'win.txt'), '\uFEFFfirst\r\nsecond\r\nthird\r\n')
    const result = await edit({ path: 'win.txt', old_string: 'second\nthird', new_string: 'SECOND\nTHIRD' })
    expect(result.success).toBe(true)
    expect(readFileSync(join(workspace, 'win.txt'))).toEqual(Buffer.from('\uFEFFfirst\r\nSECOND\r\nTHIRD\r\n'))
  })

  it('refuses an edit sent twice as not found, says new_string is already there, and does not ask again', async () => {
    const args = { path: 'net.js', old_string: '  const timeout = 30', new_string: '  const timeout = 60' }
    await edit(args)
    const again = await edit(args)
    expect(again).toMatchObject({ success: false, code: 'not_found' })
    expect(again.error).toContain('new_string is already in the file at line 2')
    expect(requests).toHaveLength(1)
    expect(file()).toBe(source.replace('= 30', '= 60'))
  })

  it('matches whole tokens only: "x = 1" is not in "max  =  10", "timeout: 5" is not in "timeout: 50"', async () => {
    const text = 'const max  =  10\nconst timeout: 50\n'
    writeFileSync(join(workspace, 'limits.ts'), text)
    for (const replace_all of [false, true]) {
      const inside = await edit({ path: 'limits.ts', old_string: 'x = 1', new_string: 'y = 2', replace_all })
      expect(inside).toMatchObject({ success: false, code: 'not_found' })
      expect(inside.error).toContain('only inside longer words or numbers (L1: const max  =  10)')
      expect(inside.candidates[0]).toContain('const max  =  10')
    }
    const exact = await edit({ path: 'limits.ts', old_string: 'timeout: 5', new_string: 'timeout: 9' })
    expect(exact).toMatchObject({ success: false, code: 'not_found' })
    expect(file('limits.ts')).toBe(text)
    expect(requests).toEqual([])
  })

  it('fails when old_string is absent even though new_string is already there', async () => {
    const result = await edit({ path: 'net.js', old_string: '  const timeout = 10', new_string: '  const timeout = 30' })
    expect(result).toMatchObject({ success: false, code: 'not_found' })
    expect(result.error).toContain('new_string is already in the file at line 2')
    expect(file()).toBe(source)
    expect(requests).toEqual([])
  })

  it('reports a real no-op (old_string found, same text in the file\'s quote style) as a success that changed nothing', async () => {
    writeFileSync(join(workspace, 'quote.md'), 'Say \u201chi\u201d.\n')
    const result = await edit({ path: 'quote.md', old_string: 'Say "hi".', new_string: 'Say \u201chi\u201d.' })
    expect(result).toMatchObject({ success: true, replacements: 0, unchanged: true })
    expect(result.note).toContain('nothing was changed')
    expect(requests).toEqual([])
  })

  it('leaves the file untouched when the user declines', async () => {
    const result = await edit({ path: 'net.js', old_string: '  const timeout = 30', new_string: '  const timeout = 60' }, approver(false))
    expect(result).toMatchObject({ success: false, denied: true })
    expect(file()).toBe(source)
  })

  it('refuses when nobody can approve', async () => {
    const result = await edit({ path: 'net.js', old_string: '  const timeout = 30', new_string: '  const timeout = 60' }, null)
    expect(result.success).toBe(false)
    expect(result.error).toContain('nobody can approve')
    expect(file()).toBe(source)
  })

  it('points to write_file when the file does not exist', async () => {
    const result = await edit({ path: 'nett.js', old_string: 'a', new_string: 'b' })
    expect(result.error).toContain('Did you mean: net.js')
    expect(result.error).toContain('write_file')
    expect(existsSync(join(workspace, 'nett.js'))).toBe(false)
  })

  it('refuses files that are not valid UTF-8 rather than corrupting them', async () => {
    const latin1 = Buffer.from('caf\xe9 = 1\n', 'latin1')
    writeFileSync(join(workspace, 'legacy.txt'), latin1)
    const result = await edit({ path: 'legacy.txt', old_string: '= 1', new_string: '= 2' })
    expect(result.error).toContain('not valid UTF-8')
    expect(readFileSync(join(workspace, 'legacy.txt'))).toEqual(latin1)
  })
})

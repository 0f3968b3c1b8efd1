import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { runTool } from '../../../electron/core/tools/run-tool'
import { newTurnState, type ApprovalRequest, type ToolContext, type ToolDef } from '../../../electron/core/tools/types'
import { createWriteFileTool } from '../../../electron/core/workspace/write-file'

type Result = Record<string, any>

let workspace: string
let requests: ApprovalRequest[]
const tool = createWriteFileTool({}) as ToolDef

function approver(answer: boolean, during?: () => void): ToolContext['approve'] {
  return async (request) => {
    requests.push(request)
    during?.()
    return answer
  }
}

/** `null` means nobody can approve (no `ctx.approve`). */
async function write(args: unknown, approve: ToolContext['approve'] | null = approver(true)): Promise<Result> {
  return (await runTool(tool, args, { write: { source: 'agent' }, turn: newTurnState(), workspace, approve: approve ?? undefined })) as Result
}

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'cairn-'))
  requests = []
})

describe('write_file', () => {
  it('creates a file and its missing folders after approval, previewing the content', async () => {
    const result = await write({ path: 'docs/notes/plan.md', content: '# Plan\nShip it ✓\n' })
    expect(result).toEqual({ success: true, path: 'docs/notes/plan.md', bytes_written: 19, created: true })
    expect(readFileSync(join(workspace, 'docs/notes/plan.md'), 'utf8')).toBe('# Plan\nShip it ✓\n')
    expect(requests).toHaveLength(1)
    expect(requests[0]).toMatchObject({ kind: 'write', tool: 'write_file', path: join(workspace, 'docs/notes/plan.md'), preview: '# Plan\nShip it ✓\n' })
    expect(requests[0].summary).toContain('Create docs/notes/plan.md')
  })

  it('shows a unified diff against the current file when overwriting', async () => {
    writeFileSync(join(workspace, 'app.conf'), 'port = 80\nhost = a\n')
    const result = await write({ path: 'app.conf', content: 'port = 8080\nhost = a\n' })
    expect(result).toMatchObject({ success: true, created: false })
    expect(requests[0].preview).toContain('--- a/app.conf')
    expect(requests[0].preview).toContain('-port = 80\n+port = 8080\n')
    expect(requests[0].summary).toBe('Overwrite app.conf (+1 −1 lines)')
    expect(readFileSync(join(workspace, 'app.conf'), 'utf8')).toBe('port = 8080\nhost = a\n')
  })

  it('leaves the file untouched when the user declines', async () => {
    writeFileSync(join(workspace, 'keep.txt'), 'original')
    const result = await write({ path: 'keep.txt', content: 'replaced' }, approver(false))
    expect(result).toMatchObject({ success: false, denied: true })
    expect(result.error).toMatch(/^The user declined/)
    expect(readFileSync(join(workspace, 'keep.txt'), 'utf8')).toBe('original')
  })

  it('marks a write outside the workspace so no earlier grant covers it, and offers only "once"', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'cairn-elsewhere-'))
    await write({ path: 'inside.txt', content: 'a' })
    await write({ path: join(elsewhere, 'outside.txt'), content: 'b' })
    expect(requests[0]).not.toHaveProperty('outsideWorkspace')
    expect(requests[1]).toMatchObject({ outsideWorkspace: true, scopes: ['once'] })
  })

  it('refuses to write when nobody can approve', async () => {
    const result = await write({ path: 'new.txt', content: 'x' }, null)
    expect(result.success).toBe(false)
    expect(result.error).toContain('nobody can approve')
    expect(existsSync(join(workspace, 'new.txt'))).toBe(false)
  })

  it('does not overwrite a change made while the user was deciding', async () => {
    const path = join(workspace, 'race.txt')
    writeFileSync(path, 'v1')
    const result = await write({ path: 'race.txt', content: 'from the model' }, approver(true, () => writeFileSync(path, 'edited by the user')))
    expect(result.success).toBe(false)
    expect(result.error).toContain('changed on disk while waiting for approval')
    expect(readFileSync(path, 'utf8')).toBe('edited by the user')
  })

  it('replaces the file atomically: readers of the old file never see a half-written one, no temp files remain', async () => {
    const path = join(workspace, 'data.txt')
    writeFileSync(path, 'old content')
    const fd = openSync(path, 'r')
    await write({ path: 'data.txt', content: 'new content that is longer' })
    const buffer = Buffer.alloc(64)
    const read = readSync(fd, buffer, 0, 64, 0)
    closeSync(fd)
    expect(buffer.subarray(0, read).toString()).toBe('old content')
    expect(readFileSync(path, 'utf8')).toBe('new content that is longer')
    expect(readdirSync(workspace)).toEqual(['data.txt'])
  })

  it('keeps an executable script executable', async () => {
    const path = join(workspace, 'run.sh')
    writeFileSync(path, '#!/bin/sh\necho 1\n')
    chmodSync(path, 0o755)
    await write({ path: 'run.sh', content: '#!/bin/sh\necho 2\n' })
    expect(statSync(path).mode & 0o777).toBe(0o755)
  })

  it('skips approval when the content is already there', async () => {
    writeFileSync(join(workspace, 'same.txt'), 'same')
    const result = await write({ path: 'same.txt', content: 'same' })
    expect(result).toMatchObject({ success: true, unchanged: true, bytes_written: 0 })
    expect(requests).toEqual([])
  })

  it('caps a huge preview', async () => {
    await write({ path: 'big.txt', content: 'x'.repeat(80_000) })
    const preview = requests[0].preview!
    expect(preview.length).toBeLessThanOrEqual(20_000)
    const kept = /^x+/.exec(preview)![0].length
    expect(preview.slice(kept)).toBe(`\n…[${(80_000 - kept).toLocaleString('en-US')} chars cut]…\n`)
    expect(readFileSync(join(workspace, 'big.txt'), 'utf8')).toHaveLength(80_000)
  })

  it('refuses a folder as the target, or a path through a file', async () => {
    mkdirSync(join(workspace, 'src'))
    expect((await write({ path: 'src', content: 'x' })).error).toContain('is a folder')
    writeFileSync(join(workspace, 'notes'), 'a file')
    expect((await write({ path: 'notes/today.md', content: 'x' })).error).toContain(`${join(workspace, 'notes')} is a file, not a folder`)
    expect(requests).toEqual([])
    expect(readFileSync(join(workspace, 'notes'), 'utf8')).toBe('a file')
  })
})

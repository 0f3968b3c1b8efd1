import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { runTool } from '../../../electron/core/tools/run-tool'
import { newTurnState, type ToolContext, type ToolDef } from '../../../electron/core/tools/types'
import { createListDirTool } from '../../../electron/core/workspace/list-dir'
import { createReadFileTool } from '../../../electron/core/workspace/read-file'

type Result = Record<string, any>

let workspace: string
let tools: Map<string, ToolDef>

function ctx(): ToolContext {
  return { write: { source: 'agent' }, turn: newTurnState(), workspace }
}

async function call(name: string, args: unknown): Promise<Result> {
  return (await runTool(tools.get(name)!, args, ctx())) as Result
}

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'cairn-'))
  tools = new Map([createReadFileTool({}), createListDirTool({})].map((tool) => [tool.name, tool as ToolDef]))
})

describe('read_file', () => {
  it('shows numbered lines and the total', async () => {
    writeFileSync(join(workspace, 'notes.txt'), 'alpha\nbeta\r\ngamma')
    const result = await call('read_file', { path: 'notes.txt' })
    expect(result).toMatchObject({ success: true, path: 'notes.txt', total_lines: 3, truncated: false })
    expect(result.content).toBe('    1| alpha\n    2| beta\n    3| gamma')
  })

  it('reads a window from an offset and says how to continue', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`)
    writeFileSync(join(workspace, 'log.txt'), lines.join('\n') + '\n')
    const result = await call('read_file', { path: 'log.txt', offset: 10, limit: 5 })
    expect(result.content.split('\n')).toEqual(['   10| line 10', '   11| line 11', '   12| line 12', '   13| line 13', '   14| line 14'])
    expect(result).toMatchObject({ total_lines: 50, truncated: true, start_line: 10, end_line: 14 })
    expect(result.hint).toContain('offset 15')
  })

  it('caps a long file at 2,000 lines', async () => {
    writeFileSync(join(workspace, 'big.txt'), Array.from({ length: 3_000 }, (_, i) => `row ${i + 1}`).join('\n'))
    const result = await call('read_file', { path: 'big.txt' })
    expect(result.content.split('\n')).toHaveLength(2_000)
    expect(result).toMatchObject({ total_lines: 3_000, truncated: true, end_line: 2_000 })
    expect(result.hint).toContain('offset 2001')
    const next = await call('read_file', { path: 'big.txt', offset: 2_001 })
    expect(next).toMatchObject({ end_line: 3_000, truncated: false })
    expect(next.content.split('\n')[0]).toBe(' 2001| row 2001')
  })

  it('caps by characters and cuts very long lines', async () => {
    const wide = 'x'.repeat(1_900)
    writeFileSync(join(workspace, 'wide.txt'), Array.from({ length: 200 }, () => wide).join('\n') + '\n' + 'y'.repeat(10_000))
    const result = await call('read_file', { path: 'wide.txt' })
    expect(result.content.length).toBeLessThanOrEqual(100_000)
    expect(result.truncated).toBe(true)
    expect(result.end_line).toBeLessThan(200)
    expect(result.hint).toContain(`offset ${result.end_line + 1}`)
    const last = await call('read_file', { path: 'wide.txt', offset: 201 })
    expect(last.content).toContain('[line cut: 10,000 chars]')
    expect(last.content.length).toBeLessThan(2_100)
  })

  it('drops a byte-order mark from the first line', async () => {
    writeFileSync(join(workspace, 'bom.txt'), '\uFEFFhello\n')
    expect((await call('read_file', { path: 'bom.txt' })).content).toBe('    1| hello')
  })

  it('refuses binary files instead of dumping them', async () => {
    writeFileSync(join(workspace, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x1a]))
    const result = await call('read_file', { path: 'image.png' })
    expect(result.success).toBe(false)
    expect(result.error).toMatch(/binary file/)
  })

  it('suggests the closest names when the file is missing', async () => {
    writeFileSync(join(workspace, 'config.json'), '{}')
    writeFileSync(join(workspace, 'README.md'), '# hi')
    const result = await call('read_file', { path: 'confg.json' })
    expect(result.success).toBe(false)
    expect(result.error).toContain('Did you mean: config.json')
    expect(result.error).not.toContain('README.md')
  })

  it('names the nearest existing folder when the folder is missing too', async () => {
    const result = await call('read_file', { path: 'no/such/file.txt' })
    expect(result.error).toContain(`nearest existing folder is ${workspace}`)
  })

  it('rejects an offset past the end with the real line count', async () => {
    writeFileSync(join(workspace, 'short.txt'), 'a\nb\n')
    const result = await call('read_file', { path: 'short.txt', offset: 9 })
    expect(result).toMatchObject({ success: false })
    expect(result.error).toContain('has 2 lines')
  })

  it('sends folders to list_dir', async () => {
    mkdirSync(join(workspace, 'src'))
    expect((await call('read_file', { path: 'src' })).error).toContain('list_dir')
  })

  it('reads absolute paths outside the workspace once the user allows it', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'cairn-'))
    writeFileSync(join(elsewhere, 'x.txt'), 'outside')
    const result = (await runTool(tools.get('read_file')!, { path: join(elsewhere, 'x.txt') }, { ...ctx(), approve: async () => true })) as Result
    expect(result).toMatchObject({ success: true, path: join(elsewhere, 'x.txt'), content: '    1| outside' })
  })
})

describe('list_dir', () => {
  beforeEach(() => {
    mkdirSync(join(workspace, 'src', 'deep', 'deeper'), { recursive: true })
    writeFileSync(join(workspace, 'src', 'index.ts'), 'export {}\n')
    writeFileSync(join(workspace, 'src', 'deep', 'a.ts'), '')
    writeFileSync(join(workspace, 'src', 'deep', 'deeper', 'b.ts'), '')
    writeFileSync(join(workspace, 'package.json'), '{"name":"x"}')
    writeFileSync(join(workspace, '.env'), 'SECRET=1')
    mkdirSync(join(workspace, 'node_modules', 'left-pad'), { recursive: true })
    mkdirSync(join(workspace, '.git'), { recursive: true })
  })

  it('lists one level, folders first, with types and sizes', async () => {
    const result = await call('list_dir', {})
    expect(result.success).toBe(true)
    expect(result.entries).toEqual([
      { path: 'node_modules', type: 'dir', contents_skipped: true },
      { path: 'src', type: 'dir' },
      { path: 'package.json', type: 'file', size: 12 }
    ])
    expect(result.note).toContain('2 hidden entries')
  })

  it('descends to the requested depth in tree order without opening node_modules or .git', async () => {
    const result = await call('list_dir', { depth: 3, show_hidden: true })
    expect(result.entries.map((entry: Result) => entry.path)).toEqual([
      '.git',
      'node_modules',
      'src',
      'src/deep',
      'src/deep/deeper',
      'src/deep/a.ts',
      'src/index.ts',
      '.env',
      'package.json'
    ])
    expect(result.entries.find((entry: Result) => entry.path === '.git').contents_skipped).toBe(true)
  })

  it('reports symlinks without following them', async () => {
    symlinkSync(join(workspace, 'src'), join(workspace, 'link'))
    const result = await call('list_dir', { depth: 2 })
    expect(result.entries).toContainEqual({ path: 'link', type: 'symlink', target: join(workspace, 'src') })
    expect(result.entries.some((entry: Result) => entry.path.startsWith('link/'))).toBe(false)
  })

  it('caps huge folders at 500 entries with a note', async () => {
    const crowd = join(workspace, 'crowd')
    mkdirSync(crowd)
    for (let i = 0; i < 620; i++) writeFileSync(join(crowd, `f${String(i).padStart(4, '0')}.txt`), '')
    const result = await call('list_dir', { path: 'crowd' })
    expect(result.entries).toHaveLength(500)
    expect(result.truncated).toBe(true)
    expect(result.note).toContain('first 500 entries')
  })

  it('rejects a depth over 4 and explains files and missing folders', async () => {
    expect((await call('list_dir', { depth: 9 })).error).toContain('depth')
    expect((await call('list_dir', { path: 'package.json' })).error).toContain('read_file')
    expect((await call('list_dir', { path: 'sorc' })).error).toContain('Did you mean: src')
  })
})

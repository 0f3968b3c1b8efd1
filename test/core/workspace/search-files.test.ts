import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { runTool } from '../../../electron/core/tools/run-tool'
import { newTurnState, type ToolContext, type ToolDef } from '../../../electron/core/tools/types'
import { createSearchFilesTool } from '../../../electron/core/workspace/search-files'

type Result = Record<string, any>

let workspace: string
const tool = createSearchFilesTool({}) as ToolDef

async function search(args: unknown, extra: Partial<ToolContext> = {}): Promise<Result> {
  return (await runTool(tool, args, { write: { source: 'agent' }, turn: newTurnState(), workspace, ...extra })) as Result
}

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'cairn-'))
  mkdirSync(join(workspace, 'src', 'util'), { recursive: true })
  mkdirSync(join(workspace, 'node_modules', 'dep'), { recursive: true })
  mkdirSync(join(workspace, '.git'), { recursive: true })
  writeFileSync(join(workspace, 'src', 'app.ts'), "import { parse } from './util/parse'\nconsole.log(parse('TODO: ship'))\n")
  writeFileSync(join(workspace, 'src', 'util', 'parse.ts'), 'export function parse(s: string) {\n  // todo: handle errors\n  return s\n}\n')
  writeFileSync(join(workspace, 'src', 'util', 'parse.test.ts'), "test('parse', () => {})\n")
  writeFileSync(join(workspace, 'README.md'), '# Demo\nRun the app. TODO: docs\n')
  writeFileSync(join(workspace, 'node_modules', 'dep', 'index.ts'), '// TODO inside a dependency\n')
  writeFileSync(join(workspace, '.git', 'config.ts'), '// TODO inside git\n')
  writeFileSync(join(workspace, 'blob.bin'), Buffer.concat([Buffer.from('TODO'), Buffer.alloc(16)]))
})

describe('search_files', () => {
  it('finds files by a name glob in any folder, skipping node_modules and .git', async () => {
    const result = await search({ name: '*.ts' })
    expect(result).toMatchObject({ success: true, truncated: false })
    expect(result.files).toEqual(['src/app.ts', 'src/util/parse.test.ts', 'src/util/parse.ts'])
  })

  it('matches globs with folders against the relative path', async () => {
    expect((await search({ name: 'src/**/*.test.ts' })).files).toEqual(['src/util/parse.test.ts'])
    expect((await search({ name: 'util' })).files).toEqual(['src/util/'])
  })

  it('finds text case-insensitively by default, as path:line: text', async () => {
    const result = await search({ content: 'todo' })
    expect(result.matches).toEqual(['README.md:2: Run the app. TODO: docs', "src/app.ts:2: console.log(parse('TODO: ship'))", 'src/util/parse.ts:2: // todo: handle errors'])
    expect(result.files_with_matches).toBe(3)
    expect(result.skipped_binary).toBe(1)
  })

  it('honours case_sensitive and combines name with content', async () => {
    const result = await search({ content: 'TODO', case_sensitive: true, name: '*.ts' })
    expect(result.matches).toEqual(["src/app.ts:2: console.log(parse('TODO: ship'))"])
  })

  it('searches with a regular expression and treats plain text literally', async () => {
    expect((await search({ content: 'function \\w+\\(', regex: true })).matches).toEqual(['src/util/parse.ts:1: export function parse(s: string) {'])
    expect((await search({ content: 'parse(' })).matches).toEqual([
      "src/app.ts:2: console.log(parse('TODO: ship'))",
      'src/util/parse.ts:1: export function parse(s: string) {'
    ])
  })

  it('anchors ^ and $ to each line, also in CRLF files', async () => {
    writeFileSync(join(workspace, 'win.txt'), 'first\r\n  return value\r\nlast line\r\n')
    expect((await search({ content: '^\\s+return', regex: true })).matches).toEqual(['win.txt:2: return value', 'src/util/parse.ts:3: return s'])
    expect((await search({ content: 'line$', regex: true })).matches).toEqual(['win.txt:3: last line'])
  })

  it('explains an invalid regular expression', async () => {
    const result = await search({ content: 'parse(', regex: true })
    expect(result.success).toBe(false)
    expect(result.error).toMatch(/Invalid regular expression .*regex: false/)
  })

  it('stops at max_results and says so, without walking the whole tree', async () => {
    const many = join(workspace, 'many')
    for (let d = 0; d < 20; d++) {
      mkdirSync(join(many, `d${d}`), { recursive: true })
      for (let f = 0; f < 50; f++) writeFileSync(join(many, `d${d}`, `f${f}.txt`), 'needle\nneedle\n')
    }
    const result = await search({ path: 'many', content: 'needle', max_results: 7 })
    expect(result.matches).toHaveLength(7)
    expect(result.truncated).toBe(true)
    expect(result.note).toContain('Stopped at 7 results')
    expect(result.scanned_files).toBeLessThan(10)
    const names = await search({ path: 'many', name: '*.txt', max_results: 500 })
    expect(names.files).toHaveLength(500)
    expect(names.truncated).toBe(true)
  })

  it('skips files over 1 MiB and says how to read them', async () => {
    writeFileSync(join(workspace, 'huge.log'), 'needle\n' + 'x'.repeat(1_100_000))
    const result = await search({ content: 'needle' })
    expect(result.count).toBe(0)
    expect(result.note).toContain('over 1 MiB')
  })

  it('cuts very long matching lines around the match', async () => {
    writeFileSync(join(workspace, 'min.js'), 'a'.repeat(5_000) + 'NEEDLE' + 'b'.repeat(5_000))
    const [hit] = (await search({ content: 'needle' })).matches
    expect(hit).toContain('NEEDLE')
    expect(hit.length).toBeLessThan(260)
  })

  it('searches a single file when path names one', async () => {
    expect((await search({ path: 'README.md', content: 'demo' })).matches).toEqual(['README.md:1: # Demo'])
  })

  it('asks for name or content, and reports a missing folder', async () => {
    expect((await search({})).error).toContain('name')
    expect((await search({ path: 'scr', content: 'x' })).error).toContain('Did you mean: src')
  })

  it('stops when the turn is cancelled', async () => {
    const controller = new AbortController()
    controller.abort()
    const result = await search({ content: 'todo' }, { signal: controller.signal })
    expect(result).toMatchObject({ success: false, error: 'search_files was cancelled.' })
  })
})

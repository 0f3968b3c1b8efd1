import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runTool, toolParametersSchema } from '../../../electron/core/tools/run-tool'
import { newTurnState, type ToolContext, type ToolDef } from '../../../electron/core/tools/types'
import { APPROVAL_TOOLS, createWorkspaceTools } from '../../../electron/core/workspace'

type Result = Record<string, any>

function ctx(extra: Partial<ToolContext> = {}): ToolContext {
  return { write: { source: 'agent' }, turn: newTurnState(), ...extra }
}

function byName(tools: ToolDef[], name: string): ToolDef {
  return tools.find((tool) => tool.name === name)!
}

const originalHome = process.env.HOME

afterEach(() => {
  process.env.HOME = originalHome
})

describe('createWorkspaceTools', () => {
  it('offers the seven workspace tools, each with a described JSON schema', () => {
    const tools = createWorkspaceTools()
    expect(tools.map((tool) => tool.name)).toEqual(['read_file', 'write_file', 'edit_file', 'list_dir', 'search_files', 'run_command', 'fetch_url'])
    for (const tool of tools) {
      const schema = toolParametersSchema(tool) as { type: string; properties: Record<string, { description?: string }> }
      expect(schema.type).toBe('object')
      for (const [field, property] of Object.entries(schema.properties)) expect(property.description, `${tool.name}.${field}`).toBeTruthy()
    }
  })

  it('names exactly the tools that ask for approval', () => {
    expect([...APPROVAL_TOOLS].sort()).toEqual(['edit_file', 'run_command', 'write_file'])
  })

  it('resolves relative paths against the turn workspace, else the configured one', async () => {
    const configured = mkdtempSync(join(tmpdir(), 'cairn-'))
    const turn = mkdtempSync(join(tmpdir(), 'cairn-'))
    writeFileSync(join(configured, 'where.txt'), 'configured')
    writeFileSync(join(turn, 'where.txt'), 'turn')
    const read = byName(createWorkspaceTools({ workspace: configured }), 'read_file')
    expect(((await runTool(read, { path: 'where.txt' }, ctx())) as Result).content).toBe('    1| configured')
    expect(((await runTool(read, { path: 'where.txt' }, ctx({ workspace: turn }))) as Result).content).toBe('    1| turn')
  })

  it('expands ~ to the home folder', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cairn-'))
    process.env.HOME = home
    writeFileSync(join(home, 'todo.txt'), 'buy milk')
    const read = byName(createWorkspaceTools(), 'read_file')
    const result = (await runTool(read, { path: '~/todo.txt' }, ctx({ workspace: tmpdir() }))) as Result
    expect(result).toMatchObject({ success: true, content: '    1| buy milk' })
  })

  it('turns bad arguments into a readable error instead of throwing', async () => {
    const result = (await runTool(byName(createWorkspaceTools(), 'list_dir'), '{"depth": "deep"}', ctx())) as Result
    expect(result.success).toBe(false)
    expect(result.error).toContain('depth')
  })
})

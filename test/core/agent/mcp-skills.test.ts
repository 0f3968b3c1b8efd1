import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { composeSystemPrompt, mcpPromptInfo } from '../../../electron/core/agent/prompt-context'
import { CairnCore } from '../../../electron/core/cairn'
import { ConfigStore } from '../../../electron/core/config/config-store'
import type { ToolDef } from '../../../electron/core/tools/types'
import { z } from 'zod'

let home = ''
let core: CairnCore | null = null
afterEach(async () => {
  await core?.close()
  rmSync(home, { recursive: true, force: true })
})

function skill(name: string, description: string, metadata = ''): void {
  const dir = join(home, 'skills', name)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n${metadata}---\n\n# ${name}\n\nSteps.\n`)
}

/** A stand-in for an MCP tool a conversation has (only its identity matters to the prompt). */
function mcpTool(server: string, tool: string): ToolDef {
  return { name: `mcp__${server}__${tool}`, description: '', schema: z.object({}), mcp: [{ server, tool, exposedName: `mcp__${server}__${tool}` }], run: () => '' }
}

function prompt(tools: ToolDef[]): string {
  const names = new Set([...core!.learningTools().map((t) => t.name), ...tools.map((t) => t.name)])
  return composeSystemPrompt(core!, names, '/tmp/workspace', null, new Date(2026, 0, 5), mcpPromptInfo(tools))
}

describe('skills that need MCP tools', () => {
  it('marks a skill whose MCP tools this conversation lacks, and not one whose tools are connected', async () => {
    home = mkdtempSync(join(tmpdir(), 'cairn-mcp-skills-'))
    await new ConfigStore(join(home, 'config.json')).update({ skills: { extraDirs: [] } })
    skill('file-issue', 'File a GitHub issue from a bug report', 'metadata:\n  mcp-tools: github/create_issue github/search_issues\n')
    skill('plain', 'A skill without MCP needs')
    core = await CairnCore.open({ home })

    const without = prompt([])
    expect(without).toContain('file-issue [needs MCP tools github/create_issue, github/search_issues, not connected]')
    expect(without).not.toMatch(/plain \[needs/)

    const partly = prompt([mcpTool('github', 'search_issues')])
    expect(partly).toContain('file-issue [needs MCP tool github/create_issue, not connected]')

    const connected = [mcpTool('github', 'create_issue'), mcpTool('github', 'search_issues')]
    const full = prompt(connected)
    expect(full).not.toContain('[needs MCP')
    // The same tools give the same prompt, byte for byte.
    expect(prompt(connected)).toBe(full)
    expect(full).toContain('The user connected these MCP servers: github.')
  })
})

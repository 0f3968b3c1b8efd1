import { platform, release } from 'node:os'
import type { PromptSources } from './agent-stores'
import { indexSkills, markMissingMcpTools, renderSkillsIndex } from './skills-index'
import type { ToolDef } from '../tools/types'
import { buildSystemPrompt, type McpPromptInfo } from './system-prompt'
import { readProjectInstructions, renderProjectInstructions } from '../workspace/project-instructions'

export { indexSkills } from './skills-index'

export function describeOS(): string {
  const names: Record<string, string> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' }
  return `${names[platform()] ?? platform()} ${release()}`
}

/** The instructions the user set for one conversation (`sessions.state.instructions`); '' when none. */
export function conversationInstructions(session: { state?: Record<string, unknown> } | null | undefined): string {
  const value = session?.state?.instructions
  return typeof value === 'string' ? value : ''
}

/**
 * Reads memory, skills and the user's instructions now and renders the system prompt. Called once at
 * session start (`session`: the conversation being resumed, for its own instructions) and again only
 * after a context compression.
 */
export function composeSystemPrompt(
  sources: PromptSources,
  toolNames: ReadonlySet<string>,
  workspace: string,
  session?: { state?: Record<string, unknown> } | null,
  now = new Date(),
  mcp?: McpPromptInfo
): string {
  const config = sources.config.get()
  // The workspace's own project memory: another workspace's never reaches this prompt.
  const snapshot = sources.memory.forWorkspace(workspace).loadSnapshot()
  const projectOn = config.memory.enabled && snapshot.project !== undefined
  const index = renderSkillsIndex(markMissingMcpTools(indexSkills(sources), mcp?.tools ?? new Set()), config.skills.indexTokenBudget)
  return buildSystemPrompt({
    toolNames,
    memoryBlock: config.memory.enabled ? snapshot.memory : null,
    userBlock: config.memory.userProfileEnabled ? snapshot.user : null,
    ...(projectOn ? { projectBlock: snapshot.project } : {}),
    memoryTargets: { memory: config.memory.enabled, user: config.memory.userProfileEnabled, ...(projectOn ? { project: true } : {}) },
    repositoryInstructions: renderProjectInstructions(readProjectInstructions(workspace)),
    skillsIndex: index.text,
    instructions: { global: config.agent.instructions ?? '', conversation: conversationInstructions(session) },
    mcp,
    environment: {
      os: describeOS(),
      date: now.toLocaleDateString('en-CA', { weekday: 'long', year: 'numeric', month: '2-digit', day: '2-digit' }),
      workspace
    }
  })
}

/** The MCP servers a session's tools reach (in the order the tools come) and whether the tool search stands in for them. */
export function mcpPromptInfo(tools: readonly ToolDef[]): McpPromptInfo | undefined {
  const refs = tools.flatMap((tool) => tool.mcp ?? [])
  const servers = [...new Set(refs.map((ref) => ref.server))]
  if (!servers.length) return undefined
  return {
    servers,
    toolSearch: tools.some((tool) => tool.name === 'mcp_tool_search'),
    tools: new Set(refs.flatMap((ref) => [`${ref.server}/${ref.tool}`, ref.exposedName]))
  }
}

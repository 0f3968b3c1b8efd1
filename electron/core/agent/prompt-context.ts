import { platform, release } from 'node:os'
import type { PromptSources } from './agent-stores'
import { indexSkills, renderSkillsIndex } from './skills-index'
import { buildSystemPrompt } from './system-prompt'

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
  now = new Date()
): string {
  const config = sources.config.get()
  const snapshot = sources.memory.loadSnapshot()
  const index = renderSkillsIndex(indexSkills(sources), config.skills.indexTokenBudget)
  return buildSystemPrompt({
    toolNames,
    memoryBlock: config.memory.enabled ? snapshot.memory : null,
    userBlock: config.memory.userProfileEnabled ? snapshot.user : null,
    memoryTargets: { memory: config.memory.enabled, user: config.memory.userProfileEnabled },
    skillsIndex: index.text,
    instructions: { global: config.agent.instructions ?? '', conversation: conversationInstructions(session) },
    environment: {
      os: describeOS(),
      date: now.toLocaleDateString('en-CA', { weekday: 'long', year: 'numeric', month: '2-digit', day: '2-digit' }),
      workspace
    }
  })
}

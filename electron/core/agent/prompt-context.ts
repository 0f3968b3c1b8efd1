import { platform, release } from 'node:os'
import type { PromptSources } from './agent-stores'
import { indexSkills, renderSkillsIndex } from './skills-index'
import { buildSystemPrompt } from './system-prompt'

export { indexSkills } from './skills-index'

export function describeOS(): string {
  const names: Record<string, string> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' }
  return `${names[platform()] ?? platform()} ${release()}`
}

/**
 * Reads memory and skills from disk now and renders the system prompt. Called once at session start
 * and again only after a context compression.
 */
export function composeSystemPrompt(sources: PromptSources, toolNames: ReadonlySet<string>, workspace: string, now = new Date()): string {
  const config = sources.config.get()
  const snapshot = sources.memory.loadSnapshot()
  const index = renderSkillsIndex(indexSkills(sources), config.skills.indexTokenBudget)
  return buildSystemPrompt({
    toolNames,
    memoryBlock: config.memory.enabled ? snapshot.memory : null,
    userBlock: config.memory.userProfileEnabled ? snapshot.user : null,
    memoryTargets: { memory: config.memory.enabled, user: config.memory.userProfileEnabled },
    skillsIndex: index.text,
    environment: {
      os: describeOS(),
      date: now.toLocaleDateString('en-CA', { weekday: 'long', year: 'numeric', month: '2-digit', day: '2-digit' }),
      workspace
    }
  })
}

import { describe, expect, it } from 'vitest'
import { buildSystemPrompt, type SystemPromptInput } from '../../../electron/core/agent/system-prompt'

const base: SystemPromptInput = {
  toolNames: new Set(['memory', 'skill_view', 'skill_manage', 'session_search']),
  memoryBlock: null,
  userBlock: null,
  skillsIndex: '',
  environment: { os: 'Linux 6.1', date: 'Sunday, 2026-11-29', workspace: '/home/ada/project' }
}

describe('system prompt', () => {
  it('describes only the memory stores that are switched on', () => {
    const both = buildSystemPrompt(base)
    expect(both).toContain('two small persistent memories')
    const userOnly = buildSystemPrompt({ ...base, memoryTargets: { memory: false, user: true } })
    expect(userOnly).toContain('one small persistent memory, shown below as it was when this session started: USER PROFILE')
    expect(userOnly).not.toContain('MEMORY (your notes')
  })

  it('tells the agent to patch a skill it found wrong or stale right away, only when it can patch', () => {
    const prompt = buildSystemPrompt(base)
    expect(prompt).toMatch(/find it wrong, incomplete or\s+stale[\s\S]*patch it right away with\s+skill_manage\(action="patch"\)/)
    expect(prompt).toMatch(/don't wait to be asked; an\s+unmaintained skill is a liability/)
    const viewOnly = buildSystemPrompt({ ...base, toolNames: new Set(['skill_view']) })
    expect(viewOnly).not.toMatch(/patch it right away|liability/)
  })

  it('tells the agent firmly to load the skill the index or a hint names before it starts (not "if it fits")', () => {
    for (const prompt of [buildSystemPrompt(base), buildSystemPrompt({ ...base, toolNames: new Set(['skill_view']) })]) {
      expect(prompt).toMatch(/names a skill for the task, load it with\s+skill_view\(name\) before you start/)
      expect(prompt).not.toMatch(/if it fits|even partly relevant/)
    }
  })

  it("carries the user's instructions under headings that say how far they reach, and nothing when there are none", () => {
    const none = buildSystemPrompt({ ...base, instructions: { global: '  ', conversation: '' } })
    expect(none).toBe(buildSystemPrompt(base))
    expect(none).not.toContain('instructions')
    const both = buildSystemPrompt({ ...base, instructions: { global: 'Prefer metric units.', conversation: 'We are planning a trip to Lisbon.' } })
    expect(both).toContain("## The user's instructions\nFollow these in every conversation unless the user says otherwise:\nPrefer metric units.")
    expect(both).toContain('## Instructions for this conversation\nThe user set these for this conversation; where they differ from the ones above, these win:\nWe are planning a trip to Lisbon.')
    expect(both.indexOf('Prefer metric units.')).toBeLessThan(both.indexOf('Lisbon'))
  })

  it('is a pure function of its input (the session sends it byte for byte)', () => {
    expect(buildSystemPrompt(base)).toBe(buildSystemPrompt({ ...base, toolNames: new Set(base.toolNames) }))
  })
})

import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from './hermes-home'

const FIXTURES = join(__dirname, '..', '..', 'fixtures')

/** OpenClaw's own skills folder (`~/.openclaw/skills`) of {@link openClawWorkspace}: one skill, written here. */
export const MANAGED_SKILL = `---
name: weather-brief
description: A morning weather brief for the user's city from wttr.in.
---

# Weather brief

Fetch \`https://wttr.in/Lisbon?format=3\` and answer in one line.
`

/**
 * A fresh copy of test/fixtures/openclaw-workspace at `<tmp>/.openclaw/workspace`, with OpenClaw's own
 * skills folder beside it (`<tmp>/.openclaw/skills/weather-brief`). Returns the workspace.
 */
export function openClawWorkspace(): string {
  const state = join(tempDir('cairn-openclaw-'), '.openclaw')
  const workspace = join(state, 'workspace')
  cpSync(join(FIXTURES, 'openclaw-workspace'), workspace, { recursive: true })
  mkdirSync(join(state, 'skills', 'weather-brief'), { recursive: true })
  writeFileSync(join(state, 'skills', 'weather-brief', 'SKILL.md'), MANAGED_SKILL)
  return workspace
}

/** A fresh copy of test/fixtures/claude-code-home at `<tmp>/.claude`. */
export function claudeCodeHome(): string {
  const home = join(tempDir('cairn-claude-code-'), '.claude')
  cpSync(join(FIXTURES, 'claude-code-home'), home, { recursive: true })
  return home
}

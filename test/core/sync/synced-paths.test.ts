import { describe, expect, it } from 'vitest'
import { isSyncedPath, skillPathOf } from '../../../electron/core/sync/synced-paths'

describe('which files a sync carries', () => {
  it('carries the two memory files and the skills, never the archive, dot files or temp files of writes in flight', () => {
    expect(isSyncedPath('memories/MEMORY.md')).toBe(true)
    expect(isSyncedPath('memories/USER.md')).toBe(true)
    expect(isSyncedPath('memories/MEMORY.md.bak')).toBe(false)
    expect(isSyncedPath('skills/devops/deploy/SKILL.md')).toBe(true)
    expect(isSyncedPath('skills/devops/deploy/scripts/run.sh')).toBe(true)
    expect(isSyncedPath('skills/.archive/deploy-1/SKILL.md')).toBe(false)
    expect(isSyncedPath('skills/devops/deploy/.DS_Store')).toBe(false)
    expect(isSyncedPath('skills/devops/deploy/node_modules/x/index.js')).toBe(false)
    expect(isSyncedPath('skills/devops/deploy/SKILL.md.cairn-123-4.tmp')).toBe(false)
    expect(isSyncedPath('state.db')).toBe(false)
    expect(isSyncedPath('attachments/a/b.png')).toBe(false)
    expect(isSyncedPath('sessions/laptop.md')).toBe(true)
    expect(isSyncedPath('sessions/laptop/x.md')).toBe(false)
    expect(isSyncedPath('sessions/../state.db')).toBe(false)
  })

  it('names the skill a path belongs to, with or without a category', () => {
    expect(skillPathOf('skills/devops/deploy/SKILL.md')).toEqual({ dir: 'skills/devops/deploy', name: 'deploy', category: 'devops', file: 'SKILL.md' })
    expect(skillPathOf('skills/deploy/SKILL.md')).toEqual({ dir: 'skills/deploy', name: 'deploy', category: null, file: 'SKILL.md' })
    expect(skillPathOf('skills/devops/deploy/references/api/v2.md')).toEqual({ dir: 'skills/devops/deploy', name: 'deploy', category: 'devops', file: 'references/api/v2.md' })
    expect(skillPathOf('skills/deploy/scripts/run.sh')).toMatchObject({ name: 'deploy', category: null, file: 'scripts/run.sh' })
    expect(skillPathOf('skills/README.md')).toBeNull()
    expect(skillPathOf('skills/a/b/c/SKILL.md')).toBeNull()
  })
})

import { readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import { skillsWithStats } from '../../skills/skill-stats'
import { listSkillFiles } from '../../skills/skill-dir-files'
import type { AppContext } from '../app-context'

export function skillHandlers(app: AppContext): Pick<IpcHandlers, 'skills.list' | 'skills.get' | 'skills.history'> {
  const strip = <T extends { root?: unknown; frontmatterName?: unknown }>(skill: T) => {
    const { root: _root, frontmatterName: _fm, ...rest } = skill
    return rest
  }
  return {
    'skills.list': async () => ({
      skills: skillsWithStats(app.core).map(strip),
      diagnostics: app.core.skills.diagnostics()
    }),
    'skills.get': async ({ name }) => {
      const skill = skillsWithStats(app.core).find((s) => s.name === name)
      if (!skill) throw new IpcError('NOT_FOUND', `There is no skill named "${name}".`)
      // Browsing in the UI is not a use: read the files directly instead of through skill_view.
      const files = listSkillFiles(dirname(skill.path))
      return { skill: strip(skill), content: readFileSync(skill.path, 'utf8'), files }
    },
    'skills.history': async ({ name }) => app.core.ledger.forSkill(name)
  }
}

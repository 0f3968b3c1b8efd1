import { readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import { archiveSkillByHand, createSkillByHand, saveSkillByHand } from '../../skills/skill-by-hand'
import { listSkillFiles } from '../../skills/skill-dir-files'
import { restoreSkillVersion } from '../../skills/skill-history'
import { skillItem, skillItems, type SkillListItem } from '../../skills/skill-items'
import type { LibrarySlice } from './route-slices'

type SkillRoutes =
  | 'skills.list'
  | 'skills.get'
  | 'skills.history'
  | 'skills.setFlags'
  | 'skills.restore'
  | 'skills.create'
  | 'skills.saveFile'
  | 'skills.archive'
  | 'skills.openFolder'

export function skillHandlers(app: LibrarySlice): Pick<IpcHandlers, SkillRoutes> {
  const strip = (skill: SkillListItem) => {
    const { root: _root, frontmatterName: _fm, ...rest } = skill
    return rest
  }
  const itemOrThrow = (name: string): SkillListItem => {
    const skill = skillItem(app.core, name)
    if (!skill) throw IpcError.of('NOT_FOUND', 'skill.missing', { name })
    return skill
  }
  return {
    'skills.list': async () => ({
      skills: skillItems(app.core).map(strip),
      diagnostics: app.core.skills.diagnostics()
    }),
    'skills.get': async ({ name }) => {
      const skill = itemOrThrow(name)
      // Browsing in the UI is not a use: read the files directly instead of through skill_view.
      const files = listSkillFiles(dirname(skill.path))
      return { skill: strip(skill), content: readFileSync(skill.path, 'utf8'), files }
    },
    'skills.history': async ({ name }) => app.core.ledger.forSkill(name),
    'skills.setFlags': async ({ name, pinned, disabled }) => {
      itemOrThrow(name)
      app.core.skillFlags.set(name, { ...(pinned === undefined ? {} : { pinned }), ...(disabled === undefined ? {} : { disabled }) })
      app.emit('skills.changed', { name })
      return strip(itemOrThrow(name))
    },
    'skills.restore': async ({ name, ledgerId }) => {
      const result = await restoreSkillVersion(app.core, name, ledgerId)
      // Supporting files are not watched by the index, so say it here too.
      if (result.ok) app.emit('skills.changed', { name })
      return result
    },
    // The store announces its own writes (skills.changed) through the core's listener.
    'skills.create': async (input) => createSkillByHand(app.core.skills, input),
    'skills.saveFile': async ({ name, content, expected }) => saveSkillByHand(app.core.skills, name, content, expected),
    'skills.archive': async ({ name }) => archiveSkillByHand(app.core.skills, name),
    'skills.openFolder': async ({ name }) => {
      const folder = dirname(itemOrThrow(name).path)
      const openPath = app.options.platform.openPath
      if (!openPath) return { path: folder, opened: false }
      await openPath(folder)
      return { path: folder, opened: true }
    }
  }
}

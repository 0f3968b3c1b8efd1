import { existsSync } from 'node:fs'
import { relative } from 'node:path'
import { defaultConfig } from '../../../shared/config'
import { ConfigError, ConfigStore } from '../config/config-store'
import { expandTilde, type HomePaths } from '../config/home'
import { SkillIndex } from '../skills/skill-index'
import { capDetails, plural, type Finding } from './types'

/** Reads config.json as every command does; a malformed file is reported, never reset. Returns the extra skill roots it names. */
export function checkConfig(paths: HomePaths): { finding: Finding; extraDirs: string[] } {
  try {
    const config = new ConfigStore(paths.configFile).get()
    return {
      finding: { check: 'config', status: 'ok', summary: existsSync(paths.configFile) ? 'config.json is valid' : 'no config.json (defaults apply)', details: [], advice: null, repairable: false },
      extraDirs: config.skills.extraDirs
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    return {
      finding: {
        check: 'config',
        status: 'problem',
        summary: 'config.json cannot be used',
        details: [error.message],
        advice: `Fix ${paths.configFile} in an editor (or move it aside to start from the defaults); Cairn never rewrites it by itself.`,
        repairable: false
      },
      extraDirs: defaultConfig().skills.extraDirs
    }
  }
}

/**
 * Skills that do not load or load with warnings, as SkillStore reports them. A skipped skill in the
 * data home is a problem (it is invisible until fixed); warnings, and skills of read-only folders, are notes.
 */
export function checkSkills(paths: HomePaths, extraDirs: string[]): Finding {
  const extras = extraDirs.map(expandTilde).filter((dir) => existsSync(dir))
  const index = new SkillIndex([{ path: paths.skillsDir, readOnly: false }, ...extras.map((path) => ({ path, readOnly: true }))])
  index.loadAll()
  const diagnostics = index.diagnostics()
  const skills = index.list().length
  const mine = (path: string) => !relative(paths.skillsDir, path).startsWith('..')
  const skipped = diagnostics.filter((d) => d.severity === 'skipped' && mine(d.path))
  const details = diagnostics.map((d) => `${d.severity === 'skipped' ? 'skipped' : 'warning'}  ${d.path}: ${d.reason}`)
  if (skipped.length) {
    return {
      check: 'skills',
      status: 'problem',
      summary: `${plural(skipped.length, 'skill')} in the data home cannot be loaded (${plural(skills, 'skill')} load)`,
      details: capDetails(details),
      advice: 'Fix the front matter of each skipped SKILL.md (it needs valid YAML with a name and a description); "cairn skills" shows the same list.',
      repairable: false
    }
  }
  if (diagnostics.length) {
    return { check: 'skills', status: 'note', summary: `${plural(skills, 'skill')} load; ${plural(diagnostics.length, 'warning')}`, details: capDetails(details), advice: 'Nothing is broken; read the warnings when you have a moment.', repairable: false }
  }
  return { check: 'skills', status: 'ok', summary: skills === 0 ? 'no skills yet' : `${plural(skills, 'skill')} load without warnings`, details: [], advice: null, repairable: false }
}

export { SkillStore, type SkillStoreOptions, type SkillChangeListener } from './skill-store'
export type { SkillSummary, SkillDiagnostic, SkillChangeType, SkillRoot } from './skill-index'
export type { SkillResult, SkillSuccess, SkillFailure, SkillCallContext, SkillChangeEvent } from './skill-write-support'
export type { CreateSkillInput, EditSkillInput, PatchSkillInput, DeleteSkillInput } from './skill-writer'
export type { WriteSkillFileInput, RemoveSkillFileInput } from './skill-file-writer'
export type { SkillUsage, SkillOutcome } from './skill-usage'
export type { LinkedFiles } from './skill-dir-files'
export { createSkillTools, skillManageSchema, skillViewSchema, skillsListSchema, SKILL_ACTIONS, type SkillToolOptions, type SkillAction } from './skill-tools'
export { readSkillLenient, validateSkillContent, skillIssues, truncateDescription, type LenientSkill, type SkillIssue } from './skill-file'
export {
  SUPPORT_DIRS,
  EXCLUDED_DIRS,
  MAX_CONTENT_CHARS,
  MAX_DESCRIPTION_LENGTH,
  MAX_FILE_BYTES,
  MAX_NAME_LENGTH,
  checkSupportPath,
  validateCategory,
  validateSkillName
} from './skill-paths'
export {
  specIssues,
  specProblems,
  specNameRule,
  normalizeFrontmatter,
  normalizeSkillMarkdown,
  SPEC_FIELDS,
  MAX_COMPATIBILITY_LENGTH,
  type SpecIssue,
  type SpecIssueCode,
  type NormalizedSkill
} from './agent-skills-spec'
export { skillItems, skillItem, skillOrigin, type SkillListItem } from './skill-items'
export { archiveUnusedSkills, archiveUnusedSkillsSoon, type SkillArchiveReport, type ArchivedSkill } from './skill-archive'
export { restoreSkillVersion, skillRow, versionAfter, type SkillHistorySource } from './skill-history'

import type { Translate } from '../../../../shared/i18n'
import type { SkillWriteOutcome } from '../../stores/skills'

/** A refused skill write in the UI's words, with main's reason underneath when only it knows the details. */
export function describeSkillWriteFailure(failure: Extract<SkillWriteOutcome, { ok: false }>, t: Translate): { text: string; detail: string | null } {
  if (failure.code === null) return { text: t('library.writeError.invalid'), detail: failure.error }
  return { text: t(`library.writeError.${failure.code}`), detail: failure.code === 'invalid' ? failure.error : null }
}

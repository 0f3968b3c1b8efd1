import { parseStoredRationale } from '../proposal-rationale'
import type { Translate } from './index'

/** Why a proposal waits, in the user's language: a coded rationale worded, the reviewer's words as written; null when there is none. */
export function describeRationale(stored: string | null, t: Translate): string | null {
  const rationale = parseStoredRationale(stored)
  if (!rationale) return null
  switch (rationale.code) {
    case 'words':
      return rationale.text
    case 'sync_conflict':
    case 'sync_overflow':
    case 'dangerous_content':
      return t(`inbox.rationale.${rationale.code}`, { device: rationale.device ?? t('inbox.rationale.anotherDevice') })
    case 'import_overflow':
      return t('inbox.rationale.import_overflow')
    case 'claude_code_memory':
      return rationale.file ? t('inbox.rationale.claude_code_memory', { file: rationale.file }) : t('inbox.rationale.claude_code_memory.unnamed')
    case 'imported_version':
      return t('inbox.rationale.imported_version', { folder: rationale.folder })
    case 'skill_shrink': {
      const lines = { before: rationale.linesBefore, after: rationale.linesAfter }
      const figures = rationale.sectionsDropped.length
        ? t('inbox.rationale.skill_shrink.sections', { ...lines, sections: rationale.sectionsDropped.join(', ') })
        : t('inbox.rationale.skill_shrink', lines)
      return rationale.words ? t('inbox.rationale.skill_shrink.words', { figures, words: rationale.words }) : figures
    }
  }
}

import type { Translate } from '../../../../../shared/i18n'
import type { ImportActivity, ImportCountsInfo, ImportSourceId, LearnImportedInfo } from '../../../../../shared/ipc/contract-import'
import type { ImportFailure } from '../../../stores/imports'
import { describeFailure } from '../../../../../shared/i18n/describe-errors'

/** A failed import request in the user's words (the core's codes, and a source problem's key). */
export function importFailureText(failure: ImportFailure, t: Translate): string {
  switch (failure.code) {
    case 'IMPORT_PATH_RELATIVE':
      return t('import.error.relative', { path: String(failure.params?.path ?? '') })
    case 'IMPORT_SOURCE':
      // The source's problem is a key (ImportSourceError) worded in the window's language; an older peer's English as it came.
      return t('import.error.source', { message: describeFailure(failure, t) })
    case 'BUSY':
      return t('import.error.busy')
    case 'LEARNING_OFF':
      return t('import.error.learningOff')
    case 'UNSUPPORTED':
      return t('import.error.noPicker')
    case 'NOT_FOUND':
      return t('import.error.notFound')
    case 'IMPORT_ALREADY_UNDONE':
      return t('import.error.alreadyUndone')
    default:
      return t('import.error.other', { message: describeFailure(failure, t) })
  }
}

/** Why the last background import failed: its key in the window's language, or an older peer's English as it came. */
export function lastImportFailureText(last: NonNullable<ImportActivity['last']>, t: Translate): string {
  const message = describeFailure({ code: 'INTERNAL', message: last.error ?? '', key: last.errorKey, params: last.errorParams }, t)
  return t('import.failed', { message })
}

export function sourceLabel(source: ImportSourceId, t: Translate): string {
  return t(`import.source.${source}`)
}

export function sourceName(source: ImportSourceId, t: Translate): string {
  return t(`import.sourceName.${source}`)
}

/**
 * The lines of counts worth showing for this source: the chat exports bring conversations only,
 * Claude Code's memories are all candidates for the Inbox, and OpenClaw's sessions are its daily notes.
 */
export function countLines(counts: ImportCountsInfo, source: ImportSourceId, t: Translate): string[] {
  const { memory, skills, sessions } = counts
  const lines: string[] = []
  if (memory.added + memory.duplicates + memory.proposed + memory.refused > 0) {
    lines.push(t(source === 'claude-code' ? 'import.counts.memoryCandidates' : 'import.counts.memory', { ...memory }))
  }
  if (memory.archived) lines.push(t('import.counts.memoryArchived', { archived: memory.archived }))
  if (skills.created + skills.identical + skills.proposed + skills.refused > 0) {
    lines.push(t(skills.usage ? 'import.counts.skillsWithUsage' : 'import.counts.skills', { ...skills }))
  }
  if (source === 'openclaw') lines.push(t('import.counts.notes', { ...sessions }))
  else if (source !== 'claude-code') lines.push(t('import.counts.sessions', { ...sessions }))
  return lines
}

/** The running import's progress line and how full its bar is (null: not known yet). */
export function importProgress(running: NonNullable<ImportActivity['running']>, t: Translate): { text: string; ratio: number | null } {
  const { phase, done, total } = running
  if (phase === 'starting') return { text: t('import.phase.starting'), ratio: null }
  if (total === null) return { text: t('import.phase.sessionsSoFar', { done }), ratio: null }
  return { text: t(phase === 'skills' ? 'import.phase.skills' : 'import.phase.sessions', { done, total }), ratio: total > 0 ? done / total : 1 }
}

/** How learning from imports ended (or goes), as one line. */
export function learnLine(learning: LearnImportedInfo, t: Translate): string {
  const figures = { done: learning.done, total: learning.total, changes: learning.changes, proposed: learning.proposed, failed: learning.failed }
  if (learning.running) return t('import.learn.progress', figures)
  if (learning.stopped === 'cancelled') return t('import.learn.cancelled', figures)
  if (learning.stopped === 'learning_off') return t('import.learn.stoppedOff', figures)
  return t('import.learn.finished', figures)
}

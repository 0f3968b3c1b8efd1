import { translator, type Language, type MessageKey } from '../../shared/i18n'
import { CorruptDatabaseError, type CorruptionCode } from '../core/db/corrupt'

/** A start-up failure already worded for the user, in their language: the dialog shows it as it is. */
export class StartError extends Error {
  constructor(
    readonly title: string,
    message: string,
    options?: { cause?: unknown }
  ) {
    super(message, options)
    this.name = 'StartError'
  }
}

function detailKey(code: CorruptionCode): MessageKey {
  if (code === 'EMPTY') return 'start.damaged.empty'
  if (code === 'TRUNCATED') return 'start.damaged.truncated'
  if (code === 'SQLITE_NOTADB') return 'start.damaged.notDatabase'
  return 'start.damaged.corrupt'
}

/**
 * Words a failure of opening the data home for the start-up dialog: a damaged state.db says what
 * the CLI says (one line naming `cairn doctor`), translated; anything else passes through unchanged.
 */
export function startError(error: unknown, language: Language): unknown {
  if (!(error instanceof CorruptDatabaseError)) return error
  const t = translator(language)
  return new StartError(t('start.title'), t('start.damagedDatabase', { path: error.path, detail: t(detailKey(error.code)) }), { cause: error })
}

/** Title and text of the "cannot start" dialog for any start-up failure. */
export function startDialog(error: unknown): { title: string; message: string } {
  if (error instanceof StartError) return { title: error.title, message: error.message }
  return { title: 'Cairn cannot start', message: error instanceof Error ? error.message : String(error) }
}

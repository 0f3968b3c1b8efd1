import { translator, type Language, type MessageKey } from '../../shared/i18n'
import type { App, Dialog } from 'electron'
import { CorruptDatabaseError, type CorruptionCode } from '../core/db/corrupt'
import { repairHome } from '../core/doctor'

export interface RepairOffer {
  home: string
  nativeBinding?: string
  language: Language
}

/** A start-up failure already worded for the user, in their language: the dialog shows it as it is. */
export class StartError extends Error {
  constructor(
    readonly title: string,
    message: string,
    options?: { cause?: unknown },
    /** A damaged state.db the dialog can offer to repair (what `cairn doctor --repair` does). */
    readonly repair?: RepairOffer
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
export function startError(error: unknown, language: Language, repair?: Omit<RepairOffer, 'language'>): unknown {
  if (!(error instanceof CorruptDatabaseError)) return error
  const t = translator(language)
  return new StartError(
    t('start.title'),
    t('start.damagedDatabase', { path: error.path, detail: t(detailKey(error.code)) }),
    { cause: error },
    repair ? { ...repair, language } : undefined
  )
}

/** Title and text of the "cannot start" dialog for any start-up failure, in the user's language. */
export function startDialog(error: unknown, language: Language = 'en'): { title: string; message: string } {
  if (error instanceof StartError) return { title: error.title, message: error.message }
  return { title: translator(language)('start.title'), message: error instanceof Error ? error.message : String(error) }
}

/** The words of the repair offer and its outcome, in the user's language. */
export function repairWords(language: Language): { repair: string; quit: string; repairedTitle: string; repaired: (actions: number) => string; failed: (message: string) => string } {
  const t = translator(language)
  return {
    repair: t('start.repair'),
    quit: t('start.quit'),
    repairedTitle: t('start.repairedTitle'),
    repaired: (actions) => t('start.repaired', { count: actions }),
    failed: (message) => t('start.repairFailed', { message })
  }
}

/**
 * The "cannot start" dialog. A damaged state.db offers Repair (what `cairn doctor --repair` does: the
 * app has no terminal to run it from); after a repair the app starts again, otherwise it quits.
 */
export async function showStartFailure(
  error: unknown,
  shell: { dialog: Pick<Dialog, 'showErrorBox' | 'showMessageBoxSync'>; app: Pick<App, 'exit' | 'relaunch'>; log: { error(message: string): void } }
): Promise<void> {
  const { title, message } = startDialog(error)
  shell.log.error(`could not start: ${message}`)
  const offer = error instanceof StartError ? error.repair : undefined
  if (!offer) {
    shell.dialog.showErrorBox(title, message)
    return shell.app.exit(1)
  }
  const words = repairWords(offer.language)
  const choice = shell.dialog.showMessageBoxSync({ type: 'error', title, message, buttons: [words.repair, words.quit], defaultId: 0, cancelId: 1 })
  if (choice !== 0) return shell.app.exit(1)
  try {
    const actions = await repairHome(offer.home, { nativeBinding: offer.nativeBinding })
    shell.dialog.showMessageBoxSync({ type: 'info', title: words.repairedTitle, message: words.repaired(actions.length), buttons: ['OK'] })
    shell.app.relaunch()
    shell.app.exit(0)
  } catch (repairError) {
    const reason = repairError instanceof Error ? repairError.message : String(repairError)
    shell.log.error(`repair failed: ${reason}`)
    shell.dialog.showErrorBox(title, words.failed(reason))
    shell.app.exit(1)
  }
}

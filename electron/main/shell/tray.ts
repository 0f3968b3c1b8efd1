import { Menu, Tray, nativeImage } from 'electron'
import type { CairnApp } from '../../core/app/cairn-app'
import { ProposalStore } from '../../core/ledger/proposals'
import { followsCoreChange, type LedgerEntry } from '../../../shared/ledger'
import { translator, type Translate } from '../../../shared/i18n'
import { log } from '../log'
import type { AppWindows } from '../windows/app-windows'
import type { ShortcutStatus } from './shortcut'
import { trayMenuTemplate, trayTooltip, type TrayState } from './tray-menu'

export interface CairnTrayOptions {
  app: CairnApp
  windows: AppWindows
  /** PNG path; on macOS a template image (black + alpha, with an @2x file next to it). */
  icon: string
  template: boolean
  shortcut(): ShortcutStatus
  quit(): void
}

/** App events after which the menu (recent changes, pause state, shortcut, Inbox count) may be out of date. */
function changesMenu(event: { name: string; payload: unknown }): boolean {
  if (event.name === 'ledger.changed' || event.name === 'settings.changed' || event.name === 'inbox.changed') return true
  if (event.name !== 'review.event') return false
  const type = (event.payload as { type?: string }).type
  return type === 'review_finished'
}

/** The tray icon and its menu: quick prompt, open, recently learned, pause learning, quit. */
export class CairnTray {
  private tray: Tray | null = null
  private stopListening: () => void = () => {}
  private pending = false

  constructor(private readonly options: CairnTrayOptions) {}

  /** False when the desktop has no tray (some Linux sessions): the app then quits with its last window. */
  start(): boolean {
    try {
      const image = nativeImage.createFromPath(this.options.icon)
      if (this.options.template) image.setTemplateImage(true)
      this.tray = new Tray(image)
    } catch (error) {
      log.warn(`no tray icon: ${(error as Error).message}`)
      return false
    }
    this.tray.on('click', () => this.options.windows.showMain())
    this.stopListening = this.options.app.events.on((event) => {
      if (changesMenu(event)) this.refresh()
    })
    this.rebuild()
    return true
  }

  /** Rebuilds once for a burst of changes (a review writes several rows at once). */
  refresh(): void {
    if (this.pending || !this.tray) return
    this.pending = true
    setImmediate(() => {
      this.pending = false
      this.rebuild()
    })
  }

  destroy(): void {
    this.stopListening()
    this.tray?.destroy()
    this.tray = null
  }

  private rebuild(): void {
    if (!this.tray || this.tray.isDestroyed()) return
    const state = this.state()
    const { app, windows } = this.options
    // Rebuilt on settings.changed, so a new `ui.language` shows at once.
    const t = languageOf(app)
    const menu = Menu.buildFromTemplate(
      trayMenuTemplate(
        state,
        {
          quickPrompt: () => windows.showQuick(),
          openMain: () => windows.showMain(),
          openLedgerEntry: (id) => windows.openTimeline(id),
          openInbox: () => windows.openInbox(),
          setLearningPaused: (paused) => void this.setLearningPaused(app, paused),
          quit: () => this.options.quit()
        },
        t
      )
    )
    this.tray.setContextMenu(menu)
    this.tray.setToolTip(trayTooltip(state, t))
  }

  private async setLearningPaused(app: CairnApp, paused: boolean): Promise<void> {
    try {
      const config = await app.core.config.update({ learning: { enabled: !paused } })
      app.emit('settings.changed', { config })
    } catch (error) {
      log.error('could not change learning.enabled', error)
      this.refresh()
    }
  }

  private state(): TrayState {
    const { app } = this.options
    const shortcut = this.options.shortcut()
    return {
      learningEnabled: app.core.config.get().learning.enabled,
      recent: recentEntries(app),
      shortcut: shortcut.active,
      // The status words its problem in English for the log; the menu says it in the user's language.
      shortcutProblem: shortcut.refusal ?? null,
      pendingProposals: pendingProposals(app)
    }
  }
}

function languageOf(app: CairnApp): Translate {
  try {
    return translator(app.core.config.get().ui.language)
  } catch {
    return translator('en')
  }
}

function pendingProposals(app: CairnApp): number {
  try {
    return new ProposalStore(app.core.db).pending().count
  } catch (error) {
    log.warn(`could not count the Inbox: ${(error as Error).message}`)
    return 0
  }
}

function recentEntries(app: CairnApp): LedgerEntry[] {
  try {
    return app.core.ledger.list({ limit: 15 }).filter((entry) => !followsCoreChange(entry)).slice(0, 5)
  } catch (error) {
    log.warn(`could not read recent changes: ${(error as Error).message}`)
    return []
  }
}

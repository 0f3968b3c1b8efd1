import type { BrowserWindow } from 'electron'
import type { IpcEvents } from '../../../shared/ipc/contract'
import { EVENT_CHANNEL } from '../../../shared/ipc/channels'
import type { WindowKind } from '../ipc/validate-sender'
import type { ShellStore } from '../settings/shell-store'
import type { AppOrigin } from './app-origin'
import { sendWhenLoaded } from './load-page'
import { createMainWindow, rememberPlace } from './main-window'
import { createQuickWindow, showQuickWindow } from './quick-window'

export interface AppWindowsOptions {
  origin: AppOrigin
  preload: string
  /** Where the main window's place is remembered. */
  shellState: ShellStore
  icon?: string
}

type Navigation = IpcEvents['app.navigate']

/**
 * The two windows: the main window (created at start, hidden to the tray on close) and the quick
 * prompt (created hidden, toggled by the shortcut). Knows which webContents belongs to which, for
 * the IPC sender check.
 */
export class AppWindows {
  private main: BrowserWindow | null = null
  private quick: BrowserWindow | null = null
  private quitting = false
  /** Set once the tray exists: then closing the main window hides it instead of quitting. */
  keepRunningInTray = false

  constructor(private readonly options: AppWindowsOptions) {}

  start(): void {
    this.ensureMain()
    this.ensureQuick()
  }

  showMain(): BrowserWindow {
    const window = this.ensureMain()
    if (window.isMinimized()) window.restore()
    window.show()
    window.focus()
    return window
  }

  /** Shows the main window, on a conversation when one is given (the quick prompt's "open in Cairn"). */
  openMain(sessionId?: string): void {
    const window = this.showMain()
    if (sessionId) this.navigate(window, { view: 'chat', sessionId })
  }

  /** Shows the main window on the timeline, at one ledger row (the tray's "Recently learned"). */
  openTimeline(ledgerId?: number): void {
    this.navigate(this.showMain(), { view: 'timeline', ...(ledgerId !== undefined ? { ledgerId } : {}) })
  }

  /** Shows the main window on the Inbox (the tray's "Inbox, N waiting"). */
  openInbox(): void {
    this.navigate(this.showMain(), { view: 'inbox' })
  }

  toggleQuick(): void {
    const window = this.ensureQuick()
    if (window.isVisible() && window.isFocused()) window.hide()
    else showQuickWindow(window)
  }

  showQuick(): void {
    showQuickWindow(this.ensureQuick())
  }

  hideQuick(): void {
    if (this.quick && !this.quick.isDestroyed()) this.quick.hide()
  }

  kindOf(webContentsId: number): WindowKind | null {
    if (live(this.main) && this.main.webContents.id === webContentsId) return 'main'
    if (live(this.quick) && this.quick.webContents.id === webContentsId) return 'quick'
    return null
  }

  broadcast(name: string, payload: unknown): void {
    for (const window of [this.main, this.quick]) {
      if (live(window) && !window.webContents.isDestroyed()) window.webContents.send(EVENT_CHANNEL, name, payload)
    }
  }

  /**
   * Both windows out of sight while the app finishes quitting (the reviews of the conversations open
   * at quit run after the window closes, for a bounded time).
   */
  hideAll(): void {
    for (const window of [this.main, this.quick]) if (live(window)) window.hide()
  }

  /** From now on closing a window really closes it; the main window's place is saved now. */
  prepareToQuit(): void {
    this.quitting = true
    if (live(this.main)) rememberPlace(this.main, this.options.shellState)
  }

  private navigate(window: BrowserWindow, navigation: Navigation): void {
    sendWhenLoaded(window, EVENT_CHANNEL, 'app.navigate', navigation)
  }

  private ensureMain(): BrowserWindow {
    if (live(this.main)) return this.main
    const window = createMainWindow({
      origin: this.options.origin,
      preload: this.options.preload,
      shellState: this.options.shellState,
      icon: this.options.icon,
      hideOnClose: () => this.keepRunningInTray && !this.quitting
    })
    window.on('closed', () => {
      if (this.main === window) this.main = null
    })
    this.main = window
    return window
  }

  private ensureQuick(): BrowserWindow {
    if (live(this.quick)) return this.quick
    const window = createQuickWindow({ origin: this.options.origin, preload: this.options.preload })
    window.on('closed', () => {
      if (this.quick === window) this.quick = null
    })
    this.quick = window
    return window
  }
}

function live(window: BrowserWindow | null): window is BrowserWindow {
  return window !== null && !window.isDestroyed()
}

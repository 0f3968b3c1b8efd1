import type { BrowserWindow } from 'electron'
import type { IpcEvents } from '../../../shared/ipc/contract'
import { EVENT_CHANNEL } from '../../../shared/ipc/channels'
import type { WindowKind } from '../ipc/validate-sender'
import type { ShellStore } from '../settings/shell-store'
import type { AppOrigin } from './app-origin'
import { sendWhenLoaded } from './load-page'
import { createMainWindow, rememberPlace } from './main-window'
import { createQuickWindow, showQuickWindow, type QuickPlacement } from './quick-window'

export interface AppWindowsOptions {
  origin: AppOrigin
  preload: string
  /** Where the main window's place is remembered. */
  shellState: ShellStore
  icon?: string
  /** How the quick prompt may be placed (Wayland gives no cursor position and no always-on-top). */
  quickPlacement?: QuickPlacement
  /** The main window was really closed (not hidden to the tray): the shell decides whether to quit. */
  onMainClosed?(): void
  /** Each new window, for what the shell adds to every page (its context menu). */
  onWindowCreated?(window: BrowserWindow): void
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

  /** Shows (or reopens) the main window; null once the app is quitting, when no window may open again. */
  showMain(): BrowserWindow | null {
    if (this.quitting) return null
    const window = this.ensureMain()
    if (window.isMinimized()) window.restore()
    window.show()
    window.focus()
    return window
  }

  /** Shows the main window, on a conversation when one is given (the quick prompt's "open in Cairn"). */
  openMain(sessionId?: string): void {
    const window = this.showMain()
    if (window && sessionId) this.navigate(window, { view: 'chat', sessionId })
  }

  /** Shows the main window on the timeline, at one ledger row (the tray's "Recently learned"). */
  openTimeline(ledgerId?: number): void {
    const window = this.showMain()
    if (window) this.navigate(window, { view: 'timeline', ...(ledgerId !== undefined ? { ledgerId } : {}) })
  }

  /** Shows the main window on the Inbox (the tray's "Inbox, N waiting"). */
  openInbox(): void {
    const window = this.showMain()
    if (window) this.navigate(window, { view: 'inbox' })
  }

  /** Shows the main window on one view (the application menu's Settings and New chat). */
  openView(navigation: Navigation): void {
    const window = this.showMain()
    if (window) this.navigate(window, navigation)
  }

  toggleQuick(): void {
    if (this.quitting) return
    const window = this.ensureQuick()
    if (window.isVisible() && window.isFocused()) window.hide()
    else showQuickWindow(window, this.options.quickPlacement)
  }

  showQuick(): void {
    if (this.quitting) return
    showQuickWindow(this.ensureQuick(), this.options.quickPlacement)
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
    this.options.onWindowCreated?.(window)
    window.on('closed', () => {
      if (this.main === window) this.main = null
      // The hidden quick prompt would keep 'window-all-closed' from ever firing: say so here instead.
      if (!this.quitting) this.options.onMainClosed?.()
    })
    this.main = window
    return window
  }

  private ensureQuick(): BrowserWindow {
    if (live(this.quick)) return this.quick
    const window = createQuickWindow({ origin: this.options.origin, preload: this.options.preload, placement: this.options.quickPlacement })
    this.options.onWindowCreated?.(window)
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

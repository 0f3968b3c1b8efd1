/** The fake Electron objects behind electron-stub.ts, and the record of what the shell did with them. */
import { type ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

export interface StubOptions {
  userData: string
  appPath: string
  version?: string
  packaged?: boolean
  /** What safeStorage reports; `available: false` = no keyring at all. */
  keyring?: { available: boolean; backend: string }
  /** globalShortcut.register's answer for an accelerator (default: true). */
  registerShortcut?: (accelerator: string) => boolean
  singleInstance?: boolean
  /** Which button `dialog.showMessageBoxSync` answers (default: the cancel button). */
  messageBoxAnswer?: number
}

export interface RecordedEvent {
  defaultPrevented: boolean
  preventDefault(): void
}

function domEvent(): RecordedEvent {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true
    }
  }
}

let nextContentsId = 1

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++
  url = ''
  destroyed = false
  readonly sent: Array<{ channel: string; args: unknown[] }> = []
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null

  constructor(readonly type: string = 'window') {
    super()
  }

  readonly replacedWords: string[] = []
  readonly session = { dictionary: [] as string[], addWordToSpellCheckerDictionary: (word: string) => this.session.dictionary.push(word) > 0 }

  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args: structuredClone(args) })
  }

  replaceMisspelling(word: string): void {
    this.replacedWords.push(word)
  }

  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler
  }

  /** Fires a `will-navigate` as Chromium would; true when the shell blocked it. */
  navigate(url: string): boolean {
    const event = domEvent()
    this.emit('will-navigate', event, url)
    return event.defaultPrevented
  }

  getURL(): string {
    return this.url
  }
  getType(): string {
    return this.type
  }
  isLoading(): boolean {
    return false
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  isDevToolsOpened(): boolean {
    return false
  }
}

export class FakeBrowserWindow extends EventEmitter {
  readonly webContents = new FakeWebContents()
  visible = false
  focused = false
  destroyed = false
  loaded: { file?: string; url?: string } = {}
  bounds: { x: number; y: number; width: number; height: number }
  readonly calls: string[] = []

  constructor(readonly options: Record<string, any>) {
    super()
    this.bounds = { x: options.x ?? 100, y: options.y ?? 100, width: options.width ?? 800, height: options.height ?? 600 }
    stubState.windows.push(this)
  }

  async loadFile(path: string): Promise<void> {
    this.loaded = { file: path }
    this.webContents.url = pathToFileURL(path).href
    setImmediate(() => this.emit('ready-to-show'))
  }
  async loadURL(url: string): Promise<void> {
    this.loaded = { url }
    this.webContents.url = url
    setImmediate(() => this.emit('ready-to-show'))
  }
  show(): void {
    this.calls.push('show')
    this.visible = true
    this.focused = true
  }
  hide(): void {
    this.calls.push('hide')
    this.visible = false
    this.focused = false
  }
  focus(): void {
    this.focused = true
  }
  close(): void {
    const event = domEvent()
    this.emit('close', event)
    if (event.defaultPrevented) return
    this.destroyed = true
    this.webContents.destroyed = true
    this.emit('closed')
  }
  isVisible(): boolean {
    return this.visible
  }
  isFocused(): boolean {
    return this.focused
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  isMinimized(): boolean {
    return false
  }
  isMaximized(): boolean {
    return false
  }
  restore(): void {}
  maximize(): void {}
  getBounds() {
    return { ...this.bounds }
  }
  getNormalBounds() {
    return { ...this.bounds }
  }
  getSize(): [number, number] {
    return [this.bounds.width, this.bounds.height]
  }
  setBounds(bounds: { x: number; y: number; width: number; height: number }): void {
    this.calls.push('setBounds')
    this.bounds = { ...bounds }
  }
  setAlwaysOnTop(): void {}
  setVisibleOnAllWorkspaces(): void {}
}

export interface MenuItemTemplate {
  label?: string
  role?: string
  accelerator?: string
  type?: string
  checked?: boolean
  enabled?: boolean
  submenu?: MenuItemTemplate[]
  click?: (item: { checked: boolean }) => void
}

export class FakeTray extends EventEmitter {
  menu: MenuItemTemplate[] = []
  tooltip = ''
  destroyed = false

  constructor(readonly image: { path: string }) {
    super()
    stubState.trays.push(this)
  }
  setContextMenu(menu: { template: MenuItemTemplate[] }): void {
    this.menu = menu.template
  }
  setToolTip(text: string): void {
    this.tooltip = text
  }
  destroy(): void {
    this.destroyed = true
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  /** Finds a menu item by label, looking into submenus. */
  item(label: string | RegExp, items: MenuItemTemplate[] = this.menu): MenuItemTemplate | undefined {
    for (const item of items) {
      if (item.label !== undefined && (typeof label === 'string' ? item.label === label : label.test(item.label))) return item
      const inner = item.submenu ? this.item(label, item.submenu) : undefined
      if (inner) return inner
    }
    return undefined
  }
}

export interface ForkCall {
  modulePath: string
  args: string[]
  options: { serviceName?: string; stdio?: unknown; env?: Record<string, string> }
  child: ChildProcess
}

/** Emulates Electron's UtilityProcess over a real Node child (the worker falls back to process.send). */
export class FakeUtilityProcess extends EventEmitter {
  constructor(private readonly child: ChildProcess) {
    super()
    child.on('message', (message) => this.emit('message', message))
    child.on('exit', (code) => this.emit('exit', code ?? 1))
  }
  get pid(): number | undefined {
    return this.child.pid
  }
  get stdout() {
    return this.child.stdout
  }
  get stderr() {
    return this.child.stderr
  }
  postMessage(message: unknown): void {
    if (this.child.connected) this.child.send(message as never)
  }
  kill(): boolean {
    return this.child.kill('SIGKILL')
  }
}

export class FakeApp extends EventEmitter {
  /** Switches as Electron parses them from the command line (`--ozone-platform=x11`). */
  readonly switches = new Map<string, string>()
  readonly commandLine = {
    getSwitchValue: (name: string) => this.switches.get(name) ?? '',
    hasSwitch: (name: string) => this.switches.has(name),
    appendSwitch: (name: string, value = '') => void this.switches.set(name, value)
  }
  readonly quits: number[] = []
  readonly exits: number[] = []
  relaunches = 0
  private ready = false

  constructor(private readonly options: StubOptions) {
    super()
  }
  get isPackaged(): boolean {
    return this.options.packaged ?? false
  }
  whenReady(): Promise<void> {
    return new Promise((resolve) =>
      setImmediate(() => {
        this.ready = true
        resolve()
      })
    )
  }
  isReady(): boolean {
    return this.ready
  }
  requestSingleInstanceLock(): boolean {
    return this.options.singleInstance ?? true
  }
  getPath(name: string): string {
    const dir = name === 'userData' ? this.options.userData : join(this.options.userData, `.path-${name}`)
    mkdirSync(dir, { recursive: true })
    return dir
  }
  getAppPath(): string {
    return this.options.appPath
  }
  getVersion(): string {
    return this.options.version ?? '0.0.0-smoke'
  }
  getName(): string {
    return 'Cairn'
  }
  setAppUserModelId(): void {}
  /** Like Electron: before-quit (may be prevented), then will-quit, then quit. */
  quit(): void {
    const before = domEvent()
    this.emit('before-quit', before)
    if (before.defaultPrevented) return
    const will = domEvent()
    this.emit('will-quit', will)
    if (will.defaultPrevented) return
    this.quits.push(Date.now())
    this.emit('quit')
  }
  exit(code = 0): void {
    this.exits.push(code)
  }
  relaunch(): void {
    this.relaunches++
  }
}

/** Everything the stub recorded. */
export const stubState = {
  windows: [] as FakeBrowserWindow[],
  trays: [] as FakeTray[],
  forks: [] as ForkCall[],
  handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
  ipcListeners: [] as string[],
  shortcuts: { registered: new Map<string, () => void>(), registerCalls: [] as string[], unregisterCalls: [] as string[], unregisterAll: 0 },
  dialogs: [] as Array<{ title: string; content: string; buttons?: string[] }>,
  /** Every `dialog.showOpenDialog` call, and what the next one answers (set by a test; default: cancelled). */
  openDialogs: [] as Array<{ parent: unknown; options: Record<string, unknown> }>,
  openDialogAnswer: { canceled: true, filePaths: [] as string[] },
  openedExternally: [] as string[],
  clipboard: [] as string[],
  /** Every application menu set, last one current. */
  applicationMenus: [] as MenuItemTemplate[][],
  /** Context menus popped up, with the window they belong to. */
  popups: [] as Array<{ template: MenuItemTemplate[]; window: unknown }>,
  images: [] as string[],
  exposed: [] as Array<{ key: string; api: Record<string, unknown> }>,
  rendererInvokes: [] as Array<{ channel: string; args: unknown[] }>,
  rendererListeners: new Map<string, Array<(event: unknown, ...args: unknown[]) => void>>(),
  session: {
    permissionRequest: null as null | ((contents: unknown, permission: string, callback: (granted: boolean) => void, details?: unknown) => void),
    permissionCheck: null as null | ((contents: unknown, permission: string, origin?: string, details?: unknown) => boolean),
    headers: null as null | ((details: { responseHeaders?: Record<string, string[]> }, callback: (response: { responseHeaders?: Record<string, string[]> }) => void) => void),
    events: new EventEmitter()
  }
}


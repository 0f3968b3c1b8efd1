/**
 * A stand-in for the `electron` module, so the built main process and preload can run under plain
 * Node (the real module would try to download Electron). It records what the shell asks Electron
 * to do; `utilityProcess.fork` starts a real Node child (the built worker speaks both protocols).
 * Installed by patching Module._load and seeding require.cache: ESM importers such as
 * electron-store resolve `electron` to its path and read it from the cache (toolchain.md §2).
 */
import { fork } from 'node:child_process'
import { EventEmitter } from 'node:events'
import Module, { createRequire } from 'node:module'
import {
  FakeApp,
  FakeBrowserWindow,
  FakeTray,
  FakeUtilityProcess,
  stubState,
  type FakeWebContents,
  type ForkCall,
  type MenuItemTemplate,
  type StubOptions
} from './electron-stub-fakes'

export * from './electron-stub-fakes'

export interface ElectronStub {
  app: FakeApp
  module: Record<string, unknown>
  state: typeof stubState
  restore(): void
}

export function installElectronStub(options: StubOptions): ElectronStub {
  const keyring = options.keyring ?? { available: true, backend: 'gnome_libsecret' }
  const app = new FakeApp(options)
  const display = { id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1040 }, bounds: { x: 0, y: 0, width: 1920, height: 1080 } }
  const electron: Record<string, unknown> = {
    app,
    BrowserWindow: FakeBrowserWindow,
    Tray: FakeTray,
    Menu: {
      buildFromTemplate: (template: MenuItemTemplate[]) => ({
        template,
        popup: (options: { window?: unknown } = {}) => stubState.popups.push({ template, window: options.window })
      }),
      setApplicationMenu: (menu: { template: MenuItemTemplate[] } | null) => stubState.applicationMenus.push(menu?.template ?? [])
    },
    nativeImage: {
      createFromPath: (path: string) => {
        stubState.images.push(path)
        return { path, setTemplateImage: () => {}, isEmpty: () => false }
      }
    },
    screen: {
      getAllDisplays: () => [display],
      getPrimaryDisplay: () => display,
      getDisplayNearestPoint: () => display,
      getCursorScreenPoint: () => ({ x: 50, y: 50 })
    },
    ipcMain: {
      handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => {
        if (stubState.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
        stubState.handlers.set(channel, handler)
      },
      removeHandler: (channel: string) => stubState.handlers.delete(channel),
      on: (channel: string) => stubState.ipcListeners.push(channel)
    },
    ipcRenderer: {
      invoke: async (channel: string, ...args: unknown[]) => {
        stubState.rendererInvokes.push({ channel, args })
        return { ok: true, data: { echoed: args } }
      },
      on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
        const list = stubState.rendererListeners.get(channel) ?? []
        list.push(listener)
        stubState.rendererListeners.set(channel, list)
      },
      removeListener: () => {}
    },
    contextBridge: {
      exposeInMainWorld: (key: string, api: Record<string, unknown>) => stubState.exposed.push({ key, api })
    },
    globalShortcut: {
      register: (accelerator: string, callback: () => void) => {
        stubState.shortcuts.registerCalls.push(accelerator)
        const ok = options.registerShortcut?.(accelerator) ?? true
        if (ok) stubState.shortcuts.registered.set(accelerator, callback)
        return ok
      },
      unregister: (accelerator: string) => {
        stubState.shortcuts.unregisterCalls.push(accelerator)
        stubState.shortcuts.registered.delete(accelerator)
      },
      unregisterAll: () => {
        stubState.shortcuts.unregisterAll++
        stubState.shortcuts.registered.clear()
      },
      isRegistered: (accelerator: string) => stubState.shortcuts.registered.has(accelerator)
    },
    utilityProcess: {
      fork: (modulePath: string, args: string[] = [], forkOptions: ForkCall['options'] = {}) => {
        const child = fork(modulePath, args, { env: forkOptions.env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
        stubState.forks.push({ modulePath, args, options: forkOptions, child })
        return new FakeUtilityProcess(child)
      }
    },
    safeStorage: {
      isEncryptionAvailable: () => keyring.available,
      encryptString: (text: string) => Buffer.from(`stub-encrypted:${Buffer.from(text).reverse().toString('base64')}`),
      decryptString: (data: Buffer) => {
        const text = data.toString()
        if (!text.startsWith('stub-encrypted:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
        return Buffer.from(text.slice('stub-encrypted:'.length), 'base64').reverse().toString()
      },
      getSelectedStorageBackend: () => keyring.backend
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: typeof stubState.session.permissionRequest) => (stubState.session.permissionRequest = handler),
        setPermissionCheckHandler: (handler: typeof stubState.session.permissionCheck) => (stubState.session.permissionCheck = handler),
        webRequest: { onHeadersReceived: (handler: typeof stubState.session.headers) => (stubState.session.headers = handler) },
        on: (event: string, listener: (...args: unknown[]) => void) => stubState.session.events.on(event, listener)
      }
    },
    clipboard: { writeText: (text: string) => stubState.clipboard.push(text) },
    shell: {
      openExternal: async (url: string) => {
        stubState.openedExternally.push(url)
      },
      openPath: async () => ''
    },
    dialog: {
      showErrorBox: (title: string, content: string) => stubState.dialogs.push({ title, content }),
      showMessageBoxSync: (box: { title?: string; message: string; detail?: string; buttons?: string[]; cancelId?: number }) => {
        stubState.dialogs.push({ title: box.title ?? '', content: [box.message, box.detail].filter(Boolean).join('\n'), buttons: box.buttons })
        return options.messageBoxAnswer ?? box.cancelId ?? 0
      },
      showOpenDialog: async (parent: unknown, dialogOptions: Record<string, unknown>) => {
        stubState.openDialogs.push({ parent, options: dialogOptions })
        return structuredClone(stubState.openDialogAnswer)
      }
    },
    protocol: { handle: () => {}, registerSchemesAsPrivileged: () => {} },
    nativeTheme: new EventEmitter()
  }
  electron.default = electron

  const moduleInternals = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown }
  const originalLoad = moduleInternals._load
  moduleInternals._load = function (request: string, ...rest: unknown[]) {
    if (request === 'electron') return electron
    return originalLoad.call(this, request, ...rest)
  }
  const require = createRequire(__filename)
  const resolved = require.resolve('electron')
  const cached = new Module(resolved)
  cached.filename = resolved
  cached.loaded = true
  cached.exports = electron
  require.cache[resolved] = cached

  return {
    app,
    module: electron,
    state: stubState,
    restore() {
      moduleInternals._load = originalLoad
      delete require.cache[resolved]
    }
  }
}

/** An IPC event as Electron builds it for `ipcMain.handle`. */
export function ipcEvent(contents: FakeWebContents, frame: { url?: string; parent?: unknown } | null = {}) {
  return {
    sender: contents,
    senderFrame: frame === null ? null : { url: frame.url ?? contents.getURL(), parent: frame.parent ?? null }
  }
}

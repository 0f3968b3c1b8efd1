import { join } from 'node:path'
import { app, dialog, globalShortcut, session } from 'electron'
import appIcon from '../../resources/icon.png?asset'
import trayIcon from '../../resources/tray.png?asset'
import trayTemplateIcon from '../../resources/trayTemplate.png?asset'
import { translator } from '../../shared/i18n'
import { IpcError } from '../../shared/ipc/define'
import { CairnApp } from '../core/app/cairn-app'
import { CairnCore } from '../core/cairn'
import { homePaths, resolveHome } from '../core/config/home'
import { installIpcBridge } from './ipc/bridge'
import { log, logToFile } from './log'
import { resolveNativeBinding } from './native'
import { utilityReviewSpawner } from './review/utility-spawner'
import { openSettings, openShellStore } from './settings/open-settings'
import { showStartFailure, startError } from './start-error'
import { electronKeyring } from './settings/os-keyring'
import { KeyringSecretStore } from './settings/secrets'
import { filePicker, folderPicker } from './shell/folder-picker'
import { adoptLoginShellPath } from './shell/login-path'
import { attachContextMenu, installAppMenu } from './shell/menus'
import { openFolder } from './shell/open-folder'
import { QuickPromptShortcut } from './shell/shortcut'
import { CairnTray } from './shell/tray'
import { trayIsShown } from './shell/tray-presence'
import { appOrigin } from './windows/app-origin'
import { AppWindows } from './windows/app-windows'
import { quickPlacement } from './windows/quick-placement'
import { hardenSession, openExternalSafely } from './windows/hardening'

/** Everything started for one run of the app, and how to stop it. */
export interface RunningShell {
  windows: AppWindows
  stop(): Promise<void>
}

/**
 * How long the reviews of the conversations open at quit may run, windows hidden; what has not
 * finished by then is stopped and recorded as such (the utility-process worker cannot outlive the app).
 */
const QUIT_REVIEW_MS = 30_000

/** Quitting never waits longer than this for the core to close: the quit reviews, then a review worker's own grace. */
const STOP_BUDGET_MS = QUIT_REVIEW_MS + 15_000

/**
 * How long a state.db query on the main (UI) thread waits for another process's write lock before
 * failing: short, so the windows never freeze for long; the CLI and the worker wait longer.
 */
const MAIN_PROCESS_DB_BUSY_MS = 1_500

/**
 * Opens the data home and wires the Electron-free core into windows, IPC, tray and shortcut.
 * Runs after `app.whenReady()`. Each step registers its undo, so a failure half-way (or quitting)
 * closes exactly what was opened, in reverse order.
 */
export async function openShell(): Promise<RunningShell> {
  const undo: Array<[string, () => unknown]> = []
  const stop = async () => {
    for (const [name, step] of undo.splice(0).reverse()) {
      try {
        await step()
      } catch (error) {
        log.error(`while closing (${name})`, error)
      }
    }
  }
  try {
    return { ...(await start(undo)), stop }
  } catch (error) {
    await stop()
    throw error
  }
}

async function start(undo: Array<[string, () => unknown]>): Promise<Omit<RunningShell, 'stop'>> {
  const home = resolveHome(null, process.env)
  logToFile(homePaths(home).mainLog)
  log.info(`Cairn ${app.getVersion()} starting (Electron ${process.versions.electron ?? 'stand-in'}, ${process.platform}-${process.arch}${app.isPackaged ? ', packaged' : ''}), data home ${home}`)
  // Asked now, awaited before anything can start a command or an MCP server.
  const loginPath = adoptLoginShellPath({ platform: process.platform, packaged: app.isPackaged }, process.env)
  const settings = openSettings(home)
  undo.push(['settings', () => settings.close()])

  const native = resolveNativeBinding({ packaged: app.isPackaged, appPath: app.getAppPath(), electronVersion: process.versions.electron, env: process.env })
  if (!native.ok) throw new Error(native.message)
  // A damaged state.db is worded for the dialog in the user's language (see startError).
  const core = await CairnCore.open({ home, nativeBinding: native.path, watchSkills: true, settings, busyTimeoutMs: MAIN_PROCESS_DB_BUSY_MS }).catch(
    (error: unknown) => {
      throw startError(error, settings.get().ui.language, { home, nativeBinding: native.path })
    }
  )
  undo.push(['core', () => core.close()])

  const language = () => translator(core.config.get().ui.language)
  const origin = appOrigin(join(__dirname, '..', 'renderer'))
  const windows = new AppWindows({
    origin,
    preload: join(__dirname, '..', 'preload', 'index.js'),
    shellState: openShellStore(app.getPath('userData')),
    icon: process.platform === 'linux' ? appIcon : undefined,
    quickPlacement: quickPlacement(process.platform, process.env, app.commandLine.getSwitchValue('ozone-platform')),
    // Closing the main window ends the app unless a tray really shows it is still there (macOS keeps
    // the app in the Dock, as Mac apps do); the hidden quick prompt must not keep it alive unseen.
    onMainClosed: () => {
      if (process.platform !== 'darwin' && !windows.keepRunningInTray) app.quit()
    },
    onWindowCreated: (window) => attachContextMenu(window, language)
  })
  undo.push(['windows', () => windows.prepareToQuit()])

  const shellPath = await loginPath
  if (shellPath) log.info(shellPath.adopted ? `PATH taken from the login shell (${shellPath.shell})` : `could not read the login shell's PATH (${shellPath.shell}); commands see the launch PATH`)

  const cairn = new CairnApp({
    core,
    spawnWorker: utilityReviewSpawner(),
    secrets: new KeyringSecretStore(join(home, 'secrets.json'), electronKeyring(), { onProblem: (message) => log.warn(message) }),
    platform: {
      mode: 'desktop',
      openMain: (sessionId) => windows.openMain(sessionId),
      hideQuick: () => windows.hideQuick(),
      openExternal: async (url) => {
        if (!(await openExternalSafely(url))) throw IpcError.of('VALIDATION_FAILED', 'link.https_only', {})
      },
      pickFolder: folderPicker({
        dialog,
        parent: () => windows.showMain(),
        title: () => language()('workspace.pickTitle')
      }),
      pickFile: filePicker({ dialog, parent: () => windows.showMain(), title: () => language()('import.pickTitle') }),
      openPath: openFolder
    },
    version: app.getVersion(),
    quitReviewMs: QUIT_REVIEW_MS,
    // A conversation never works in the app's own files (resourcesPath is unset when the shell runs under plain Node).
    forbiddenWorkspaceRoots: [app.getAppPath(), process.resourcesPath].filter((root): root is string => typeof root === 'string' && root !== '')
  })
  undo.push(['app', () => cairn.close()])

  const appMenu = installAppMenu({
    platform: process.platform,
    packaged: app.isPackaged,
    appName: app.getName(),
    t: language,
    actions: { openSettings: () => windows.openView({ view: 'settings' }), newChat: () => windows.openView({ view: 'chat', newChat: true }), newIncognitoChat: () => windows.openView({ view: 'chat', newChat: true, incognito: true }) }
  })
  hardenSession(session.defaultSession, origin)
  const stopBridge = installIpcBridge({
    app: cairn,
    origin,
    windowKind: (id) => windows.kindOf(id),
    broadcast: (name, payload) => windows.broadcast(name, payload),
    // A packaged app runs in production mode: answers are not checked against the contract unless asked.
    checkOutputs: !app.isPackaged || process.env.CAIRN_CHECK_OUTPUTS === '1'
  })
  undo.push(['ipc', stopBridge])
  windows.start()

  const shortcut = new QuickPromptShortcut(globalShortcut, () => windows.toggleQuick())
  undo.push(['shortcut', () => shortcut.dispose()])
  const applyShortcut = (accelerator: string) => {
    const status = shortcut.apply(accelerator)
    if (status.problem) log.warn(status.problem)
  }
  applyShortcut(core.config.get().ui.shortcut)

  const tray = new CairnTray({
    app: cairn,
    windows,
    icon: process.platform === 'darwin' ? trayTemplateIcon : trayIcon,
    template: process.platform === 'darwin',
    shortcut: () => shortcut.current(),
    quit: () => app.quit()
  })
  if (tray.start()) {
    void trayIsShown(process.platform).then((shown) => {
      windows.keepRunningInTray = shown
      if (!shown) log.info('no system tray is shown on this desktop: closing the window quits Cairn')
    })
  }
  undo.push(['tray', () => tray.destroy()])

  // The CLI or an editor changed config.json: tell the windows (our own updates announce themselves).
  undo.push(['settings watch', settings.onChange((config) => cairn.emit('settings.changed', { config }))])
  undo.push(['settings problems', settings.onProblem((message) => log.warn(`${message} Cairn keeps using the settings it had.`))])
  undo.push([
    'settings events',
    cairn.events.on((event) => {
      if (event.name !== 'settings.changed') return
      applyShortcut(event.payload.config.ui.shortcut)
      appMenu.refresh()
    })
  ])
  return { windows }
}

/**
 * The app's life: one instance, start when ready, a clear dialog when startup fails, and an orderly
 * stop on quit (shortcuts, tray, IPC, review worker, core) before Electron exits.
 */
export function runCairn(): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return
  }
  if (process.platform === 'win32') app.setAppUserModelId('app.cairn.desktop')
  let shell: RunningShell | null = null
  let phase: 'starting' | 'running' | 'stopping' | 'stopped' = 'starting'

  // Only a running shell shows its window: while quitting, the IPC bridge is gone, and a window
  // opened then would be a page that cannot answer.
  app.on('second-instance', () => {
    if (phase === 'running') shell?.windows.showMain()
  })
  app.on('activate', () => {
    if (phase === 'running') shell?.windows.showMain()
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin' && !shell?.windows.keepRunningInTray) app.quit()
  })
  app.on('before-quit', (event) => {
    shell?.windows.prepareToQuit()
    if (phase === 'stopped' || !shell) return
    event.preventDefault()
    if (phase === 'stopping') return
    phase = 'stopping'
    const running = shell
    // Quitting looks instant: the windows go now, the quit reviews finish behind them.
    running.windows.hideAll()
    void withBudget(running.stop(), STOP_BUDGET_MS).finally(() => {
      phase = 'stopped'
      app.quit()
    })
  })
  app.on('will-quit', () => globalShortcut.unregisterAll())

  void app
    .whenReady()
    .then(openShell)
    .then((started) => {
      shell = started
      phase = 'running'
    })
    .catch((error: unknown) => {
      phase = 'stopped'
      void showStartFailure(error, { dialog, app, log })
    })
}

function withBudget(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      log.warn(`closing took longer than ${ms / 1000} s; quitting anyway`)
      resolve()
    }, ms)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

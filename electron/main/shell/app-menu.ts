import type { MenuItemConstructorOptions } from 'electron'
import type { MessageKey, Params, Translate } from '../../../shared/i18n'

export interface AppMenuActions {
  openSettings(): void
  newChat(): void
  /** A new chat that is not saved and not learned from (issue 28, part C). */
  newIncognitoChat(): void
}

export interface AppMenuOptions {
  platform: NodeJS.Platform
  /** Packaged builds hide reload and developer tools: a stray Cmd+R would drop the user's half-typed prompt. */
  packaged: boolean
  t: Translate
  appName: string
  actions: AppMenuActions
}

const SETTINGS_ACCELERATOR = 'CmdOrCtrl+,'
const NEW_CHAT_ACCELERATOR = 'CmdOrCtrl+N'
const NEW_INCOGNITO_CHAT_ACCELERATOR = 'CmdOrCtrl+Shift+N'

/**
 * The application menu. Role items still get a translated `label`: Electron's own role labels are English only.
 * macOS keeps About/Settings/Quit in the app menu (named after the app); Windows and Linux put Settings and Quit under File.
 */
export function appMenuTemplate(options: AppMenuOptions): MenuItemConstructorOptions[] {
  const { platform, packaged, t, appName, actions } = options
  const mac = platform === 'darwin'
  const label = (key: MessageKey, params?: Params) => menuText(t(key, params), platform)
  const settings: MenuItemConstructorOptions = { label: label('menu.settings'), accelerator: SETTINGS_ACCELERATOR, click: () => actions.openSettings() }
  const quit: MenuItemConstructorOptions = { role: 'quit', label: label('menu.quit', { app: appName }) }

  const appMenu: MenuItemConstructorOptions = {
    label: menuText(appName, platform),
    submenu: [
      { role: 'about', label: label('menu.about', { app: appName }) },
      separator(),
      settings,
      separator(),
      { role: 'services', label: label('menu.services') },
      separator(),
      { role: 'hide', label: label('menu.hide', { app: appName }) },
      { role: 'hideOthers', label: label('menu.hideOthers') },
      { role: 'unhide', label: label('menu.unhide') },
      separator(),
      quit
    ]
  }

  const fileMenu: MenuItemConstructorOptions = {
    label: label('menu.file'),
    submenu: [
      { label: label('menu.newChat'), accelerator: NEW_CHAT_ACCELERATOR, click: () => actions.newChat() },
      { label: label('menu.newIncognitoChat'), accelerator: NEW_INCOGNITO_CHAT_ACCELERATOR, click: () => actions.newIncognitoChat() },
      ...(mac ? [] : [settings]),
      separator(),
      { role: 'close', label: label('menu.close') },
      ...(mac ? [] : [quit])
    ]
  }

  const editMenu: MenuItemConstructorOptions = {
    label: label('menu.edit'),
    submenu: [
      { role: 'undo', label: label('menu.undo') },
      { role: 'redo', label: label('menu.redo') },
      separator(),
      { role: 'cut', label: label('menu.cut') },
      { role: 'copy', label: label('menu.copy') },
      { role: 'paste', label: label('menu.paste') },
      ...(mac ? [{ role: 'pasteAndMatchStyle', label: label('menu.pasteAndMatchStyle') } satisfies MenuItemConstructorOptions] : []),
      { role: 'delete', label: label('menu.delete') },
      separator(),
      { role: 'selectAll', label: label('menu.selectAll') }
    ]
  }

  const developerItems: MenuItemConstructorOptions[] = packaged
    ? []
    : [
        { role: 'reload', label: label('menu.reload') },
        { role: 'forceReload', label: label('menu.forceReload') },
        { role: 'toggleDevTools', label: label('menu.toggleDevTools') },
        separator()
      ]
  const viewMenu: MenuItemConstructorOptions = {
    label: label('menu.view'),
    submenu: [
      ...developerItems,
      { role: 'resetZoom', label: label('menu.resetZoom') },
      { role: 'zoomIn', label: label('menu.zoomIn') },
      { role: 'zoomOut', label: label('menu.zoomOut') },
      separator(),
      { role: 'togglefullscreen', label: label('menu.toggleFullScreen') }
    ]
  }

  // The `window` role lets macOS list the open windows in this menu.
  const windowMenu: MenuItemConstructorOptions = {
    label: label('menu.window'),
    role: 'window',
    submenu: mac
      ? [{ role: 'minimize', label: label('menu.minimize') }, { role: 'zoom', label: label('menu.zoom') }, separator(), { role: 'front', label: label('menu.front') }]
      : [{ role: 'minimize', label: label('menu.minimize') }, { role: 'close', label: label('menu.close') }]
  }

  return [...(mac ? [appMenu] : []), fileMenu, editMenu, viewMenu, windowMenu]
}

/** A fresh object per use, so no two menu items share one options object. */
function separator(): MenuItemConstructorOptions {
  return { type: 'separator' }
}

/** Windows reads `&` in a menu label as a mnemonic marker. */
function menuText(text: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? text.replace(/&/g, '&&') : text
}

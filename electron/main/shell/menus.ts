import { Menu, clipboard, type BrowserWindow } from 'electron'
import type { Translate } from '../../../shared/i18n'
import { appMenuTemplate, type AppMenuActions } from './app-menu'
import { contextMenuTemplate } from './context-menu'

export interface AppMenuInstall {
  platform: NodeJS.Platform
  packaged: boolean
  appName: string
  /** The user's language now: the menu is rebuilt in it by `refresh`. */
  t(): Translate
  actions: AppMenuActions
}

/** Sets the application menu; `refresh()` builds it again (after the language changed). */
export function installAppMenu(options: AppMenuInstall): { refresh(): void } {
  const refresh = () => Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate({ ...options, t: options.t() })))
  refresh()
  return { refresh }
}

/** The right-click menu of a window's page (text fields, selections, links), in the user's language. */
export function attachContextMenu(window: BrowserWindow, t: () => Translate): void {
  const contents = window.webContents
  contents.on('context-menu', (_event, params) => {
    const template = contextMenuTemplate(params, t(), {
      replaceMisspelling: (word) => contents.replaceMisspelling(word),
      addToDictionary: (word) => contents.session.addWordToSpellCheckerDictionary(word),
      copyLink: (url) => clipboard.writeText(url)
    })
    if (template.length > 0 && !window.isDestroyed()) Menu.buildFromTemplate(template).popup({ window })
  })
}
